import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { classes } from '../../db/schema/index.js';

/** The building a class sits in, if recorded. */
export async function buildingOfClass(db: DbOrTx, classId: number): Promise<number | null> {
  const [row] = await db
    .select({ buildingId: classes.buildingId })
    .from(classes)
    .where(eq(classes.id, classId));
  return row?.buildingId ?? null;
}
