import type { Db, DbOrTx, Tx } from '../../db/client.js';
import { audit } from '../../lib/audit.js';
import { conflict } from '../../lib/errors.js';
import { nameKey } from './roster.parse.js';
import * as repo from './roster.repo.js';

/**
 * The ОО and school a row of an import names (students or staff alike): matched by name (case- and
 * space-insensitive), created when absent for an admin; a coordinator's rows must name their own
 * school. Without `tx` what would be created gets an id from `virtualId` (negative), so later rows
 * match it as the writing pass will.
 */
export class SchoolResolver {
  readonly created = { oo: 0, schools: 0 };
  private oo = new Map<string, number>();
  private schools = new Map<string, number>();
  private own: { schoolId: number; schoolKey: string; ooKey: string } | null = null;

  constructor(
    private readonly db: DbOrTx,
    private readonly tx: Tx | null,
    /** null: an admin (any school, may create ОО and schools); else the coordinator's own school. */
    private readonly ownSchoolId: number | null,
    private readonly virtualId: () => number,
  ) {}

  async load(): Promise<void> {
    const [oos, schools] = await Promise.all([repo.allOo(this.db), repo.allSchools(this.db)]);
    for (const o of oos) if (!this.oo.has(nameKey(o.name))) this.oo.set(nameKey(o.name), o.id);
    for (const s of schools) {
      const key = `${s.ooId}|${nameKey(s.name)}`;
      if (!this.schools.has(key)) this.schools.set(key, s.id);
    }
    if (this.ownSchoolId !== null) {
      const school = schools.find((s) => s.id === this.ownSchoolId);
      const ooRow = oos.find((o) => o.id === school?.ooId);
      if (school && ooRow)
        this.own = { schoolId: school.id, schoolKey: nameKey(school.name), ooKey: nameKey(ooRow.name) };
    }
  }

  /** The school of a row (found or created), or the column naming what is out of the coordinator's scope. */
  async schoolOf(r: { oo: string; school: string }): Promise<number | { outOfScope: 'oo' | 'school' }> {
    const ooKey = nameKey(r.oo);
    const schoolKey = nameKey(r.school);
    if (this.ownSchoolId !== null) {
      const own = this.own;
      if (!own || own.ooKey !== ooKey || own.schoolKey !== schoolKey)
        return { outOfScope: own && own.ooKey !== ooKey ? 'oo' : 'school' };
      return own.schoolId;
    }
    let ooId = this.oo.get(ooKey);
    if (ooId === undefined) {
      ooId = this.tx ? await repo.insertOo(this.tx, r.oo) : this.virtualId();
      this.oo.set(ooKey, ooId);
      this.created.oo++;
    }
    const key = `${ooId}|${schoolKey}`;
    let schoolId = this.schools.get(key);
    if (schoolId === undefined) {
      schoolId = this.tx ? await repo.insertSchool(this.tx, ooId, r.school) : this.virtualId();
      this.schools.set(key, schoolId);
      this.created.schools++;
    }
    return schoolId;
  }
}

const isUniqueViolation = (err: unknown) =>
  [err, (err as { cause?: unknown } | null)?.cause].some(
    (e) => (e as { code?: string } | null)?.code === '23505',
  );

/** Ends the writing transaction (rolled back) with the answer of a file found wrong. */
class Refused<R> extends Error {
  constructor(readonly result: R) {
    super('import refused');
  }
}

/** What a pass counts and finds, whatever it imports. */
export interface PassOutcome<C, E extends { row: number }> {
  created: C;
  updated: C;
  unchanged: number;
  errors: E[];
}

/** The answer of an import, of the same shape for students and staff. */
export interface ImportAnswer<C, E> {
  dryRun: boolean;
  created: C;
  updated: C;
  unchanged: number;
  errors: E[];
}

/**
 * An import all or nothing (students or staff): the pass runs once without writing (it finds the
 * errors that need the database and counts what would change); then — only when neither the file
 * nor that pass found an error and it is no dry run — again in one transaction under the import
 * lock, re-reading what exists (an import that finished meanwhile is matched, not repeated),
 * audited with the counts and the scope (never row contents), and rolled back if the rows turned
 * wrong meanwhile. A unique index refusing a write (another call wrote the same record meanwhile)
 * is a 409 `conflict`, nothing written. `written` is the writing pass once committed.
 */
export async function importAllOrNothing<C, E extends { row: number }, P extends PassOutcome<C, E>>(
  db: Db,
  options: {
    actor: { userId: number; ip: string | null; ownSchoolId: number | null };
    action: 'roster.import' | 'roster.staff_import';
    rows: number;
    fileErrors: E[];
    dryRun: boolean;
    run: (db: DbOrTx, tx: Tx | null) => Promise<P>;
    details?: (pass: P) => Record<string, unknown>;
  },
): Promise<{ answer: ImportAnswer<C, E>; written: P | null }> {
  const { actor, dryRun, fileErrors } = options;
  const answer = (pass: P): ImportAnswer<C, E> => ({
    dryRun,
    created: pass.created,
    updated: pass.updated,
    unchanged: pass.unchanged,
    errors: [...fileErrors, ...pass.errors].sort(byRow),
  });
  const check = await options.run(db, null);
  if (fileErrors.length || check.errors.length || dryRun) return { answer: answer(check), written: null };
  try {
    return await db.transaction(async (tx) => {
      await repo.lockImports(tx);
      const pass = await options.run(tx, tx);
      if (pass.errors.length) throw new Refused(answer(pass));
      await audit(tx, {
        userId: actor.userId,
        action: options.action,
        entity: 'roster',
        ip: actor.ip,
        details: {
          rows: options.rows,
          created: pass.created,
          updated: pass.updated,
          unchanged: pass.unchanged,
          ...options.details?.(pass),
          scope: actor.ownSchoolId === null ? 'admin' : { schoolId: actor.ownSchoolId },
        },
      });
      return { answer: answer(pass), written: pass };
    });
  } catch (err) {
    if (err instanceof Refused) return { answer: err.result as ImportAnswer<C, E>, written: null };
    if (isUniqueViolation(err))
      throw conflict('conflict', 'The records changed during the import; nothing was written, try again');
    throw err;
  }
}

/** Row errors in the order of the file. */
export const byRow = (a: { row: number }, b: { row: number }) => a.row - b.row;
