import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Db } from '../../../db/client.js';
import { htmlToText } from '../../../lib/sanitize.js';
import { diagnosticSchools, diagnostics, participantTests, subjectTests } from '../../../db/schema/index.js';
import {
  choiceCode,
  MatrixBuilder,
  type ItemColumn,
  type ResponseMatrix,
  type VariantLayout,
} from './matrix.js';

/*
 * Reads of the item analysis. The participants analysed are the results of the subject test in
 * the diagnostic whose work and participant test are live and not annulled, in the caller's
 * scope (a coordinator: their school). Their scores are streamed in pages of PAGE works (one row
 * per work, its scores and choices as JSON arrays in position order) into the typed matrix.
 */

const BATCH = 20_000;
const CHOICE_TYPES = new Set(['single_choice', 'multiple_choice']);

export async function findDiagnostic(db: Db, id: number) {
  const [row] = await db
    .select({ id: diagnostics.id, endsAt: diagnostics.endsAt, published: diagnostics.resultsPublished })
    .from(diagnostics)
    .where(and(eq(diagnostics.id, id), isNull(diagnostics.deletedAt)))
    .limit(1);
  return row ?? null;
}

export async function subjectTestExists(db: Db, id: number) {
  const [row] = await db.select({ id: subjectTests.id }).from(subjectTests).where(eq(subjectTests.id, id));
  return !!row;
}

/** Whether a diagnostic covers a school (listed, or has a participant test of it). */
export async function diagnosticCoversSchool(db: Db, diagnosticId: number, schoolId: number) {
  const [listed] = await db
    .select({ id: diagnosticSchools.schoolId })
    .from(diagnosticSchools)
    .where(and(eq(diagnosticSchools.diagnosticId, diagnosticId), eq(diagnosticSchools.schoolId, schoolId)))
    .limit(1);
  if (listed) return true;
  const [pt] = await db
    .select({ id: participantTests.id })
    .from(participantTests)
    .where(
      and(
        eq(participantTests.diagnosticId, diagnosticId),
        eq(participantTests.schoolId, schoolId),
        isNull(participantTests.deletedAt),
      ),
    )
    .limit(1);
  return !!pt;
}

/** The joins of the analysed results: `r` results, `w` their live works, `pt` participant tests. */
export const analysedJoins = sql`results r
  join exam_works w on w.id = r.exam_work_id and w.deleted_at is null
  join participant_tests pt on pt.id = r.participant_test_id and pt.deleted_at is null
    and pt.status <> 'annulled'`;

export const analysedWhere = (diagnosticId: number, subjectTestId: number, schoolId: number | null): SQL =>
  sql`r.diagnostic_id = ${diagnosticId} and r.subject_test_id = ${subjectTestId}
    ${schoolId === null ? sql`` : sql`and pt.school_id = ${schoolId}`}`;

/** The analysed results, to follow `from`. */
const analysed = (diagnosticId: number, subjectTestId: number, schoolId: number | null): SQL =>
  sql`${analysedJoins} where ${analysedWhere(diagnosticId, subjectTestId, schoolId)}`;

/**
 * Whether expert grading of the subject test in the diagnostic is finished (every school): no
 * result awaits experts and no finished work lacks its result.
 */
export async function gradingOf(db: Db, diagnosticId: number, subjectTestId: number) {
  const [row] = rowsOf<{ awaiting: number; unscored: number }>(
    await db.execute(sql`select
      (select count(*)::int from ${analysed(diagnosticId, subjectTestId, null)}
        and r.status = 'awaiting_experts') as awaiting,
      (select count(*)::int from exam_works w
        join participant_tests pt on pt.id = w.participant_test_id and pt.deleted_at is null
          and pt.status <> 'annulled'
        where pt.diagnostic_id = ${diagnosticId} and pt.subject_test_id = ${subjectTestId}
          and w.finished_at is not null and w.deleted_at is null
          and not exists (select 1 from results x where x.exam_work_id = w.id)) as unscored`),
  );
  return { awaiting: Number(row?.awaiting ?? 0), unscored: Number(row?.unscored ?? 0) };
}

export async function countAnalysed(
  db: Db,
  diagnosticId: number,
  subjectTestId: number,
  schoolId: number | null,
) {
  const [row] = rowsOf<{ n: number }>(
    await db.execute(sql`select count(*)::int as n from ${analysed(diagnosticId, subjectTestId, schoolId)}`),
  );
  return Number(row?.n ?? 0);
}

interface LayoutRow {
  variantId: number;
  number: number;
  variantTaskId: number;
  maxScore: string | number;
  taskId: number;
  answerType: string;
  content: Record<string, unknown> | null;
  reference: unknown;
}

/** The longest option text the distractor table carries. */
export const OPTION_TEXT_MAX = 80;

/**
 * An option's html as one short line of plain text: powers and indices keep their mark (x^2, a_1),
 * whitespace is folded, and a long text is cut at a word with «…».
 */
export function optionText(html: unknown): string {
  if (typeof html !== 'string') return '';
  const marked = html.replace(/<sup\b[^>]*>/gi, '^').replace(/<sub\b[^>]*>/gi, '_');
  const text = htmlToText(marked).replace(/\s+/g, ' ').trim();
  if (text.length <= OPTION_TEXT_MAX) return text;
  const cut = text.slice(0, OPTION_TEXT_MAX - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > OPTION_TEXT_MAX / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** Options of a choice task: ids, which are keys, and their text (tolerant of malformed content). */
function optionsOf(row: LayoutRow): { id: string; key: boolean; text: string }[] | null {
  if (!CHOICE_TYPES.has(row.answerType)) return null;
  const raw = row.content?.options;
  if (!Array.isArray(raw)) return null;
  const correct = (row.reference as { correct?: unknown } | null)?.correct;
  const keys = new Set(Array.isArray(correct) ? correct : [correct]);
  return raw.flatMap((o) => {
    const option = o as { id?: unknown; html?: unknown } | null;
    const id = option?.id;
    return typeof id === 'string' ? [{ id, key: keys.has(id), text: optionText(option?.html) }] : [];
  });
}

/**
 * The tasks (columns) and every variant of the subject test (superseded ones too: old works keep
 * theirs), in position order. Variants no analysed work used stay empty; the service drops them.
 */
export async function layoutOf(db: Db, subjectTestId: number) {
  const rows = rowsOf<LayoutRow>(
    await db.execute(sql`select v.id as "variantId", v.number, vt.id as "variantTaskId",
        vt.max_score as "maxScore", t.id as "taskId", t.answer_type as "answerType", t.content, t.reference
      from variants v
      join variant_tasks vt on vt.variant_id = v.id
      join tasks t on t.id = vt.task_id
      where v.subject_test_id = ${subjectTestId}
      order by v.number, v.id, vt.position`),
  );
  const items: ItemColumn[] = [];
  const columnOf = new Map<number, number>();
  const variants: VariantLayout[] = [];
  const variantIndex = new Map<number, number>();
  const choiceVariantTasks: number[] = [];
  /** The variant task id of each position of each variant. */
  const variantTaskIds: number[][] = [];
  for (const r of rows) {
    let c = columnOf.get(r.taskId);
    if (c === undefined) {
      const options = optionsOf(r);
      c = items.length;
      columnOf.set(r.taskId, c);
      items.push({
        taskId: r.taskId,
        answerType: r.answerType,
        maxScore: Number(r.maxScore),
        options,
        multiple: r.answerType === 'multiple_choice',
      });
    } else items[c]!.maxScore = Math.max(items[c]!.maxScore, Number(r.maxScore));
    if (items[c]!.options) choiceVariantTasks.push(r.variantTaskId);
    let v = variantIndex.get(r.variantId);
    if (v === undefined) {
      v = variants.length;
      variantIndex.set(r.variantId, v);
      variants.push({ variantId: r.variantId, number: r.number, columns: [] });
      variantTaskIds.push([]);
    }
    variants[v]!.columns.push(c);
    variantTaskIds[v]!.push(r.variantTaskId);
  }
  return { items, variants, variantIndex, variantTaskIds, choiceVariantTasks };
}

/**
 * Runs `query` as a cursor in a read-only transaction and hands its rows over in batches of
 * BATCH: the rows of 300,000 works never sit in memory at once. Plain SQL (DECLARE / FETCH), the
 * same on PostgreSQL and PGlite.
 */
export async function eachBatch<T>(db: Db, name: string, query: SQL, use: (rows: T[]) => void) {
  await db.transaction(
    async (tx) => {
      // plan for reading everything (a cursor's default plans for the first rows: nested loops),
      // and let the grouping of millions of task scores stay in memory
      await tx.execute(sql`set local cursor_tuple_fraction = 1`);
      await tx.execute(sql`set local work_mem = '64MB'`);
      await tx.execute(sql`declare ${sql.identifier(name)} no scroll cursor for ${query}`);
      for (;;) {
        const rows = rowsOf<T>(
          await tx.execute(sql`fetch ${sql.raw(String(BATCH))} from ${sql.identifier(name)}`),
        );
        use(rows);
        if (rows.length < BATCH) break;
      }
    },
    { accessMode: 'read only' },
  );
}

/**
 * Each `<variantTaskId><sep><value>` pair of a text grouped by work, with the variant and position
 * its variant task stands for.
 */
function eachPair(
  text: string,
  pairs: string,
  sep: string,
  put: (variant: number, position: number, value: string) => void,
  place: Map<number, { variant: number; position: number }>,
) {
  for (const pair of text.split(pairs)) {
    const cut = pair.indexOf(sep);
    const at = place.get(Number(pair.slice(0, cut)));
    if (at) put(at.variant, at.position, pair.slice(cut + 1));
  }
}

const scratch: number[] = [];
const ZERO = 48;
const COLON = 58;
const COMMA = 44;
const DOT = 46;

/**
 * `12:1,13:0.5,…` → [12, 1, 13, 0.5, …] (reused array), read by character codes: splitting and
 * Number() of 6 million pieces cost more than the query. Anything but digits and one dot in a
 * number (never written by PostgreSQL for numeric) falls back to Number().
 */
export function parseScores(text: string): number[] {
  scratch.length = 0;
  let start = 0;
  let value = 0;
  let scale = 0;
  let odd = false;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : COMMA;
    if (c >= ZERO && c <= ZERO + 9) {
      value = value * 10 + (c - ZERO);
      if (scale) scale *= 10;
    } else if (c === DOT && !scale) scale = 1;
    else if (c === COLON || c === COMMA) {
      scratch.push(odd ? Number(text.slice(start, i)) : scale ? value / scale : value);
      value = 0;
      scale = 0;
      odd = false;
      start = i + 1;
    } else odd = true;
  }
  return scratch;
}

/**
 * The response matrix of the analysed works, in two streamed reads (docs/BENCHMARKS.md): their
 * task scores grouped by work as one text of `variantTaskId:score` pairs (the variant task names
 * the variant and position; a missing score counts 0, as in the result's total), then the saved
 * answers of choice tasks grouped by work as `variantTaskId=json` pairs. Grouping by work alone,
 * without ordering or joining the scores, lets PostgreSQL hash 6 million rows once.
 */
export async function loadMatrix(
  db: Db,
  diagnosticId: number,
  subjectTestId: number,
  schoolId: number | null,
): Promise<ResponseMatrix> {
  const layout = await layoutOf(db, subjectTestId);
  const builder = new MatrixBuilder(layout.items, layout.variants, BATCH);
  const place = new Map<number, { variant: number; position: number }>();
  layout.variantTaskIds.forEach((ids, variant) =>
    ids.forEach((id, position) => place.set(id, { variant, position })),
  );
  if (!place.size) return builder.build();
  const works = sql`select w.id from ${analysed(diagnosticId, subjectTestId, schoolId)}`;
  /** work → its row offset in the matrix */
  const offsetOf = new Map<number, number>();

  await eachBatch<{ id: number; s: string }>(
    db,
    'item_analysis_scores',
    // a null score makes its pair null, which string_agg leaves out: it counts 0
    sql`select ts.exam_work_id as id, string_agg(ts.variant_task_id || ':' || ts.final_score, ',') as s
      from task_scores ts
      where ts.exam_work_id in (${works})
      group by ts.exam_work_id`,
    (rows) => {
      for (const row of rows) {
        if (!row.s) continue;
        const pairs = parseScores(row.s);
        const first = place.get(pairs[0]!);
        if (!first) continue;
        const out = builder.addRow(first.variant);
        offsetOf.set(Number(row.id), out.offset);
        for (let k = 0; k < pairs.length; k += 2) {
          const at = place.get(pairs[k]!);
          if (at && at.variant === first.variant) out.scores[out.offset + at.position] = pairs[k + 1]!;
        }
      }
    },
  );
  const m = builder.build();
  m.workIds = new Float64Array(m.persons);
  for (const [work, offset] of offsetOf) m.workIds[offset / m.width] = work;

  const choiceIds = layout.choiceVariantTasks;
  if (m.persons && choiceIds.length && m.choices) {
    const choices = m.choices;
    await eachBatch<{ id: number; c: string }>(
      db,
      'item_analysis_choices',
      sql`select a.exam_work_id as id, string_agg(a.variant_task_id || '=' || a.value::text, chr(31)) as c
        from answers a
        where a.variant_task_id in (${sql.join(
          choiceIds.map((id) => sql`${id}`),
          sql`, `,
        )}) and a.exam_work_id in (${works})
        group by a.exam_work_id`,
      (rows) => {
        for (const row of rows) {
          const offset = offsetOf.get(Number(row.id));
          if (offset === undefined) continue;
          const variant = m.variantOf[offset / m.width]!;
          eachPair(
            row.c,
            '\u001f',
            '=',
            (v, position, value) => {
              if (v !== variant) return;
              const item = m.items[m.variants[variant]!.columns[position]!]!;
              choices[offset + position] = choiceCode(item, JSON.parse(value));
            },
            place,
          );
        }
      },
    );
  }
  return m;
}
