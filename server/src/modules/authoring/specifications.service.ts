import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Specification } from '@attesta/contract';
import type { Db, DbOrTx } from '../../db/client.js';
import { specificationElements, specifications } from '../../db/schema/index.js';
import { conflict, notFound } from '../../lib/errors.js';
import { fieldError, record, writing } from './catalog.service.js';
import * as repo from './content.repo.js';
import type { Actor } from './pause-policy.service.js';
import { readElementRows, tableOf } from './spec-import.js';

/*
 * Specifications (кодификатор, docs/design.md §2): content elements and skills with codes, as a
 * tree (parent, position among siblings). Tasks are classified by elements (task_elements); a
 * specification or element that classifies tasks, or a specification a subject test names, is not
 * deleted. Import from a spreadsheet is all or nothing and updates names and parents by code.
 */

type ElementRow = repo.ElementRow;

/** The elements in tree order: each after its parent, siblings by position; depth 0 at the top. */
export function treeOrder(rows: readonly ElementRow[]) {
  const ids = new Set(rows.map((r) => r.id));
  const children = new Map<number | null, ElementRow[]>();
  for (const r of rows) {
    const parent = r.parentId !== null && ids.has(r.parentId) ? r.parentId : null;
    const list = children.get(parent) ?? [];
    list.push(r);
    children.set(parent, list);
  }
  for (const list of children.values()) list.sort((a, b) => a.position - b.position || a.id - b.id);
  const out: (ElementRow & { depth: number })[] = [];
  const seen = new Set<number>();
  const walk = (parent: number | null, depth: number) => {
    for (const r of children.get(parent) ?? []) {
      if (seen.has(r.id)) continue;
      seen.add(r.id);
      out.push({ ...r, depth });
      walk(r.id, depth + 1);
    }
  };
  walk(null, 0);
  return out;
}

export const specificationList = (db: Db, subjectId?: number) => repo.listSpecifications(db, subjectId);

export async function specification(db: DbOrTx, id: number): Promise<Specification> {
  const summary = await repo.findSpecification(db, id);
  if (!summary) throw notFound('No such specification');
  const elements = treeOrder(await repo.elementsOf(db, id)).map((e) => ({
    id: e.id,
    code: e.code,
    name: e.name,
    kind: e.kind,
    parentId: e.parentId,
    position: e.position,
    depth: e.depth,
  }));
  return { ...summary, elements };
}

interface SpecificationBody {
  name: string;
  subjectId?: number | null | undefined;
  parallel?: number | null | undefined;
  description?: string | null | undefined;
}

async function checkSubject(db: DbOrTx, subjectId: number | null | undefined) {
  if (subjectId && !(await repo.findSubject(db, subjectId)))
    throw fieldError('body.subjectId', 'no such subject', 'not_found');
}

export async function createSpecification(db: Db, actor: Actor, body: SpecificationBody) {
  return db.transaction(async (tx) => {
    await checkSubject(tx, body.subjectId);
    const [row] = await tx
      .insert(specifications)
      .values({
        name: body.name,
        subjectId: body.subjectId ?? null,
        parallel: body.parallel ?? null,
        description: body.description ?? null,
      })
      .returning();
    await record(tx, actor, 'content.specification.create', 'specification', row!.id, { name: body.name });
    return specification(tx, row!.id);
  });
}

export async function updateSpecification(db: Db, actor: Actor, id: number, body: SpecificationBody) {
  return db.transaction(async (tx) => {
    const before = await repo.lockSpecification(tx, id);
    if (!before) throw notFound('No such specification');
    await checkSubject(tx, body.subjectId);
    const values = {
      name: body.name,
      ...(body.subjectId !== undefined ? { subjectId: body.subjectId } : {}),
      ...(body.parallel !== undefined ? { parallel: body.parallel } : {}),
      ...(body.description !== undefined ? { description: body.description } : {}),
    };
    await tx.update(specifications).set(values).where(eq(specifications.id, id));
    await record(tx, actor, 'content.specification.update', 'specification', id, {
      before: { name: before.name, subjectId: before.subjectId, parallel: before.parallel },
      after: values,
    });
    return specification(tx, id);
  });
}

export async function deleteSpecification(db: Db, actor: Actor, id: number) {
  await db.transaction(async (tx) => {
    const before = await repo.lockSpecification(tx, id);
    if (!before) throw notFound('No such specification');
    const tests = await repo.subjectTestsUsingSpecification(tx, id);
    if (tests) throw conflict('conflict', `${tests} subject test(s) use this specification`);
    const elements = await repo.elementsOf(tx, id);
    const classified = await repo.tasksClassifiedBy(
      tx,
      elements.map((e) => e.id),
    );
    if (classified) throw conflict('conflict', `Tasks are classified by its elements (${classified})`);
    await tx.delete(specifications).where(eq(specifications.id, id));
    await record(tx, actor, 'content.specification.delete', 'specification', id, {
      name: before.name,
      elements: elements.length,
    });
  });
  return { ok: true as const };
}

// ---------------------------------------------------------------- elements

interface ElementBody {
  code: string;
  name: string;
  kind: string;
  parentId?: number | null | undefined;
  position?: number | undefined;
}

const codeTaken = (code: string) =>
  conflict('code_taken', `The specification already has an element ${code}`);

async function nextPosition(db: DbOrTx, specificationId: number, parentId: number | null) {
  const [row] = await db
    .select({ n: sql<number>`coalesce(max(${specificationElements.position}) + 1, 0)::int` })
    .from(specificationElements)
    .where(
      and(
        eq(specificationElements.specificationId, specificationId),
        parentId === null
          ? sql`${specificationElements.parentId} is null`
          : eq(specificationElements.parentId, parentId),
      ),
    );
  return row?.n ?? 0;
}

/** The parent an element may take: one of the same specification, not itself nor below it. */
async function checkParent(
  db: DbOrTx,
  specificationId: number,
  parentId: number | null | undefined,
  self?: number,
) {
  if (parentId === null || parentId === undefined) return;
  const rows = await repo.elementsOf(db, specificationId);
  const byId = new Map(rows.map((r) => [r.id, r]));
  if (!byId.has(parentId))
    throw fieldError('body.parentId', 'no such element in this specification', 'not_found');
  for (let p: number | null = parentId; p !== null; p = byId.get(p)?.parentId ?? null)
    if (p === self) throw fieldError('body.parentId', 'an element cannot be placed below itself', 'cycle');
}

export async function addElement(db: Db, actor: Actor, specificationId: number, body: ElementBody) {
  return writing(
    () =>
      db.transaction(async (tx) => {
        if (!(await repo.lockSpecification(tx, specificationId))) throw notFound('No such specification');
        await checkParent(tx, specificationId, body.parentId);
        const existing = await repo.elementsOf(tx, specificationId);
        if (existing.some((e) => e.code === body.code)) throw codeTaken(body.code);
        const parentId = body.parentId ?? null;
        const [row] = await tx
          .insert(specificationElements)
          .values({
            specificationId,
            code: body.code,
            name: body.name,
            kind: body.kind,
            parentId,
            position: body.position ?? (await nextPosition(tx, specificationId, parentId)),
          })
          .returning();
        await record(tx, actor, 'content.element.create', 'specification_element', row!.id, {
          specificationId,
          code: body.code,
        });
        return specification(tx, specificationId);
      }),
    () => codeTaken(body.code),
  );
}

export async function updateElement(db: Db, actor: Actor, id: number, body: ElementBody) {
  return writing(
    () =>
      db.transaction(async (tx) => {
        const element = await repo.findElement(tx, id);
        if (!element) throw notFound('No such element');
        const specificationId = element.specificationId;
        await repo.lockSpecification(tx, specificationId);
        await checkParent(tx, specificationId, body.parentId, id);
        const existing = await repo.elementsOf(tx, specificationId);
        if (existing.some((e) => e.code === body.code && e.id !== id)) throw codeTaken(body.code);
        const parentId = body.parentId === undefined ? element.parentId : body.parentId;
        const values = {
          code: body.code,
          name: body.name,
          kind: body.kind,
          parentId,
          position:
            body.position ??
            (parentId === element.parentId
              ? element.position
              : await nextPosition(tx, specificationId, parentId)),
        };
        await tx.update(specificationElements).set(values).where(eq(specificationElements.id, id));
        await record(tx, actor, 'content.element.update', 'specification_element', id, {
          before: { code: element.code, name: element.name, kind: element.kind, parentId: element.parentId },
          after: values,
        });
        return specification(tx, specificationId);
      }),
    () => codeTaken(body.code),
  );
}

export async function deleteElement(db: Db, actor: Actor, id: number) {
  return db.transaction(async (tx) => {
    const element = await repo.findElement(tx, id);
    if (!element) throw notFound('No such element');
    await repo.lockSpecification(tx, element.specificationId);
    const rows = await repo.elementsOf(tx, element.specificationId);
    const subtree = new Set([id]);
    for (let grew = true; grew;) {
      grew = false;
      for (const r of rows)
        if (r.parentId !== null && subtree.has(r.parentId) && !subtree.has(r.id)) {
          subtree.add(r.id);
          grew = true;
        }
    }
    const classified = await repo.tasksClassifiedBy(tx, [...subtree]);
    if (classified)
      throw conflict('conflict', `Tasks are classified by this element or below it (${classified})`);
    await tx.delete(specificationElements).where(inArray(specificationElements.id, [...subtree]));
    await record(tx, actor, 'content.element.delete', 'specification_element', id, {
      specificationId: element.specificationId,
      code: element.code,
      removed: subtree.size,
    });
    return specification(tx, element.specificationId);
  });
}

// ---------------------------------------------------------------- import

export async function importElements(
  db: Db,
  actor: Actor,
  specificationId: number,
  file: { name: string; data: Buffer },
) {
  if (!(await repo.findSpecification(db, specificationId))) throw notFound('No such specification');
  const table = await tableOf(file.name, file.data);
  return db.transaction(async (tx) => {
    if (!(await repo.lockSpecification(tx, specificationId))) throw notFound('No such specification');
    const existing = await repo.elementsOf(tx, specificationId);
    const codeById = new Map(existing.map((e) => [e.id, e.code]));
    const byCode = new Map(existing.map((e) => [e.code, e]));
    const parentCodes = new Map(
      existing.map((e) => [e.code, e.parentId === null ? null : (codeById.get(e.parentId) ?? null)]),
    );
    const rows = readElementRows(table, parentCodes);

    let created = 0;
    let updated = 0;
    const positions = new Map<string | null, number>();
    for (const r of rows) {
      const position = positions.get(r.parent) ?? 0;
      positions.set(r.parent, position + 1);
      const known = byCode.get(r.code);
      if (known) {
        await tx
          .update(specificationElements)
          .set({ name: r.name, position, ...(r.kind ? { kind: r.kind } : {}) })
          .where(eq(specificationElements.id, known.id));
        updated++;
      } else {
        await tx
          .insert(specificationElements)
          .values({ specificationId, code: r.code, name: r.name, kind: r.kind ?? 'content', position });
        created++;
      }
    }
    const idOf = new Map((await repo.elementsOf(tx, specificationId)).map((e) => [e.code, e.id]));
    for (const r of rows)
      await tx
        .update(specificationElements)
        .set({ parentId: r.parent === null ? null : idOf.get(r.parent)! })
        .where(eq(specificationElements.id, idOf.get(r.code)!));
    await record(tx, actor, 'content.specification.import', 'specification', specificationId, {
      file: file.name,
      created,
      updated,
    });
    return { created, updated, specification: await specification(tx, specificationId) };
  });
}
