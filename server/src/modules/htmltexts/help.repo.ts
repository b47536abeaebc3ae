import { and, asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { helpSections, htmlTexts } from '../../db/schema/index.js';

export type HelpRow = typeof helpSections.$inferSelect;
export type HtmlTextRow = typeof htmlTexts.$inferSelect;

/**
 * The published sections a caller with `roles` may read (none: a visitor): those naming no role,
 * or one of the caller's. In the admins' order, then by title.
 */
export const publishedHelp = (db: DbOrTx, roles: readonly string[]) =>
  db
    .select()
    .from(helpSections)
    .where(
      and(
        eq(helpSections.isPublished, true),
        sql`(cardinality(${helpSections.roles}) = 0 or ${helpSections.roles} && ${sql.param([...roles])}::text[])`,
      ),
    )
    .orderBy(asc(helpSections.sortOrder), asc(helpSections.title), asc(helpSections.id));

export const allHelp = (db: DbOrTx) =>
  db
    .select()
    .from(helpSections)
    .orderBy(asc(helpSections.sortOrder), asc(helpSections.title), asc(helpSections.id));

export async function helpById(db: DbOrTx, id: number): Promise<HelpRow | null> {
  const [row] = await db.select().from(helpSections).where(eq(helpSections.id, id)).limit(1);
  return row ?? null;
}

export type HelpValues = Pick<HelpRow, 'title' | 'html' | 'roles' | 'pages' | 'sortOrder' | 'isPublished'> & {
  updatedBy: number;
};

export async function insertHelp(db: DbOrTx, values: HelpValues): Promise<HelpRow> {
  const [row] = await db.insert(helpSections).values(values).returning();
  return row!;
}

export async function updateHelp(db: DbOrTx, id: number, values: HelpValues): Promise<HelpRow | null> {
  const [row] = await db
    .update(helpSections)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(helpSections.id, id))
    .returning();
  return row ?? null;
}

export async function deleteHelp(db: DbOrTx, id: number): Promise<boolean> {
  const rows = await db
    .delete(helpSections)
    .where(eq(helpSections.id, id))
    .returning({ id: helpSections.id });
  return rows.length > 0;
}

export const allHtmlTexts = (db: DbOrTx) =>
  db.select().from(htmlTexts).orderBy(asc(htmlTexts.title), asc(htmlTexts.id));

export type HtmlTextValues = Pick<HtmlTextRow, 'code' | 'title' | 'html' | 'isPublished'>;

export async function insertHtmlText(db: DbOrTx, values: HtmlTextValues): Promise<HtmlTextRow> {
  const [row] = await db.insert(htmlTexts).values(values).returning();
  return row!;
}

export async function updateHtmlText(
  db: DbOrTx,
  id: number,
  values: HtmlTextValues,
): Promise<HtmlTextRow | null> {
  const [row] = await db
    .update(htmlTexts)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(htmlTexts.id, id))
    .returning();
  return row ?? null;
}
