import { and, asc, count, desc, eq, inArray, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import {
  htmlContainerResources,
  htmlContainers,
  htmlContainerVersions,
  tasks,
} from '../../db/schema/index.js';

/* Queries of the admin's html containers (containers.service.ts). */

export type ContainerRow = typeof htmlContainers.$inferSelect;
export type ContainerVersionRow = typeof htmlContainerVersions.$inferSelect;

export async function listContainers(db: DbOrTx): Promise<ContainerRow[]> {
  return db.select().from(htmlContainers).orderBy(asc(htmlContainers.name), asc(htmlContainers.id));
}

export async function findContainer(db: DbOrTx, id: number): Promise<ContainerRow | null> {
  const [row] = await db.select().from(htmlContainers).where(eq(htmlContainers.id, id)).limit(1);
  return row ?? null;
}

/** The container row locked for a new version: two uploads at once get consecutive numbers. */
export async function lockContainer(db: DbOrTx, id: number): Promise<ContainerRow | null> {
  const [row] = await db.select().from(htmlContainers).where(eq(htmlContainers.id, id)).for('update');
  return row ?? null;
}

export async function versionsOf(db: DbOrTx, ids: number[]): Promise<ContainerVersionRow[]> {
  if (!ids.length) return [];
  return db
    .select()
    .from(htmlContainerVersions)
    .where(inArray(htmlContainerVersions.containerId, ids))
    .orderBy(desc(htmlContainerVersions.version));
}

/**
 * Versions stored before version rows existed, or by the demo seed: (container, version, file
 * count, bytes) from the resources themselves.
 */
export async function resourceVersionsOf(db: DbOrTx, ids: number[]) {
  if (!ids.length) return [];
  return db
    .select({
      containerId: htmlContainerResources.containerId,
      version: htmlContainerResources.version,
      fileCount: count(),
    })
    .from(htmlContainerResources)
    .where(inArray(htmlContainerResources.containerId, ids))
    .groupBy(htmlContainerResources.containerId, htmlContainerResources.version);
}

/** Current tasks (not superseded) rendered by each container. */
export async function taskCounts(db: DbOrTx, ids: number[]): Promise<Map<number, number>> {
  if (!ids.length) return new Map();
  const rows = await db
    .select({ containerId: tasks.htmlContainerId, n: count() })
    .from(tasks)
    .where(and(inArray(tasks.htmlContainerId, ids), isNull(tasks.supersededAt)))
    .groupBy(tasks.htmlContainerId);
  return new Map(rows.map((r) => [r.containerId!, r.n]));
}

export async function insertContainer(db: DbOrTx, values: { name: string; entry: string }) {
  const [row] = await db
    .insert(htmlContainers)
    .values({ name: values.name, entry: values.entry, currentVersion: 1 })
    .returning();
  return row!;
}

export async function setCurrentVersion(
  db: DbOrTx,
  id: number,
  values: { currentVersion: number; entry: string; name: string },
) {
  const [row] = await db.update(htmlContainers).set(values).where(eq(htmlContainers.id, id)).returning();
  return row!;
}

export interface StoredResource {
  path: string;
  mime: string;
  data: Buffer;
}

/** The files of one version and its row. */
export async function insertVersion(
  db: DbOrTx,
  containerId: number,
  version: number,
  entry: string,
  createdBy: number,
  files: StoredResource[],
) {
  // A few rows per statement: each holds a whole file.
  for (let i = 0; i < files.length; i += 20) {
    await db
      .insert(htmlContainerResources)
      .values(files.slice(i, i + 20).map((f) => ({ containerId, version, ...f })));
  }
  const [row] = await db
    .insert(htmlContainerVersions)
    .values({
      containerId,
      version,
      entry,
      fileCount: files.length,
      totalBytes: files.reduce((sum, f) => sum + f.data.length, 0),
      createdBy,
    })
    .returning();
  return row!;
}
