import { randomBytes } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import type { Role } from '@attesta/contract';
import { buildApp } from '../src/app.js';
import { loadConfig, type Config } from '../src/config.js';
import { openDatabase, type Database } from '../src/db/client.js';
import { buildings, classes, oo, schools, students, userRoles, users } from '../src/db/schema/index.js';
import { hashPassword } from '../src/lib/password.js';
import type { MailMessage, Mailer } from '../src/lib/mailer.js';

/**
 * A fresh, migrated database for one test file: PGlite in memory by default, or a new database
 * on the PostgreSQL server of TEST_DATABASE_URL (dropped again by `close`).
 */
export async function createTestDatabase(): Promise<Database> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const database = await openDatabase({});
    await database.migrate();
    return database;
  }
  const name = `attesta_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString(), poolSize: 5 });
  await database.migrate();
  const close = database.close;
  database.close = async () => {
    await close();
    const dropper = new pg.Client({ connectionString: serverUrl });
    await dropper.connect();
    await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await dropper.end();
  };
  return database;
}

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  config: Config;
  /** Every message the mailer was asked to send. */
  mail: MailMessage[];
  close(): Promise<void>;
}

export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DEMO_DATA: 'false',
    DATA_DIR: '/tmp/attesta-test',
    ...env,
  });
}

export async function createTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const database = await createTestDatabase();
  const config = testConfig(env);
  const mail: MailMessage[] = [];
  const mailer: Mailer = {
    async send(message) {
      mail.push(message);
    },
  };
  const app = await buildApp(config, { database, mailer, logger: false, web: false });
  await app.ready();
  return {
    app,
    database,
    config,
    mail,
    async close() {
      await app.close();
      await database.close();
    },
  };
}

let seq = 0;
export const unique = (prefix: string) => `${prefix}${process.pid}x${++seq}`;

export interface OrgFixture {
  ooId: number;
  schoolId: number;
  buildingId: number;
  classId: number;
  studentIds: number[];
}

/** One oo → school → building → class with a few students. */
export async function createOrg(app: FastifyInstance, name = unique('Школа ')): Promise<OrgFixture> {
  const db = app.ctx.db;
  const [o] = await db
    .insert(oo)
    .values({ name: `ОО ${name}` })
    .returning();
  const [s] = await db
    .insert(schools)
    .values({ ooId: o!.id, name, code: unique('S') })
    .returning();
  const [b] = await db.insert(buildings).values({ schoolId: s!.id, name: 'Основное здание' }).returning();
  const [c] = await db
    .insert(classes)
    .values({ schoolId: s!.id, buildingId: b!.id, parallelId: 7, letter: 'А', name: '7 «А»' })
    .returning();
  const st = await db
    .insert(students)
    .values(
      ['Иванов', 'Петрова', 'Сидоров'].map((surname, i) => ({
        schoolId: s!.id,
        classId: c!.id,
        surname,
        name: ['Иван', 'Мария', 'Пётр'][i]!,
      })),
    )
    .returning();
  return { ooId: o!.id, schoolId: s!.id, buildingId: b!.id, classId: c!.id, studentIds: st.map((x) => x.id) };
}

export interface UserFixture {
  id: number;
  login: string;
  password: string;
}

export async function createUser(
  app: FastifyInstance,
  options: {
    roles: Role[];
    login?: string;
    password?: string;
    schoolId?: number;
    email?: string;
    blocked?: boolean;
  } = {
    roles: [],
  },
): Promise<UserFixture> {
  const login = options.login ?? unique('user');
  const password = options.password ?? 'correct horse battery';
  const [u] = await app.ctx.db
    .insert(users)
    .values({
      login,
      email: options.email ?? `${login}@example.test`,
      surname: 'Тестов',
      name: 'Тест',
      passwordHash: await hashPassword(password),
      emailConfirmedAt: new Date(),
      schoolId: options.schoolId ?? null,
      isBlocked: options.blocked ?? false,
    })
    .returning();
  if (options.roles.length)
    await app.ctx.db.insert(userRoles).values(options.roles.map((role) => ({ userId: u!.id, role })));
  return { id: u!.id, login, password };
}

/** Headers of a signed-in browser: the session cookie and the anti-CSRF header. */
export interface Session {
  cookie: string;
  token: string;
  headers: Record<string, string>;
}

export function sessionFrom(res: LightMyRequestResponse): Session {
  const setCookie = res.cookies.find((c) => c.name === 'attesta_sid');
  if (!setCookie) throw new Error(`no session cookie (status ${res.statusCode}: ${res.body})`);
  const token = (res.json() as { token: string }).token;
  const cookie = `attesta_sid=${setCookie.value}`;
  return { cookie, token, headers: { cookie, 'x-requested-with': 'XMLHttpRequest' } };
}

export async function login(
  app: FastifyInstance,
  user: { login: string; password: string },
): Promise<Session> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/Account/login',
    headers: { 'x-requested-with': 'XMLHttpRequest' },
    payload: { login: user.login, password: user.password },
  });
  return sessionFrom(res);
}

/** A session opened straight in the store (no login call): fast, for tests of other areas. */
export async function sessionFor(
  app: FastifyInstance,
  userId: number,
  extra: { participantTestId?: number; activationCode?: string } = {},
): Promise<Session> {
  const { token } = await app.ctx.sessions.create({
    userId,
    kind: extra.activationCode ? 'activation_code' : 'password',
    participantTestId: extra.participantTestId ?? null,
    activationCode: extra.activationCode ?? null,
  });
  const cookie = `attesta_sid=${token}`;
  return { cookie, token, headers: { cookie, 'x-requested-with': 'XMLHttpRequest' } };
}

/** A user with the given roles, already signed in. */
export async function signedIn(app: FastifyInstance, roles: Role[], extra: { schoolId?: number } = {}) {
  const user = await createUser(app, { roles, ...extra });
  return { user, session: await sessionFor(app, user.id) };
}
