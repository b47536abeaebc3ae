import { and, asc, count, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type {
  Role,
  RoleInfo,
  UserDetails,
  UserListFilter,
  UserListItem,
  UserSortField,
} from '@attesta/contract';
import { displayNameOf } from '../../auth/session-store.js';
import type { DbOrTx } from '../../db/client.js';
import {
  classes,
  oo,
  participantTests,
  roles,
  schools,
  students,
  userRoles,
  users,
} from '../../db/schema/index.js';

export type UserRow = typeof users.$inferSelect;
export type StudentRow = typeof students.$inferSelect;

/** A user's roles as one array, computed in the same statement (no query per row). */
const rolesOf = sql<
  Role[]
>`array(select ${userRoles.role} from ${userRoles} where ${userRoles.userId} = ${users.id} order by ${userRoles.role})`;

/** Allowlisted columns: what may leave the server about a user (never the password hash). */
const listColumns = {
  id: users.id,
  login: users.login,
  email: users.email,
  surname: users.surname,
  name: users.name,
  patronymic: users.patronymic,
  schoolId: users.schoolId,
  schoolName: schools.name,
  areaId: users.areaId,
  isBlocked: users.isBlocked,
  createdAt: users.createdAt,
  roles: rolesOf,
};
const detailColumns = {
  ...listColumns,
  ooId: users.ooId,
  emailConfirmedAt: users.emailConfirmedAt,
  hasPassword: sql<boolean>`${users.passwordHash} is not null`,
  updatedAt: users.updatedAt,
};

interface ListRow extends Pick<
  UserRow,
  | 'id'
  | 'login'
  | 'email'
  | 'surname'
  | 'name'
  | 'patronymic'
  | 'schoolId'
  | 'areaId'
  | 'isBlocked'
  | 'createdAt'
> {
  schoolName: string | null;
  roles: Role[];
}

function toListItem(row: ListRow): UserListItem {
  return {
    id: row.id,
    login: row.login,
    email: row.email,
    surname: row.surname,
    name: row.name,
    patronymic: row.patronymic,
    displayName: displayNameOf(row),
    roles: [...row.roles].sort(),
    schoolId: row.schoolId,
    schoolName: row.schoolName,
    areaId: row.areaId,
    isBlocked: row.isBlocked,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function findUserDetails(db: DbOrTx, id: number): Promise<UserDetails | null> {
  const [row] = await db
    .select(detailColumns)
    .from(users)
    .leftJoin(schools, eq(schools.id, users.schoolId))
    .where(eq(users.id, id))
    .limit(1);
  if (!row) return null;
  return {
    ...toListItem(row),
    ooId: row.ooId,
    emailConfirmed: row.emailConfirmedAt !== null,
    emailConfirmedAt: row.emailConfirmedAt?.toISOString() ?? null,
    hasPassword: Boolean(row.hasPassword),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

function listConditions(filter: UserListFilter | undefined): SQL | undefined {
  const conditions: (SQL | undefined)[] = [];
  if (filter?.search) {
    const pattern = `%${escapeLike(filter.search)}%`;
    conditions.push(
      or(
        ilike(users.login, pattern),
        ilike(users.email, pattern),
        ilike(users.surname, pattern),
        ilike(users.name, pattern),
        // "Иванов Иван" typed as one phrase
        sql`(coalesce(${users.surname}, '') || ' ' || coalesce(${users.name}, '')) ilike ${pattern}`,
      ),
    );
  }
  if (filter?.role)
    conditions.push(
      sql`exists (select 1 from ${userRoles} where ${userRoles.userId} = ${users.id} and ${userRoles.role} = ${filter.role})`,
    );
  if (filter?.schoolId !== undefined) conditions.push(eq(users.schoolId, filter.schoolId));
  if (filter?.blocked !== undefined) conditions.push(eq(users.isBlocked, filter.blocked));
  return and(...conditions);
}

const SORT_COLUMNS = {
  id: users.id,
  login: users.login,
  surname: users.surname,
  createdAt: users.createdAt,
} satisfies Record<UserSortField, unknown>;

export interface UserListQuery {
  page: number;
  pageSize: number;
  sort: { field: UserSortField; dir: 'asc' | 'desc' }[];
  filter?: UserListFilter;
}

/** One page plus the total: two statements whatever the page size. */
export async function listUsers(
  db: DbOrTx,
  q: UserListQuery,
): Promise<{ items: UserListItem[]; total: number }> {
  const where = listConditions(q.filter);
  const order = q.sort.map((s) =>
    s.dir === 'desc' ? desc(SORT_COLUMNS[s.field]) : asc(SORT_COLUMNS[s.field]),
  );
  // id last keeps pages stable when the sort field has ties.
  order.push(asc(users.id));
  const [rows, [total]] = await Promise.all([
    db
      .select(listColumns)
      .from(users)
      .leftJoin(schools, eq(schools.id, users.schoolId))
      .where(where)
      .orderBy(...order)
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize),
    db.select({ n: count() }).from(users).where(where),
  ]);
  return { items: rows.map(toListItem), total: total?.n ?? 0 };
}

export async function listRoles(db: DbOrTx): Promise<RoleInfo[]> {
  const rows = await db.select().from(roles).orderBy(roles.code);
  return rows.map((r) => ({ code: r.code as Role, nameRu: r.nameRu, nameEn: r.nameEn }));
}

export async function schoolName(db: DbOrTx, schoolId: number | null): Promise<string | null> {
  if (schoolId === null) return null;
  const [row] = await db.select({ name: schools.name }).from(schools).where(eq(schools.id, schoolId));
  return row?.name ?? null;
}

export async function schoolExists(db: DbOrTx, id: number): Promise<boolean> {
  return (await db.select({ id: schools.id }).from(schools).where(eq(schools.id, id))).length > 0;
}

export async function ooExists(db: DbOrTx, id: number): Promise<boolean> {
  return (await db.select({ id: oo.id }).from(oo).where(eq(oo.id, id))).length > 0;
}

/** Locks the user row, so concurrent saves of one user apply one after the other. */
export async function lockUser(db: DbOrTx, id: number): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).for('update');
  return row ?? null;
}

export async function roleCodesOf(db: DbOrTx, userId: number): Promise<Role[]> {
  const rows = await db.select({ role: userRoles.role }).from(userRoles).where(eq(userRoles.userId, userId));
  return rows.map((r) => r.role as Role).sort();
}

/** Whether another user already uses this login (case-insensitive, like the unique index). */
export async function loginInUse(db: DbOrTx, login: string, exceptId?: number): Promise<boolean> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        sql`lower(${users.login}) = lower(${login})`,
        exceptId ? sql`${users.id} <> ${exceptId}` : undefined,
      ),
    )
    .limit(1);
  return rows.length > 0;
}

export async function emailInUse(db: DbOrTx, email: string, exceptId?: number): Promise<boolean> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        sql`lower(${users.email}) = lower(${email})`,
        exceptId ? sql`${users.id} <> ${exceptId}` : undefined,
      ),
    )
    .limit(1);
  return rows.length > 0;
}

export type UserWrite = Partial<
  Pick<
    UserRow,
    | 'login'
    | 'email'
    | 'surname'
    | 'name'
    | 'patronymic'
    | 'schoolId'
    | 'ooId'
    | 'areaId'
    | 'isBlocked'
    | 'passwordHash'
    | 'emailConfirmedAt'
  >
>;

export async function insertUser(db: DbOrTx, values: UserWrite & { login: string }): Promise<UserRow> {
  const [row] = await db.insert(users).values(values).returning();
  return row!;
}

export async function updateUser(db: DbOrTx, id: number, values: UserWrite): Promise<UserRow> {
  const [row] = await db
    .update(users)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(users.id, id))
    .returning();
  return row!;
}

export async function replaceRoles(db: DbOrTx, userId: number, codes: Role[]): Promise<void> {
  await db.delete(userRoles).where(eq(userRoles.userId, userId));
  if (codes.length) await db.insert(userRoles).values(codes.map((role) => ({ userId, role })));
}

// --- participant card ---

export type ParticipantTestRow = typeof participantTests.$inferSelect;

export async function lockParticipantTest(db: DbOrTx, id: number): Promise<ParticipantTestRow | null> {
  const [row] = await db.select().from(participantTests).where(eq(participantTests.id, id)).for('update');
  return row ?? null;
}

export async function findStudent(db: DbOrTx, id: number): Promise<StudentRow | null> {
  const [row] = await db.select().from(students).where(eq(students.id, id));
  return row ?? null;
}

export async function findClass(db: DbOrTx, id: number) {
  const [row] = await db
    .select({ id: classes.id, schoolId: classes.schoolId, name: classes.name })
    .from(classes)
    .where(eq(classes.id, id));
  return row ?? null;
}

export type StudentWrite = Pick<StudentRow, 'surname' | 'name' | 'patronymic' | 'birthDate' | 'classId'>;

export async function insertStudent(db: DbOrTx, schoolId: number, values: StudentWrite): Promise<StudentRow> {
  const [row] = await db
    .insert(students)
    .values({ schoolId, ...values })
    .returning();
  return row!;
}

export async function updateStudent(
  db: DbOrTx,
  id: number,
  values: Partial<StudentWrite>,
): Promise<StudentRow> {
  const [row] = await db.update(students).set(values).where(eq(students.id, id)).returning();
  return row!;
}

export async function updateParticipantTest(
  db: DbOrTx,
  id: number,
  values: Partial<Pick<ParticipantTestRow, 'studentId' | 'classId'>>,
): Promise<void> {
  await db
    .update(participantTests)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(participantTests.id, id));
}
