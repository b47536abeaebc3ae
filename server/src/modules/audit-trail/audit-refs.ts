import { auditRefKey, refKindOfEntity, refKindOfKey, type AuditRefKind } from '@attesta/contract';
import { sql } from 'drizzle-orm';
import { rowsOf, type DbOrTx } from '../../db/client.js';

/**
 * The names of the records an audit row points at (issue 23, item 6): the record acted on
 * (`entity`, `entityId`) and every id its details hold (`diagnosticId`, `classIds`,
 * `changes.schoolId.from`, …), so the screen shows «Диагностика: ВПР по математике», never `12`.
 * Read at list time, so a renamed record shows its current name; a deleted one has no name (the
 * screen then says so, still without the id).
 */

const person = (t: string) => `concat_ws(' ', ${t}.surname, ${t}.name, ${t}.patronymic)`;
// A registration is named by who sits it and what: «Иванов Иван — Математика 7».
const participantTestName = `concat_ws(' — ', coalesce(
  (select ${person('s')} from students s where s.id = pt.student_id),
  (select ${person('w')} from workers w where w.id = pt.worker_id),
  (select coalesce(nullif(${person('u')}, ''), u.login) from users u where u.id = pt.guest_user_id)),
  (select st.name from subject_tests st where st.id = pt.subject_test_id))`;

/** How each kind's name is read: the table and the SQL expression of the name (constants, never input). */
const NAMES: Record<AuditRefKind, { from: string; name: string }> = {
  diagnostic: { from: 'diagnostics x', name: 'x.name' },
  subject_test: { from: 'subject_tests x', name: 'x.name' },
  worker_test: { from: 'worker_tests x', name: 'x.name' },
  school: { from: 'schools x', name: 'x.name' },
  class: { from: 'classes x', name: 'x.name' },
  building: { from: 'buildings x', name: 'x.name' },
  student: { from: 'students x', name: person('x') },
  worker: { from: 'workers x', name: person('x') },
  user: { from: 'users x', name: `coalesce(nullif(${person('x')}, ''), x.login)` },
  oo: { from: 'oo x', name: 'coalesce(x.short_name, x.name)' },
  area: { from: 'areas x', name: 'x.name' },
  subject: { from: 'subjects x', name: 'x.name' },
  specification: { from: 'specifications x', name: 'x.name' },
  position: { from: 'worker_positions x', name: 'x.name' },
  file: { from: 'files x', name: 'x.name' },
  variant: {
    from: 'variants x',
    name: `concat((select st.name from subject_tests st where st.id = x.subject_test_id), ', № ', x.number)`,
  },
  participant_test: { from: 'participant_tests pt', name: participantTestName },
  exam_work: {
    from: 'exam_works x join participant_tests pt on pt.id = x.participant_test_id',
    name: participantTestName,
  },
  api_key: { from: 'api_keys x', name: 'x.name' },
  help_section: { from: 'help_sections x', name: 'x.title' },
  task: { from: 'tasks x', name: 'x.title' },
  html_text: { from: 'html_texts x', name: 'x.title' },
};

/** Postgres integer ids only: anything else in a detail is not an id of ours. */
const asId = (v: unknown): number | null =>
  typeof v === 'number' && Number.isInteger(v) && v > 0 && v <= 2_147_483_647
    ? v
    : typeof v === 'string' && /^\d{1,9}$/.test(v) && Number(v) > 0
      ? Number(v)
      : null;

export type RefWanted = Map<AuditRefKind, Set<number>>;

function want(wanted: RefWanted, kind: AuditRefKind, value: unknown): void {
  const ids = Array.isArray(value)
    ? value
    : value && typeof value === 'object' && ('from' in value || 'to' in value)
      ? [(value as { from?: unknown }).from, (value as { to?: unknown }).to]
      : [value];
  for (const v of ids) {
    const id = asId(v);
    if (id === null) continue;
    const set = wanted.get(kind) ?? new Set<number>();
    set.add(id);
    wanted.set(kind, set);
  }
}

/** Collects the ids a row points at: its record and the ids of its details, at any depth. */
export function collectRefs(
  wanted: RefWanted,
  row: { entity: string | null; entityId: string | null; details: unknown },
): void {
  const entityKind = refKindOfEntity(row.entity);
  if (entityKind) want(wanted, entityKind, row.entityId);
  const walk = (value: unknown, depth: number): void => {
    if (depth > 4 || !value || typeof value !== 'object') return;
    if (Array.isArray(value)) {
      for (const v of value) walk(v, depth + 1);
      return;
    }
    for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
      const kind = refKindOfKey(key);
      if (kind) want(wanted, kind, v);
      walk(v, depth + 1);
    }
  };
  walk(row.details, 0);
}

/** `kind:id` → name for every record wanted that still exists. */
export async function readRefNames(db: DbOrTx, wanted: RefWanted): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for (const [kind, idSet] of wanted) {
    const ids = [...idSet];
    if (!ids.length) continue;
    const { from, name } = NAMES[kind];
    const alias = from.split(' ')[1]!;
    const rows = rowsOf<{ id: number; name: string | null }>(
      await db.execute(
        sql`select ${sql.raw(alias)}.id as id, ${sql.raw(name)} as name from ${sql.raw(from)}
            where ${sql.raw(alias)}.id in (${sql.join(
              ids.map((id) => sql`${id}`),
              sql`, `,
            )})`,
      ),
    );
    for (const r of rows) if (r.name?.trim()) names.set(auditRefKey(kind, Number(r.id)), r.name.trim());
  }
  return names;
}
