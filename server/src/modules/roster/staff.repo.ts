import { and, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Role } from '@attesta/contract';
import type { DbOrTx } from '../../db/client.js';
import { users, workerPositions, workers } from '../../db/schema/index.js';

/** The queries of the staff import: the people it matches against (its writes go through the coordinator module). */

export interface AccountRow {
  id: number;
  login: string;
  email: string | null;
  surname: string | null;
  name: string | null;
  patronymic: string | null;
  schoolId: number | null;
  workerId: number | null;
  roles: Role[];
}

export interface WorkerRow {
  id: number;
  schoolId: number | null;
  positionId: number | null;
  surname: string;
  name: string;
  patronymic: string | null;
  email: string | null;
  externalId: string | null;
}

const accountColumns = {
  id: users.id,
  login: users.login,
  email: users.email,
  surname: users.surname,
  name: users.name,
  patronymic: users.patronymic,
  schoolId: users.schoolId,
  workerId: users.workerId,
  roles: sql<Role[]>`array(select r.role from user_roles r where r.user_id = ${users.id} order by r.role)`,
};

const workerColumns = {
  id: workers.id,
  schoolId: workers.schoolId,
  positionId: workers.positionId,
  surname: workers.surname,
  name: workers.name,
  patronymic: workers.patronymic,
  email: workers.email,
  externalId: workers.externalId,
};

const lowerIn = (column: SQL, values: string[]) =>
  values.length ? inArray(column, [...new Set(values.map((v) => v.toLowerCase()))]) : undefined;

/** Accounts by login or e-mail (case-insensitive), or by their worker rows. */
export async function accountsNamed(
  db: DbOrTx,
  names: { logins: string[]; emails: string[]; workerIds: number[] },
): Promise<AccountRow[]> {
  const where = or(
    lowerIn(sql`lower(${users.login})`, names.logins),
    lowerIn(sql`lower(${users.email})`, names.emails),
    names.workerIds.length ? inArray(users.workerId, names.workerIds) : undefined,
  );
  if (!where) return [];
  return db.select(accountColumns).from(users).where(where).orderBy(users.id);
}

/** Worker rows by their external ids or their ids. */
export async function workersNamed(
  db: DbOrTx,
  names: { externalIds: string[]; ids: number[] },
): Promise<WorkerRow[]> {
  const where = or(
    names.externalIds.length ? inArray(workers.externalId, names.externalIds) : undefined,
    names.ids.length ? inArray(workers.id, names.ids) : undefined,
  );
  if (!where) return [];
  return db.select(workerColumns).from(workers).where(where).orderBy(workers.id);
}

/** The accounts of a school with an organizator's or a coordinator's role. */
export const staffAccountsOf = (db: DbOrTx, schoolId: number): Promise<AccountRow[]> =>
  db
    .select(accountColumns)
    .from(users)
    .where(
      and(
        eq(users.schoolId, schoolId),
        sql`exists (select 1 from user_roles r where r.user_id = ${users.id}
          and r.role in ('organizator', 'coordinator'))`,
      ),
    )
    .orderBy(users.id);

/** The worker rows of a school without an account (workers proper). */
export const accountlessWorkersOf = (db: DbOrTx, schoolId: number): Promise<WorkerRow[]> =>
  db
    .select(workerColumns)
    .from(workers)
    .where(
      and(
        eq(workers.schoolId, schoolId),
        sql`not exists (select 1 from users u where u.worker_id = ${workers.id})`,
      ),
    )
    .orderBy(workers.id);

/** Worker positions by exact name. */
export const positionsNamed = (db: DbOrTx, names: string[]) =>
  names.length
    ? db
        .select({ id: workerPositions.id, name: workerPositions.name })
        .from(workerPositions)
        .where(inArray(workerPositions.name, names))
    : Promise.resolve([]);
