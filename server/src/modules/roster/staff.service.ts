import type { FastifyBaseLogger } from 'fastify';
import type { Role, StaffCounts, StaffImportResult, StaffRowError } from '@attesta/contract';
import type { AppContext } from '../../context.js';
import type { DbOrTx, Tx } from '../../db/client.js';
import { sendPasswordSetupMails } from '../account/index.js';
import {
  createStaffAccount,
  manageableByCoordinator,
  saveStaffWorker,
  updateStaffAccount,
  type StaffAccountValues,
  type StaffWorkerValues,
} from '../coordinator/index.js';
import { positionIdsByName } from '../integration/index.js';
import { nameKey, rowError, tableOf } from './roster.parse.js';
import { importAllOrNothing, SchoolResolver } from './roster.pass.js';
import type { Actor } from './roster.service.js';
import { readStaffRows, type StaffRow } from './staff.parse.js';
import * as repo from './staff.repo.js';

/*
 * The staff import (docs/roster.md, «Staff»): organizators, coordinators and workers of schools.
 * Every person is a worker row of their school (their position decides the worker tests);
 * organizators and coordinators also have an account with the role, created without a password
 * (its owner sets one from the e-mailed reset link). Like the student import, the same pass runs
 * twice: a check that writes nothing, then — only when nothing is wrong and it is no dry run — the
 * writing pass in one transaction under the import lock. All or nothing.
 */

const zero = (): StaffCounts => ({
  oo: 0,
  schools: 0,
  users: 0,
  organizators: 0,
  coordinators: 0,
  workers: 0,
});

/** The roles of accounts an admin's import may change: a school's staff (and what anyone may hold). */
const IMPORTABLE_ROLES: readonly Role[] = ['organizator', 'coordinator', 'participant', 'guest'];

const COUNT_OF = { organizator: 'organizators', coordinator: 'coordinators', worker: 'workers' } as const;

const personKey = (p: { surname: string | null; name: string | null; patronymic: string | null }) =>
  [nameKey(p.surname ?? ''), nameKey(p.name ?? ''), nameKey(p.patronymic ?? '')].join('\u0000');

const lower = (s: string) => s.toLowerCase();

/** The people of one school a row may match by name (and a worker by e-mail). */
interface SchoolStaff {
  /** Accounts by role + full name. */
  accounts: Map<string, repo.AccountRow>;
  /** Workers without an account by full name, and by e-mail. */
  workersByName: Map<string, repo.WorkerRow>;
  workersByEmail: Map<string, repo.WorkerRow>;
}

/** How a row found its person: what names them in the file, for the error of a clash. */
type MatchedBy = 'externalId' | 'login' | 'email' | 'name';

class StaffPass {
  readonly created = zero();
  readonly updated = zero();
  unchanged = 0;
  readonly errors: StaffRowError[] = [];
  /** Accounts to send a password setup link to, after the commit. */
  readonly newAccounts: { userId: number; email: string }[] = [];
  /** Accounts whose sessions must read them afresh, after the commit. */
  readonly changedAccounts = new Set<number>();
  private nextVirtualId = -1;
  private readonly schools: SchoolResolver;
  private readonly schoolStaff = new Map<number, SchoolStaff>();
  private readonly byLogin = new Map<string, repo.AccountRow>();
  private readonly byEmail = new Map<string, repo.AccountRow>();
  private readonly byWorkerId = new Map<number, repo.AccountRow>();
  private readonly workerByExternalId = new Map<string, repo.WorkerRow>();
  private readonly workerById = new Map<number, repo.WorkerRow>();
  private positions = new Map<string, number>();
  /** The row that already took a person (`u<id>` an account, `w<id>` a worker). */
  private readonly matched = new Map<string, number>();

  constructor(
    private readonly db: DbOrTx,
    private readonly tx: Tx | null,
    private readonly actor: Actor,
  ) {
    this.schools = new SchoolResolver(db, tx, actor.ownSchoolId, () => this.virtualId());
  }

  private virtualId() {
    return this.nextVirtualId--;
  }

  private keepAccount(a: repo.AccountRow) {
    this.byLogin.set(lower(a.login), a);
    if (a.email) this.byEmail.set(lower(a.email), a);
    if (a.workerId !== null) this.byWorkerId.set(a.workerId, a);
  }

  private keepWorker(w: repo.WorkerRow) {
    this.workerById.set(w.id, w);
    if (w.externalId !== null) this.workerByExternalId.set(w.externalId, w);
  }

  /** What exists of the people the file names: accounts by login and e-mail, workers by external id. */
  async load(rows: StaffRow[]): Promise<void> {
    await this.schools.load();
    const emails = rows.flatMap((r) => (r.email ? [r.email] : []));
    const workersFound = await repo.workersNamed(this.db, {
      externalIds: rows.flatMap((r) => (r.externalId ? [r.externalId] : [])),
      ids: [],
    });
    const accounts = await repo.accountsNamed(this.db, {
      // An account without a login in the file is named by its e-mail.
      logins: rows.flatMap((r) => (r.login ? [r.login] : [])).concat(emails),
      emails,
      workerIds: workersFound.map((w) => w.id),
    });
    const known = new Set(workersFound.map((w) => w.id));
    const more = accounts.flatMap((a) => (a.workerId !== null && !known.has(a.workerId) ? [a.workerId] : []));
    for (const w of workersFound.concat(await repo.workersNamed(this.db, { externalIds: [], ids: more })))
      this.keepWorker(w);
    for (const a of accounts) this.keepAccount(a);
    const names = [...new Set(rows.flatMap((r) => (r.position ? [r.position] : [])))];
    if (this.tx) this.positions = await positionIdsByName(this.tx, names);
    else {
      for (const p of await repo.positionsNamed(this.db, names)) this.positions.set(p.name, p.id);
      for (const name of names) if (!this.positions.has(name)) this.positions.set(name, this.virtualId());
    }
  }

  private async staffOf(schoolId: number): Promise<SchoolStaff> {
    let staff = this.schoolStaff.get(schoolId);
    if (staff) return staff;
    staff = { accounts: new Map(), workersByName: new Map(), workersByEmail: new Map() };
    this.schoolStaff.set(schoolId, staff);
    if (schoolId < 0) return staff;
    const [accounts, workersOf] = await Promise.all([
      repo.staffAccountsOf(this.db, schoolId),
      repo.accountlessWorkersOf(this.db, schoolId),
    ]);
    const ids = accounts.flatMap((a) =>
      a.workerId !== null && !this.workerById.has(a.workerId) ? [a.workerId] : [],
    );
    for (const w of await repo.workersNamed(this.db, { externalIds: [], ids })) this.keepWorker(w);
    for (const read of accounts) {
      // An account already read (by login or e-mail) stays the one object every map holds.
      const a = this.byLogin.get(lower(read.login)) ?? read;
      this.keepAccount(a);
      for (const role of a.roles) {
        const key = `${role}\u0000${personKey(a)}`;
        if (!staff.accounts.has(key)) staff.accounts.set(key, a);
      }
    }
    for (const read of workersOf) {
      const w = this.workerById.get(read.id) ?? read;
      if (!staff.workersByName.has(personKey(w))) staff.workersByName.set(personKey(w), w);
      if (w.email && !staff.workersByEmail.has(lower(w.email))) staff.workersByEmail.set(lower(w.email), w);
      this.keepWorker(w);
    }
    return staff;
  }

  private fail(r: StaffRow, column: StaffRowError['column'], code: StaffRowError['code'], message: string) {
    this.errors.push(rowError(r.row, column, code, message));
  }

  /** The person a row names: by external id, else login, else e-mail, else school + full name + role. */
  private find(
    r: StaffRow,
    staff: SchoolStaff,
  ): { account?: repo.AccountRow; worker?: repo.WorkerRow; by?: MatchedBy } {
    if (r.externalId !== null) {
      const worker = this.workerByExternalId.get(r.externalId);
      if (worker) return { worker, account: this.byWorkerId.get(worker.id), by: 'externalId' };
    }
    // A person found otherwise who has another external id is another person.
    const sameId = (w: repo.WorkerRow | undefined) =>
      !w || r.externalId === null || w.externalId === null || w.externalId === r.externalId;
    const withAccount = (account: repo.AccountRow | undefined, by: MatchedBy) => {
      if (!account) return null;
      const worker = account.workerId !== null ? this.workerById.get(account.workerId) : undefined;
      return sameId(worker) ? { account, worker, by } : null;
    };
    if (r.role === 'worker') {
      const worker =
        (r.email !== null ? staff.workersByEmail.get(lower(r.email)) : undefined) ??
        staff.workersByName.get(personKey(r));
      return worker && sameId(worker) ? { worker, by: 'name' } : {};
    }
    return (
      (r.login !== null ? withAccount(this.byLogin.get(lower(r.login)), 'login') : null) ??
      (r.email !== null ? withAccount(this.byEmail.get(lower(r.email)), 'email') : null) ??
      withAccount(staff.accounts.get(`${r.role}\u0000${personKey(r)}`), 'name') ??
      {}
    );
  }

  async row(r: StaffRow): Promise<void> {
    if (this.actor.ownSchoolId !== null && r.role === 'coordinator')
      return this.fail(r, 'role', 'role_not_allowed', 'a coordinator imports organizators and workers only');
    const school = await this.schools.schoolOf(r);
    if (typeof school !== 'number')
      return this.fail(
        r,
        school.outOfScope,
        'school_out_of_scope',
        'a coordinator imports staff of their own school only',
      );
    const schoolId = school;
    const staff = await this.staffOf(schoolId);
    const { account, worker, by } = this.find(r, staff);

    // A coordinator changes only people of their school whose every role is theirs to manage; an
    // admin's import never takes over an account with a role beyond a school's staff (admin, expert…).
    const coordinator = this.actor.ownSchoolId !== null;
    const outside =
      (coordinator && worker && worker.schoolId !== schoolId) ||
      (account &&
        (coordinator
          ? account.schoolId !== schoolId || !manageableByCoordinator(account.roles)
          : !account.roles.every((role) => IMPORTABLE_ROLES.includes(role))));
    if (outside) {
      if (by === 'externalId')
        return this.fail(r, 'externalId', 'external_id_taken', 'the external id is another person’s');
      if (by === 'login') return this.fail(r, 'login', 'login_taken', 'the login is another person’s');
      if (by === 'email') return this.fail(r, 'email', 'email_taken', 'the e-mail is another person’s');
      return this.fail(r, 'role', 'role_not_allowed', 'this person holds a role the import does not manage');
    }
    const taken = [account ? `u${account.id}` : null, worker ? `w${worker.id}` : null].filter(
      (k): k is string => k !== null,
    );
    const first = taken.map((k) => this.matched.get(k)).find((n) => n !== undefined);
    if (first !== undefined)
      return this.fail(
        r,
        by === 'name' || !by ? 'surname' : by,
        'duplicate_row',
        `the same person as on row ${first}`,
      );

    const needsAccount = r.role !== 'worker';
    // The account's login: the file's, else the one it has, else the e-mail (as guests' logins are).
    const login = r.login ?? account?.login ?? r.email;
    if (needsAccount) {
      if (login === null)
        return this.fail(r, 'login', 'required', 'a new account needs a login or an e-mail');
      const owner = this.byLogin.get(lower(login));
      if (owner && owner.id !== account?.id)
        return this.fail(
          r,
          r.login !== null ? 'login' : 'email',
          'login_taken',
          'the login is another account’s',
        );
      const emailOwner = r.email !== null ? this.byEmail.get(lower(r.email)) : undefined;
      if (emailOwner && emailOwner.id !== account?.id)
        return this.fail(r, 'email', 'email_taken', 'the e-mail is another account’s');
    }
    for (const k of taken) this.matched.set(k, r.row);
    await this.write(r, schoolId, staff, account, worker, needsAccount ? login! : null);
  }

  /** Counts and (with `tx`) writes what a checked row changes. */
  private async write(
    r: StaffRow,
    schoolId: number,
    staff: SchoolStaff,
    account: repo.AccountRow | undefined,
    worker: repo.WorkerRow | undefined,
    login: string | null,
  ): Promise<void> {
    const kind = COUNT_OF[r.role];
    // The worker row: names from the file; position, e-mail and external id set, never cleared.
    const next: StaffWorkerValues = {
      schoolId,
      positionId: r.position !== null ? this.positions.get(r.position)! : (worker?.positionId ?? null),
      surname: r.surname,
      name: r.name,
      patronymic: r.patronymic,
      email: r.email ?? worker?.email ?? null,
      externalId: r.externalId ?? worker?.externalId ?? null,
    };
    const workerChanged =
      !worker || (Object.keys(next) as (keyof StaffWorkerValues)[]).some((k) => worker[k] !== next[k]);
    let workerId = worker?.id ?? null;
    if (workerChanged) {
      workerId = this.tx ? await saveStaffWorker(this.tx, workerId, next) : (workerId ?? this.virtualId());
      const values: repo.WorkerRow = {
        id: workerId,
        schoolId,
        positionId: next.positionId ?? null,
        surname: r.surname,
        name: r.name,
        patronymic: r.patronymic,
        email: next.email ?? null,
        externalId: next.externalId ?? null,
      };
      // The one object every map holds changes with the row.
      const row = worker ? Object.assign(worker, values) : values;
      this.keepWorker(row);
      if (!worker && login === null) {
        staff.workersByName.set(personKey(row), row);
        if (row.email) staff.workersByEmail.set(lower(row.email), row);
      }
    }
    if (login === null) {
      // A worker: the worker row is the person.
      if (!worker) this.created.workers++;
      else if (workerChanged) this.updated.workers++;
      else this.unchanged++;
      return;
    }

    const role: Role = r.role === 'coordinator' ? 'coordinator' : 'organizator';
    const values: StaffAccountValues = {
      login,
      email: r.email ?? account?.email ?? null,
      surname: r.surname,
      name: r.name,
      patronymic: r.patronymic,
      schoolId,
      workerId: workerId!,
    };
    if (!account) {
      const id = this.tx ? await createStaffAccount(this.tx, values, role, null) : this.virtualId();
      const created: repo.AccountRow = { ...values, id, roles: [role] };
      this.keepAccount(created);
      staff.accounts.set(`${role}\u0000${personKey(created)}`, created);
      if (this.tx && values.email) this.newAccounts.push({ userId: id, email: values.email });
      this.created.users++;
      this.created[kind]++;
      return;
    }
    const changes: Partial<StaffAccountValues> = {};
    for (const k of Object.keys(values) as (keyof StaffAccountValues)[])
      if (account[k] !== values[k]) Object.assign(changes, { [k]: values[k] });
    const newRole = !account.roles.includes(role);
    if (this.tx && (newRole || Object.keys(changes).length)) {
      await updateStaffAccount(this.tx, account.id, changes, role);
      this.changedAccounts.add(account.id);
    }
    if (Object.keys(changes).length || newRole) {
      Object.assign(account, changes, { roles: newRole ? [...account.roles, role] : account.roles });
      this.keepAccount(account);
      this.updated.users++;
    }
    if (newRole) this.created[kind]++;
    else if (workerChanged || Object.keys(changes).length) this.updated[kind]++;
    else this.unchanged++;
  }

  finish(): void {
    this.created.oo = this.schools.created.oo;
    this.created.schools = this.schools.created.schools;
  }
}

async function runPass(db: DbOrTx, tx: Tx | null, actor: Actor, rows: StaffRow[]): Promise<StaffPass> {
  const pass = new StaffPass(db, tx, actor);
  await pass.load(rows);
  for (const r of rows) await pass.row(r);
  pass.finish();
  return pass;
}

/**
 * `POST /api/admin/roster/staff/import`. After the commit each new account with an e-mail gets the
 * password setup link (`origin` is where links point) and changed accounts' sessions read them afresh.
 */
export async function importStaff(
  ctx: AppContext,
  log: FastifyBaseLogger,
  actor: Actor,
  file: { name: string; data: Buffer },
  dryRun: boolean,
  origin: string,
): Promise<StaffImportResult> {
  const { db } = ctx;
  const { rows, errors } = readStaffRows(await tableOf(file.name, file.data));
  const { answer, written } = await importAllOrNothing<StaffCounts, StaffRowError, StaffPass>(db, {
    actor,
    action: 'roster.staff_import',
    rows: rows.length,
    fileErrors: errors,
    dryRun,
    run: (on, tx) => runPass(on, tx, actor, rows),
    details: (pass) => ({ mailed: pass.newAccounts.length }),
  });
  if (written) {
    for (const id of written.changedAccounts) await ctx.sessions.invalidateUser(id);
    // The links go out after the answer: the import does not wait for the mail server.
    void sendPasswordSetupMails(ctx, log, written.newAccounts, origin);
  }
  return answer;
}
