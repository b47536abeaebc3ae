import { sql } from 'drizzle-orm';
import type { FieldError } from '@attesta/contract';
import { rowsOf, type DbOrTx } from '../../db/client.js';
import { AppError } from '../../lib/errors.js';

/*
 * An open test shows its tasks to any guest and their keys the moment an attempt is finished
 * (docs/open-tests.md), so it must never hold an item a secure subject test still uses: a task of
 * its current variants — or another version of that task — that is also in a variant of a subject
 * test (this one included) used by a diagnostic of staff that is not both finished and published.
 */

export interface OpenTestConflict {
  subjectTestId: number;
  name: string;
  /** The diagnostics still using it (not finished and published), by name. */
  diagnostics: string[];
  /** How many of the open test's tasks it shares. */
  sharedTasks: number;
}

interface ConflictRow {
  subject_test_id: number | string;
  name: string;
  diagnostics: string[] | string | null;
  shared_tasks: number | string;
}

/**
 * The secure subject tests sharing an item with `subjectTestId`'s current variants (or with
 * `taskIds`, the tasks a variant is about to hold), ordered by name.
 */
export async function openTestConflicts(
  db: DbOrTx,
  subjectTestId: number,
  now: Date,
  taskIds: readonly number[] | null = null,
): Promise<OpenTestConflict[]> {
  const mine =
    taskIds === null
      ? sql`select vt.task_id as id from variant_tasks vt join variants v on v.id = vt.variant_id
          where v.subject_test_id = ${subjectTestId} and v.superseded_at is null`
      : taskIds.length
        ? sql`select unnest(${`{${taskIds.join(',')}}`}::int[]) as id`
        : sql`select null::int as id where false`;
  const rows = rowsOf<ConflictRow>(
    await db.execute(sql`
      with recursive live as (
        -- Subject tests of diagnostics of staff that are not both finished and published.
        select dst.subject_test_id, d.name
        from diagnostic_subject_tests dst join diagnostics d on d.id = dst.diagnostic_id
        where d.deleted_at is null and d.kind <> 'open'
          and not (d.results_published and d.ends_at <= ${now.toISOString()}::timestamptz)
      ), theirs as (
        select distinct v.subject_test_id, vt.task_id as id
        from variant_tasks vt join variants v on v.id = vt.variant_id
        where v.subject_test_id in (select subject_test_id from live)
      ), up(start, id, prev) as (
        -- Each task with every earlier version of it: versions of one task are one item.
        select s.id, t.id, t.previous_version_id
        from (select id from (${mine}) m union select id from theirs) s join tasks t on t.id = s.id
        union
        select up.start, t.id, t.previous_version_id from up join tasks t on t.id = up.prev
      ), root as (
        select start, min(id) filter (where prev is null) as root from up group by start
      ), shared as (
        select distinct theirs.subject_test_id, theirs.id
        from theirs join root r_theirs on r_theirs.start = theirs.id
        join root r_mine on r_mine.root = r_theirs.root
        where r_mine.start in (select id from (${mine}) m)
      )
      select st.id as subject_test_id, st.name,
        (select array_agg(distinct l.name order by l.name) from live l where l.subject_test_id = st.id) as diagnostics,
        (select count(*) from shared s2 where s2.subject_test_id = st.id) as shared_tasks
      from subject_tests st
      where st.id in (select subject_test_id from shared)
      order by st.name, st.id`),
  );
  return rows.map((r) => ({
    subjectTestId: Number(r.subject_test_id),
    name: r.name,
    diagnostics: Array.isArray(r.diagnostics)
      ? r.diagnostics
      : r.diagnostics
        ? r.diagnostics
            .replace(/^\{|\}$/g, '')
            .split(',')
            .map((s) => s.replace(/^"|"$/g, ''))
        : [],
    sharedTasks: Number(r.shared_tasks),
  }));
}

/**
 * 409 `open_test_shares_tasks` naming the secure subject tests (one `errors` entry each, with their
 * id, name, diagnostics and the number of shared tasks) when the open test would expose their items.
 */
export async function assertNoSecureItems(
  db: DbOrTx,
  subjectTestId: number,
  path = 'body.isOpen',
  taskIds: readonly number[] | null = null,
): Promise<void> {
  const conflicts = await openTestConflicts(db, subjectTestId, new Date(), taskIds);
  if (!conflicts.length) return;
  const errors: FieldError[] = conflicts.map((c) => ({
    path,
    message: `shares ${c.sharedTasks} task(s) with «${c.name}», used by ${c.diagnostics.join(', ')}`,
    code: 'open_test_shares_tasks',
    params: {
      subjectTestId: c.subjectTestId,
      name: c.name,
      diagnostics: c.diagnostics.join(', '),
      sharedTasks: c.sharedTasks,
    },
  }));
  throw new AppError(
    409,
    'open_test_shares_tasks',
    `An open test must not show items a secure test still uses: ${conflicts.map((c) => `«${c.name}»`).join(', ')}`,
    errors,
  );
}
