import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type {
  CreateWorkersBody,
  CreateWorkersResult,
  IntegrationMrko,
  IntegrationMrkoQuery,
  IntegrationReportAll,
  IntegrationReportAllQuery,
  PakSpecifications,
} from '@attesta/contract';
import type { Db, Tx } from '../../db/client.js';
import {
  schools,
  specificationElements,
  specifications,
  subjectExams,
  subjectTests,
  subjects,
  workerPositions,
  workers,
} from '../../db/schema/index.js';
import type { AuthContext } from '../../auth/types.js';
import { audit } from '../../lib/audit.js';
import { badRequest, forbidden } from '../../lib/errors.js';
import { machineExportCsv, machineExportPage, type ReportFile } from '../reports/index.js';

/*
 * The data calls of integrations (docs/integrations.md). Which calls a key may make and which ОО
 * it reads are settled by integration.access.ts; here `ooId` (null: every ОО) limits the rows.
 * Only published results leave (the reports module's exports). Exports and worker loads are audited.
 */

export interface Caller {
  db: Db;
  auth: AuthContext;
  /** The key's ОО; null for every ОО (an admin, or a key without one). */
  ooId: number | null;
  ip: string | null;
}

async function auditExport(c: Caller, call: string, details: Record<string, unknown>) {
  await audit(c.db, {
    userId: c.auth.userId,
    action: 'integration.export',
    entity: 'integration',
    entityId: call,
    details: { ...details, ooId: c.ooId },
    ip: c.ip,
  });
}

/** Published students' marks for the MRKO journal: a page of JSON, or every page as CSV. */
export async function mrkoExport(
  c: Caller,
  q: IntegrationMrkoQuery,
): Promise<{ data: IntegrationMrko } | { file: ReportFile }> {
  const filters = { startDate: q.startDate, endDate: q.endDate, diagnosticId: q.diagnosticId };
  const scope = { db: c.db, auth: c.auth, ooId: c.ooId };
  if (q.format === 'csv') {
    const { file, rows } = await machineExportCsv(scope, 'mrko', filters);
    await auditExport(c, 'mrko', { format: 'csv', filters, rows });
    return { file };
  }
  const { total, items } = await machineExportPage(scope, 'mrko', filters, q.page, q.pageSize);
  await auditExport(c, 'mrko', { format: 'json', filters, page: q.page, rows: items.length });
  return {
    data: {
      format: 'mrko.marks',
      version: 1,
      generatedAt: new Date().toISOString(),
      page: q.page,
      pageSize: q.pageSize,
      total,
      items,
    },
  };
}

/** Every published result of a period, in the attesta layout, a page at a time. */
export async function reportAll(c: Caller, q: IntegrationReportAllQuery): Promise<IntegrationReportAll> {
  const filters = { startDate: q.startDate, endDate: q.endDate };
  const { total, items } = await machineExportPage(
    { db: c.db, auth: c.auth, ooId: c.ooId },
    'attesta',
    filters,
    q.page,
    q.pageSize,
  );
  await auditExport(c, 'report/all', { format: 'json', filters, page: q.page, rows: items.length });
  return {
    format: 'attesta.results',
    version: 1,
    generatedAt: new Date().toISOString(),
    page: q.page,
    pageSize: q.pageSize,
    total,
    items,
  };
}

/**
 * The published subject tests offered for a grade (of one kind of exam, the `system`, if given)
 * with their specifications and elements in tree order, for the hardware-software complex (ПАК).
 */
export async function pakSpecifications(
  db: Db,
  q: { parallel: number; system?: PakSpecifications['system'] | undefined },
): Promise<PakSpecifications> {
  const tests = await db
    .select({
      subjectTestId: subjectTests.id,
      subjectTestName: subjectTests.name,
      subjectCode: subjects.code,
      subjectName: subjects.name,
      system: subjectExams.kind,
      parallels: subjectTests.parallels,
      specificationId: subjectTests.specificationId,
    })
    .from(subjectTests)
    .innerJoin(subjectExams, eq(subjectExams.id, subjectTests.subjectExamId))
    .innerJoin(subjects, eq(subjects.id, subjectExams.subjectId))
    .where(
      and(
        eq(subjectTests.status, 'published'),
        sql`${q.parallel} = any(${subjectTests.parallels})`,
        q.system ? eq(subjectExams.kind, q.system) : undefined,
      ),
    )
    .orderBy(asc(subjects.name), asc(subjectTests.name), asc(subjectTests.id));
  const specIds = [...new Set(tests.flatMap((t) => (t.specificationId ? [t.specificationId] : [])))];
  const [specs, elements] = specIds.length
    ? await Promise.all([
        db.select().from(specifications).where(inArray(specifications.id, specIds)),
        db
          .select()
          .from(specificationElements)
          .where(inArray(specificationElements.specificationId, specIds))
          .orderBy(asc(specificationElements.position), asc(specificationElements.id)),
      ])
    : [[], []];
  const bySpec = new Map<number, typeof elements>();
  for (const e of elements)
    (bySpec.get(e.specificationId) ?? bySpec.set(e.specificationId, []).get(e.specificationId)!).push(e);
  const specById = new Map(specs.map((s) => [s.id, s]));
  return {
    parallel: q.parallel,
    system: q.system ?? null,
    items: tests.map((t) => {
      const spec = t.specificationId ? specById.get(t.specificationId) : undefined;
      return {
        subjectTestId: t.subjectTestId,
        subjectTestName: t.subjectTestName,
        subjectCode: t.subjectCode,
        subjectName: t.subjectName,
        system: t.system,
        parallels: t.parallels,
        specification: spec
          ? {
              id: spec.id,
              name: spec.name,
              parallel: spec.parallel,
              description: spec.description,
              elements: (bySpec.get(spec.id) ?? []).map((e) => ({
                id: e.id,
                code: e.code,
                name: e.name,
                kind: e.kind,
                parentId: e.parentId,
                position: e.position,
              })),
            }
          : null,
      };
    }),
  };
}

/**
 * Worker positions by their names, each created when no position has it yet (positions are a
 * shared catalogue, named by whoever loads workers).
 */
export async function positionIdsByName(tx: Tx, names: string[]): Promise<Map<string, number>> {
  const unique = [...new Set(names)];
  if (!unique.length) return new Map();
  await tx
    .insert(workerPositions)
    .values(unique.map((name) => ({ name })))
    .onConflictDoNothing();
  const positions = await tx.select().from(workerPositions).where(inArray(workerPositions.name, unique));
  return new Map(positions.map((p) => [p.name, p.id]));
}

/**
 * Creates or updates workers by the sender's external id, all or nothing: the same body twice
 * gives the same rows (the second time every worker is `unchanged`). A school is named by its
 * code (400 `not_found` for an unknown one, 403 for a school outside the key's ОО); a position by
 * its name, created if new.
 */
export async function createWorkers(c: Caller, body: CreateWorkersBody): Promise<CreateWorkersResult> {
  const codes = [...new Set(body.workers.map((w) => w.schoolCode))];
  const found = await c.db
    .select({ id: schools.id, code: schools.code, ooId: schools.ooId })
    .from(schools)
    .where(inArray(schools.code, codes));
  const schoolByCode = new Map(found.map((s) => [s.code!, s]));
  const unknown = body.workers.flatMap((w, i) =>
    schoolByCode.has(w.schoolCode)
      ? []
      : [{ path: `body.workers.${i}.schoolCode`, message: 'unknown school code', code: 'not_found' }],
  );
  if (unknown.length) throw badRequest('not_found', 'unknown school code', unknown);
  if (c.ooId !== null && found.some((s) => s.ooId !== c.ooId))
    throw forbidden('a school outside the ОО of this key');

  return c.db.transaction(async (tx) => {
    const positionId = await positionIdsByName(
      tx,
      body.workers.flatMap((w) => (w.position ? [w.position] : [])),
    );
    const existing = await tx
      .select()
      .from(workers)
      .where(
        inArray(
          workers.externalId,
          body.workers.map((w) => w.externalId),
        ),
      )
      .for('update');
    const byExternal = new Map(existing.map((w) => [w.externalId!, w]));
    const items: CreateWorkersResult['items'] = [];
    for (const w of body.workers) {
      const values = {
        schoolId: schoolByCode.get(w.schoolCode)!.id,
        positionId: w.position ? positionId.get(w.position)! : null,
        surname: w.surname,
        name: w.name,
        patronymic: w.patronymic ?? null,
        email: w.email ?? null,
        isBlocked: w.isBlocked ?? false,
      };
      const old = byExternal.get(w.externalId);
      if (!old) {
        const [row] = await tx
          .insert(workers)
          .values({ ...values, externalId: w.externalId })
          .returning({ id: workers.id });
        items.push({ externalId: w.externalId, workerId: row!.id, status: 'created' });
        continue;
      }
      if (c.ooId !== null) {
        const [was] = await tx
          .select({ ooId: schools.ooId })
          .from(schools)
          .where(eq(schools.id, old.schoolId ?? 0));
        if (was && was.ooId !== c.ooId) throw forbidden('a worker of a school outside the ОО of this key');
      }
      const same = (Object.keys(values) as (keyof typeof values)[]).every((k) => old[k] === values[k]);
      if (!same) await tx.update(workers).set(values).where(eq(workers.id, old.id));
      items.push({ externalId: w.externalId, workerId: old.id, status: same ? 'unchanged' : 'updated' });
    }
    const count = (s: string) => items.filter((i) => i.status === s).length;
    const result = {
      created: count('created'),
      updated: count('updated'),
      unchanged: count('unchanged'),
      items,
    };
    await audit(tx, {
      userId: c.auth.userId,
      action: 'integration.workers',
      entity: 'integration',
      entityId: 'attesta/CreateWorkers',
      details: {
        created: result.created,
        updated: result.updated,
        unchanged: result.unchanged,
        ooId: c.ooId,
      },
      ip: c.ip,
    });
    return result;
  });
}
