import type {
  AdoptedEquating,
  CutScoresDto,
  Equating,
  EquatingQuery,
  EquatingTablesDto,
  ScaledScore,
} from '@attesta/contract';
import { and, desc, eq, sql } from 'drizzle-orm';
import { hasRole, type AuthContext } from '../../../auth/types.js';
import { ugnikOwnsDiagnostic } from '../../../auth/ugnik.access.js';
import type { Db, DbOrTx } from '../../../db/client.js';
import { equatingTables } from '../../../db/schema/index.js';
import { audit } from '../../../lib/audit.js';
import { badRequest, conflict, forbidden, notFound } from '../../../lib/errors.js';
import { shortUserName } from '../../../lib/person-name.js';
import { analyseItems } from './analyse.js';
import {
  equateVariants,
  levelOf,
  levelShares,
  lookupScaled,
  shownScaled,
  type CutScores,
  type EquatingTables,
} from './equating.js';
import { findDiagnostic, gradingOf, loadMatrix, subjectTestExists } from './item-analysis.repo.js';
import type { ResponseMatrix } from './matrix.js';

/*
 * Equating tables of a subject test in a diagnostic (issue 28, item 2; docs/item-analysis.md,
 * "Equating"): GET proposes them from the current calibration (admin; an ugnik for its own
 * diagnostics, read only) and shows the adopted ones; POST adopt stores the proposal as a new
 * version; PUT cutScores sets the levels on the adopted scale. Adoption and cut scores are
 * audited (`equating.adopt`, `equating.cut_scores`).
 *
 * Variants are handed out by spreading each room's starts over them (exam-test/variant-spread.ts),
 * not at random: variants that share no task with the reference are `not_linked` (no table).
 */

export interface EquatingActor {
  auth: AuthContext;
  ip: string | null;
}

async function checkScope(db: Db, auth: AuthContext, query: EquatingQuery, write: boolean) {
  const diagnostic = await findDiagnostic(db, query.diagnosticId);
  if (!diagnostic) throw notFound('No such diagnostic');
  if (!(await subjectTestExists(db, query.subjectTestId))) throw notFound('No such subject test');
  if (hasRole(auth, 'admin')) return diagnostic;
  if (!write && hasRole(auth, 'ugnik') && (await ugnikOwnsDiagnostic(db, auth, query.diagnosticId)) === true)
    return diagnostic;
  throw forbidden('This diagnostic is outside your scope');
}

/** 4 decimals: the stored and shown tables (logits, points). */
function rounded(t: EquatingTables): EquatingTablesDto {
  const r = (x: number) => Math.round(x * 1e4) / 1e4;
  return {
    ...t,
    scaleMin: r(t.scaleMin),
    scaleMax: r(t.scaleMax),
    variants: t.variants.map((v) => ({
      ...v,
      rows: v.rows.map((row) => ({
        primary: r(row.primary),
        theta: row.theta === null ? null : r(row.theta),
        scaled: r(row.scaled),
        csem: r(row.csem),
      })),
    })),
  };
}

/** Each variant's distribution of primary totals. */
function totalsOf(m: ResponseMatrix): Map<number, { score: number; count: number }[]> {
  const byVariant = m.variants.map(() => new Map<number, number>());
  for (let p = 0; p < m.persons; p++) {
    const v = m.variantOf[p]!;
    const cols = m.variants[v]!.columns.length;
    let total = 0;
    for (let j = 0; j < cols; j++) total += m.scores[p * m.width + j]!;
    const key = Math.round(total * 1e4) / 1e4;
    byVariant[v]!.set(key, (byVariant[v]!.get(key) ?? 0) + 1);
  }
  return new Map(
    m.variants.map((v, i) => [
      v.variantId,
      [...byVariant[i]!].map(([score, count]) => ({ score, count })).sort((a, b) => a.score - b.score),
    ]),
  );
}

type Proposal =
  | { tables: EquatingTablesDto; matrix: ResponseMatrix; unavailable: null }
  | { tables: null; matrix: ResponseMatrix | null; unavailable: NonNullable<Equating['unavailable']> };

/** The tables the current calibration gives, or why there are none (the item analysis' rules). */
async function propose(
  db: Db,
  query: EquatingQuery,
  published: boolean,
  endsAt: Date,
  now: Date,
): Promise<Proposal> {
  const grading = await gradingOf(db, query.diagnosticId, query.subjectTestId);
  if (grading.awaiting > 0 || grading.unscored > 0)
    return { tables: null, matrix: null, unavailable: 'awaiting_grading' };
  if (!published && endsAt > now) return { tables: null, matrix: null, unavailable: 'diagnostic_running' };
  const matrix = await loadMatrix(db, query.diagnosticId, query.subjectTestId, null);
  const result = equateVariants(analyseItems(matrix));
  if (typeof result === 'string') return { tables: null, matrix, unavailable: result };
  return { tables: rounded(result), matrix, unavailable: null };
}

async function currentRow(db: DbOrTx, query: EquatingQuery) {
  const [row] = await db
    .select({
      id: equatingTables.id,
      version: equatingTables.version,
      tables: equatingTables.tables,
      cutScores: equatingTables.cutScores,
      adoptedAt: equatingTables.adoptedAt,
      adoptedBy: sql<
        string | null
      >`(select ${shortUserName(sql`u`)} from users u where u.id = ${equatingTables.adoptedBy})`,
    })
    .from(equatingTables)
    .where(
      and(
        eq(equatingTables.diagnosticId, query.diagnosticId),
        eq(equatingTables.subjectTestId, query.subjectTestId),
      ),
    )
    .orderBy(desc(equatingTables.version))
    .limit(1);
  return row ?? null;
}

function adoptedOf(
  row: NonNullable<Awaited<ReturnType<typeof currentRow>>>,
  totals: Map<number, { score: number; count: number }[]> | null,
): AdoptedEquating {
  const tables = row.tables as EquatingTables;
  const cutScores = row.cutScores ?? null;
  return {
    id: row.id,
    version: row.version,
    adoptedAt: new Date(row.adoptedAt).toISOString(),
    adoptedBy: row.adoptedBy,
    tables: tables as EquatingTablesDto,
    cutScores,
    levels: cutScores && totals ? levelShares(tables, totals, cutScores) : [],
  };
}

export async function getEquating(
  db: Db,
  auth: AuthContext,
  query: EquatingQuery,
  now = new Date(),
): Promise<Equating> {
  const diagnostic = await checkScope(db, auth, query, false);
  const proposal = await propose(db, query, diagnostic.published, diagnostic.endsAt, now);
  const row = await currentRow(db, query);
  let matrix = proposal.matrix;
  if (row?.cutScores && !matrix) matrix = await loadMatrix(db, query.diagnosticId, query.subjectTestId, null);
  return {
    subjectTestId: query.subjectTestId,
    diagnosticId: query.diagnosticId,
    proposed: proposal.tables,
    unavailable: proposal.unavailable,
    adopted: row ? adoptedOf(row, matrix ? totalsOf(matrix) : null) : null,
  };
}

/** Adopts the current proposal as a new version (the previous version's cut scores carry over). */
export async function adoptEquating(db: Db, actor: EquatingActor, query: EquatingQuery, now = new Date()) {
  const diagnostic = await checkScope(db, actor.auth, query, true);
  const proposal = await propose(db, query, diagnostic.published, diagnostic.endsAt, now);
  if (!proposal.tables) throw conflict('equating_unavailable', `No tables to adopt: ${proposal.unavailable}`);
  const tables = proposal.tables;
  await db.transaction(async (tx) => {
    // one adoption at a time per diagnostic: the next version is read under the row's lock
    await tx.execute(sql`select id from diagnostics where id = ${query.diagnosticId} for update`);
    const previous = await currentRow(tx, query);
    const version = (previous?.version ?? 0) + 1;
    const cutScores = previous?.cutScores ?? null;
    await tx.insert(equatingTables).values({
      diagnosticId: query.diagnosticId,
      subjectTestId: query.subjectTestId,
      version,
      tables,
      cutScores,
      adoptedBy: actor.auth.userId,
    });
    await audit(tx, {
      userId: actor.auth.userId,
      action: 'equating.adopt',
      entity: 'diagnostic',
      entityId: query.diagnosticId,
      details: {
        subjectTestId: query.subjectTestId,
        version,
        model: tables.model,
        referenceVariantId: tables.referenceVariantId,
        variants: tables.variants.map((v) => ({ variantId: v.variantId, status: v.status })),
        ...(cutScores ? { cutScoresCarried: cutScores } : {}),
      },
      ip: actor.ip,
    });
  });
  return getEquating(db, actor.auth, query, now);
}

/** Sets the cut scores of the adopted table: basic < advanced < high, inside the scale. */
export async function setCutScores(
  db: Db,
  actor: EquatingActor,
  query: EquatingQuery,
  cuts: CutScoresDto,
  now = new Date(),
) {
  await checkScope(db, actor.auth, query, true);
  const row = await currentRow(db, query);
  if (!row) throw conflict('equating_not_adopted', 'Adopt the equating tables before setting cut scores');
  const tables = row.tables as EquatingTables;
  const errors: { path: string; message: string; code: string }[] = [];
  const order: (keyof CutScores)[] = ['basic', 'advanced', 'high'];
  order.forEach((key, i) => {
    const x = cuts[key];
    const below = i > 0 ? cuts[order[i - 1]!] : -Infinity;
    if (!Number.isFinite(x) || x <= tables.scaleMin || x > tables.scaleMax || x <= below)
      errors.push({
        path: `body.cutScores.${key}`,
        message: 'must rise and lie inside the scale',
        code: 'cut_scores_invalid',
      });
  });
  if (errors.length)
    throw badRequest(
      'cut_scores_invalid',
      `Cut scores must rise (basic < advanced < high) within (${tables.scaleMin}, ${tables.scaleMax}]`,
      errors,
    );
  await db.transaction(async (tx) => {
    await tx.update(equatingTables).set({ cutScores: cuts }).where(eq(equatingTables.id, row.id));
    await audit(tx, {
      userId: actor.auth.userId,
      action: 'equating.cut_scores',
      entity: 'diagnostic',
      entityId: query.diagnosticId,
      details: {
        subjectTestId: query.subjectTestId,
        equatingId: row.id,
        version: row.version,
        before: row.cutScores ?? null,
        after: cuts,
      },
      ip: actor.ip,
    });
  });
  return getEquating(db, actor.auth, query, now);
}

/**
 * The scaled score of a result under the adopted table of its diagnostic and subject test (null
 * without one, or when its variant has no table). For results, reports and exports.
 */
export function scaledScoreOf(
  adopted: { id: number; version: number; tables: EquatingTables; cutScores: CutScores | null },
  variantId: number,
  primary: number,
): ScaledScore | null {
  const v = adopted.tables.variants.find((x) => x.variantId === variantId);
  const row = v ? lookupScaled(v.rows, primary) : null;
  if (!row) return null;
  const scaled = shownScaled(row.scaled);
  return {
    scaled,
    csem: Math.round(row.csem * 10) / 10,
    level: adopted.cutScores ? levelOf(scaled, adopted.cutScores) : null,
    equatingId: adopted.id,
    equatingVersion: adopted.version,
    referenceNumber: adopted.tables.referenceNumber,
  };
}

/** The adopted tables in force for (diagnostic, subject test) pairs, by `diagnosticId:subjectTestId`. */
async function adoptedFor(db: DbOrTx, pairs: { diagnosticId: number; subjectTestId: number }[]) {
  const out = new Map<
    string,
    { id: number; version: number; tables: EquatingTables; cutScores: CutScores | null }
  >();
  const keys = [...new Set(pairs.map((p) => `${p.diagnosticId}:${p.subjectTestId}`))];
  for (const key of keys) {
    const [diagnosticId, subjectTestId] = key.split(':').map(Number) as [number, number];
    const row = await currentRow(db, { diagnosticId, subjectTestId });
    if (row)
      out.set(key, {
        id: row.id,
        version: row.version,
        tables: row.tables as EquatingTables,
        cutScores: row.cutScores ?? null,
      });
  }
  return out;
}

/** A result to show with its scaled score: only a final (scored) result has one. */
export interface ScaledTarget {
  diagnosticId: number;
  subjectTestId: number;
  variantId: number;
  primaryScore: number;
  status: string;
}

/**
 * The scaled score of each result under the table in force (null: no adopted table, a variant
 * without a table, or a result still awaiting experts). Results, reports and exports call this.
 */
export async function scaledScores(db: DbOrTx, targets: ScaledTarget[]): Promise<(ScaledScore | null)[]> {
  const scored = targets.filter((t) => t.status === 'scored');
  if (!scored.length) return targets.map(() => null);
  const adopted = await adoptedFor(db, scored);
  return targets.map((t) => {
    if (t.status !== 'scored') return null;
    const a = adopted.get(`${t.diagnosticId}:${t.subjectTestId}`);
    return a ? scaledScoreOf(a, t.variantId, t.primaryScore) : null;
  });
}
