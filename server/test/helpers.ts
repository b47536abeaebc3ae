import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { inject } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { desc, eq, type Logger } from 'drizzle-orm';
import pg from 'pg';
import type { Role } from '@attesta/contract';
import { buildApp } from '../src/app.js';
import { loadConfig, type Config } from '../src/config.js';
import { openDatabase, type Database } from '../src/db/client.js';
import {
  buildings,
  classes,
  diagnosticSchools,
  diagnosticSubjectTests,
  diagnostics,
  examWorks,
  oo,
  participantTests,
  schools,
  students,
  subjectExams,
  subjects,
  subjectTests,
  tasks,
  userRoles,
  users,
  variants,
  variantTasks,
  workerPositions,
  workers,
} from '../src/db/schema/index.js';
import {
  files as storedFiles,
  htmlContainerResources,
  htmlContainers,
  htmlTexts,
} from '../src/db/schema/index.js';
import { organizatorAssignments, workerTests } from '../src/db/schema/index.js';
import { answerFiles, answers, taskScores } from '../src/db/schema/index.js';
import { hashPassword } from '../src/lib/password.js';
import { schoolDay } from '../src/lib/calendar.js';
import { activationCode, registrationCode } from '../src/lib/tokens.js';
import type { MailMessage, Mailer } from '../src/lib/mailer.js';

/** What test/global-setup.ts made for this run (nothing when a file runs outside its config). */
function provided<K extends 'pgliteDump' | 'databaseTemplate'>(key: K): string | null {
  try {
    return inject(key) ?? null;
  } catch {
    return null;
  }
}

let dumpBlob: Blob | null | undefined;
/** The migrated PGlite dump, read once per test process. */
function migratedDump(): Blob | null {
  if (dumpBlob === undefined) {
    const path = provided('pgliteDump');
    dumpBlob = path && existsSync(path) ? new Blob([readFileSync(path)]) : null;
  }
  return dumpBlob;
}

/**
 * A fresh, migrated database for one test file: PGlite in memory by default, or a new database
 * on the PostgreSQL server of TEST_DATABASE_URL (dropped again by `close`).
 */
const serverUrls = new WeakMap<Database, string>();

/** The connection URL of a test database on the PostgreSQL server (none for embedded PGlite). */
export const databaseUrlOf = (database: Database) => serverUrls.get(database) ?? null;

export async function createTestDatabase(options: { logger?: Logger } = {}): Promise<Database> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const dump = migratedDump();
    const database = await openDatabase(dump ? { loadDataDir: dump, ...options } : options);
    await database.migrate();
    return database;
  }
  const name = `attesta_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const template = provided('databaseTemplate');
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString(), poolSize: 5, ...options });
  await database.migrate();
  serverUrls.set(database, url.toString());
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
    // The file storage under test: FILES_STORAGE=database|disk|s3 runs a test file on that driver
    // (s3: on the local S3 server global-setup starts, unless FILES_S3_* name one).
    ...Object.fromEntries(
      Object.entries(process.env).filter(
        (e): e is [string, string] => /^FILES_(STORAGE|S3_\w+)$/.test(e[0]) && e[1] !== undefined,
      ),
    ),
    ...env,
  });
}

export async function createTestApp(
  env: Record<string, string> = {},
  options: { logger?: Logger } = {},
): Promise<TestApp> {
  const database = await createTestDatabase(options);
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

export interface ParticipantTestFixture {
  participantTestId: number;
  diagnosticId: number;
  subjectTestId: number;
  activationCode: string;
}

/** yyyy-mm-dd of the school calendar day (Moscow) shifted by `days`. */
export function isoDate(days = 0): string {
  return schoolDay(new Date(Date.now() + days * 86_400_000));
}

/**
 * subject → subject exam → subject test → diagnostic → one participant test for a student of
 * `org` (or impersonal), dated today unless told otherwise.
 */
export async function createParticipantTest(
  app: FastifyInstance,
  org: OrgFixture,
  options: { studentId?: number | null; testDate?: string; status?: string; impersonal?: boolean } = {},
): Promise<ParticipantTestFixture> {
  const db = app.ctx.db;
  const [subject] = await db
    .insert(subjects)
    .values({ name: unique('Математика '), code: unique('M') })
    .returning();
  const [exam] = await db
    .insert(subjectExams)
    .values({ subjectId: subject!.id, kind: 'diagnostic', name: 'Диагностика' })
    .returning();
  const [test] = await db
    .insert(subjectTests)
    .values({ subjectExamId: exam!.id, name: 'Математика, 7 класс', parallels: [7], durationMinutes: 45 })
    .returning();
  const [diagnostic] = await db
    .insert(diagnostics)
    .values({
      code: unique('D'),
      name: 'Независимая диагностика',
      startsAt: new Date(Date.now() - 86_400_000),
      endsAt: new Date(Date.now() + 7 * 86_400_000),
      parallels: [7],
    })
    .returning();
  const impersonal = options.impersonal ?? false;
  const code = activationCode();
  const [pt] = await db
    .insert(participantTests)
    .values({
      diagnosticId: diagnostic!.id,
      subjectTestId: test!.id,
      studentId: impersonal ? null : (options.studentId ?? org.studentIds[0]!),
      schoolId: org.schoolId,
      classId: org.classId,
      buildingId: org.buildingId,
      testDate: options.testDate ?? isoDate(),
      activationCode: code,
      registrationCode: registrationCode(),
      status: options.status ?? 'planned',
      isImpersonal: impersonal,
    })
    .returning();
  return {
    participantTestId: pt!.id,
    diagnosticId: diagnostic!.id,
    subjectTestId: test!.id,
    activationCode: code,
  };
}

/**
 * Ends a diagnostic's window a minute ago, as when its sitting is over: results are published only
 * after the window (docs/design.md §3, "Publication ends the sitting").
 */
export async function closeWindow(app: FastifyInstance, diagnosticId: number): Promise<void> {
  await app.ctx.db
    .update(diagnostics)
    .set({ endsAt: new Date(Date.now() - 60_000) })
    .where(eq(diagnostics.id, diagnosticId));
}

/** A participant signed in with the fixture's activation code (session bound to its participant test). */
export async function signedInParticipant(app: FastifyInstance, fixture: ParticipantTestFixture) {
  const user = await createUser(app, { roles: ['participant'] });
  const session = await sessionFor(app, user.id, {
    participantTestId: fixture.participantTestId,
    activationCode: fixture.activationCode,
  });
  return { user, session };
}

export interface TaskSpec {
  answerType: string;
  html?: string;
  content?: Record<string, unknown>;
  reference?: unknown;
  scoring?: Record<string, unknown>;
  solutionHtml?: string | null;
  criteria?: { code: string; text: string; maxScore: number; step?: number }[] | null;
  maxScore?: number;
}

export interface VariantFixture {
  variantId: number;
  /** variant_tasks ids, in the order of the specs (positions 1, 2, ...). */
  variantTaskIds: number[];
  taskIds: number[];
}

/** A variant of a subject test with one task per spec (tasks, variant_tasks rows). */
export async function createVariantWithTasks(
  app: FastifyInstance,
  subjectTestId: number,
  specs: TaskSpec[],
  number?: number,
): Promise<VariantFixture> {
  const db = app.ctx.db;
  const [last] = await db
    .select({ n: variants.number })
    .from(variants)
    .where(eq(variants.subjectTestId, subjectTestId))
    .orderBy(desc(variants.number))
    .limit(1);
  const [variant] = await db
    .insert(variants)
    .values({ subjectTestId, number: number ?? (last?.n ?? 0) + 1 })
    .returning();
  const taskIds: number[] = [];
  const variantTaskIds: number[] = [];
  for (const [i, spec] of specs.entries()) {
    const [task] = await db
      .insert(tasks)
      .values({
        answerType: spec.answerType,
        html: spec.html ?? `<p>Задание ${i + 1}</p>`,
        content: spec.content ?? {},
        reference: spec.reference ?? null,
        scoring: spec.scoring ?? {},
        solutionHtml: spec.solutionHtml ?? null,
        criteria: spec.criteria ?? null,
        maxScore: spec.maxScore ?? 1,
      })
      .returning();
    const [vt] = await db
      .insert(variantTasks)
      .values({ variantId: variant!.id, taskId: task!.id, position: i + 1, maxScore: spec.maxScore ?? 1 })
      .returning();
    taskIds.push(task!.id);
    variantTaskIds.push(vt!.id);
  }
  return { variantId: variant!.id, variantTaskIds, taskIds };
}

/**
 * One task of every answer type, valid by TASK_SCHEMAS, with `secret` written into every secret
 * part (reference, scoring, solution, criteria) so leak tests can look for it in responses.
 */
export function tasksOfEveryType(secret = 'SECRET'): TaskSpec[] {
  const hidden = (n: number) => ({
    solutionHtml: `<p>${secret}-solution-${n}</p>`,
    criteria: [{ code: 'К1', text: `${secret}-criterion-${n}`, maxScore: 1 }],
  });
  const opts = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ id: `o${i + 1}`, html: `Вариант ${i + 1}` }));
  return [
    {
      answerType: 'single_choice',
      content: { options: opts(4), shuffle: true },
      reference: { correct: 'o2', note: `${secret}-ref-1` },
      scoring: { method: 'all_or_nothing', note: `${secret}-scoring-1` },
      ...hidden(1),
    },
    {
      answerType: 'multiple_choice',
      content: { options: opts(5), shuffle: true, maxChoices: 3, [`${secret}_hidden_key`]: 'x' },
      reference: { correct: ['o1', 'o3'], note: `${secret}-ref-2` },
      scoring: {
        method: 'per_choice',
        map: { o1: 1, o2: -1, o3: 1, o4: 0, o5: 0 },
        note: `${secret}-scoring-2`,
      },
      ...hidden(2),
    },
    {
      answerType: 'short_text',
      content: { maxLength: 20 },
      reference: { accepted: [`${secret}-ref-3`] },
      scoring: { method: 'all_or_nothing', caseSensitive: false, note: `${secret}-scoring-3` },
      ...hidden(3),
    },
    {
      answerType: 'number',
      content: { unit: 'см' },
      reference: { value: 12.5, tolerance: 0, note: `${secret}-ref-4` },
      scoring: { method: 'all_or_nothing', note: `${secret}-scoring-4` },
      ...hidden(4),
    },
    {
      answerType: 'digit_sequence',
      content: { length: 3 },
      reference: { digits: '312', note: `${secret}-ref-5` },
      scoring: { method: 'one_mistake', note: `${secret}-scoring-5` },
      maxScore: 2,
      ...hidden(5),
    },
    {
      answerType: 'ordering',
      content: { items: opts(4), shuffle: true },
      reference: { order: ['o3', 'o1', 'o4', 'o2'], note: `${secret}-ref-6` },
      scoring: { method: 'all_or_nothing', note: `${secret}-scoring-6` },
      ...hidden(6),
    },
    {
      answerType: 'matching',
      content: {
        left: [
          { id: 'a', html: 'А' },
          { id: 'b', html: 'Б' },
        ],
        right: opts(3),
        shuffle: true,
      },
      reference: { pairs: { a: 'o2', b: 'o1' }, note: `${secret}-ref-7` },
      scoring: { method: 'per_pair', note: `${secret}-scoring-7` },
      maxScore: 2,
      ...hidden(7),
    },
    {
      answerType: 'cloze',
      html: '<p>Столица {{b1}}, река {{b2}}</p>',
      content: {
        blanks: [
          { id: 'b1', kind: 'text', width: 10 },
          {
            id: 'b2',
            kind: 'choice',
            options: [
              { id: 'c1', text: 'Волга' },
              { id: 'c2', text: 'Москва' },
            ],
          },
        ],
      },
      reference: { blanks: { b1: [`${secret}-ref-8`], b2: ['c2'] } },
      scoring: { method: 'per_blank', note: `${secret}-scoring-8` },
      maxScore: 2,
      ...hidden(8),
    },
    {
      answerType: 'extended_text',
      content: { maxLength: 2000 },
      reference: null,
      scoring: { method: 'expert', thirdCheckThreshold: 1, note: `${secret}-scoring-9` },
      ...hidden(9),
    },
    {
      answerType: 'file',
      content: { accept: ['image/*', 'application/pdf'], maxFiles: 2, maxSizeMb: 1 },
      reference: null,
      scoring: { method: 'expert', note: `${secret}-scoring-10` },
      ...hidden(10),
    },
  ];
}

export interface ExamWorkOptions {
  /** online (default) | blank */
  answerMode?: string;
  status?: string;
  startedAt?: Date;
  timeLimitSeconds?: number;
  /** Default: startedAt + timeLimitSeconds. */
  deadlineAt?: Date;
  pausedAt?: Date | null;
  deleted?: boolean;
}

/** An exam work of a participant test on a variant, started now with 45 minutes unless told otherwise. */
export async function createExamWork(
  app: FastifyInstance,
  participantTestId: number,
  variantId: number,
  options: ExamWorkOptions = {},
): Promise<number> {
  const startedAt = options.startedAt ?? new Date();
  const timeLimitSeconds = options.timeLimitSeconds ?? 45 * 60;
  const deadlineAt = options.deadlineAt ?? new Date(startedAt.getTime() + timeLimitSeconds * 1000);
  const [work] = await app.ctx.db
    .insert(examWorks)
    .values({
      participantTestId,
      variantId,
      status: options.status ?? 'in_progress',
      answerMode: options.answerMode ?? 'online',
      startedAt,
      timeLimitSeconds,
      deadlineAt,
      windowEndsAt: new Date(startedAt.getTime() + 7 * 86_400_000),
      pausedAt: options.pausedAt ?? null,
      deletedAt: options.deleted ? new Date() : null,
    })
    .returning({ id: examWorks.id });
  return work!.id;
}

/** An interactive content container (version 1) with its resources: path → [mime, body]. */
export async function createHtmlContainer(
  app: FastifyInstance,
  resources: Record<string, [string, string | Buffer]>,
  options: { entry?: string; name?: string } = {},
): Promise<number> {
  const [container] = await app.ctx.db
    .insert(htmlContainers)
    .values({ name: options.name ?? unique('Интерактив '), entry: options.entry ?? 'index.html' })
    .returning({ id: htmlContainers.id });
  const rows = Object.entries(resources).map(([path, [mime, body]]) => ({
    containerId: container!.id,
    version: 1,
    path,
    mime,
    data: Buffer.isBuffer(body) ? body : Buffer.from(body),
  }));
  if (rows.length) await app.ctx.db.insert(htmlContainerResources).values(rows);
  return container!.id;
}

/** A stored file of any owner (its bytes where the app's file storage puts them). */
export async function createStoredFile(
  app: FastifyInstance,
  file: {
    ownerType: string;
    ownerId: number | null;
    name?: string;
    mime?: string;
    data?: Buffer;
    text?: string | null;
    createdBy?: number | null;
  },
): Promise<number> {
  const data = file.data ?? Buffer.from('hello');
  const [row] = await app.ctx.db
    .insert(storedFiles)
    .values({
      ownerType: file.ownerType,
      ownerId: file.ownerId,
      name: file.name ?? 'file.txt',
      mime: file.mime ?? 'text/plain',
      size: data.length,
      sha256: 'test',
      ...(await app.ctx.files.put(data)),
      text: file.text ?? null,
      createdBy: file.createdBy ?? null,
    })
    .returning({ id: storedFiles.id });
  return row!.id;
}

/** An html text (published unless told otherwise). */
export async function createHtmlText(
  app: FastifyInstance,
  text: { title?: string; html?: string; code?: string; isPublished?: boolean } = {},
): Promise<number> {
  const [row] = await app.ctx.db
    .insert(htmlTexts)
    .values({
      title: text.title ?? 'Правила',
      html: text.html ?? '<p>Текст</p>',
      code: text.code ?? null,
      isPublished: text.isPublished ?? true,
    })
    .returning({ id: htmlTexts.id });
  return row!.id;
}

export interface SchoolWithStaff extends OrgFixture {
  /** A second building with a class 8 «Б» of two students. */
  otherBuildingId: number;
  otherClassId: number;
  otherStudentIds: number[];
  /** Coordinator of this school (users.schoolId), signed in. */
  coordinator: { user: UserFixture; session: Session };
  /** Organizator of this school assigned to the first class (7 «А») only, signed in. */
  organizator: { user: UserFixture; session: Session };
}

/**
 * createOrg plus a second building and class (8 «Б», two students), a signed-in coordinator of
 * the school and a signed-in organizator assigned to the first class.
 */
export async function createSchoolWithStaff(app: FastifyInstance, name?: string): Promise<SchoolWithStaff> {
  const org = await createOrg(app, name);
  const db = app.ctx.db;
  const [b] = await db.insert(buildings).values({ schoolId: org.schoolId, name: 'Корпус 2' }).returning();
  const [c] = await db
    .insert(classes)
    .values({ schoolId: org.schoolId, buildingId: b!.id, parallelId: 8, letter: 'Б', name: '8 «Б»' })
    .returning();
  const st = await db
    .insert(students)
    .values([
      { schoolId: org.schoolId, classId: c!.id, surname: 'Кузнецова', name: 'Анна' },
      { schoolId: org.schoolId, classId: c!.id, surname: 'Смирнов', name: 'Олег' },
    ])
    .returning();
  const coordinator = await signedIn(app, ['coordinator'], { schoolId: org.schoolId });
  const organizator = await signedIn(app, ['organizator'], { schoolId: org.schoolId });
  await db.insert(organizatorAssignments).values({ userId: organizator.user.id, classId: org.classId });
  return {
    ...org,
    otherBuildingId: b!.id,
    otherClassId: c!.id,
    otherStudentIds: st.map((x) => x.id),
    coordinator,
    organizator,
  };
}

export interface DiagnosticFixture {
  diagnosticId: number;
  subjectTestId: number;
}

/**
 * A diagnostic (window: yesterday to a week ahead unless told) including the schools, with one
 * subject test for the given grades (default 7).
 */
export async function createDiagnosticFor(
  app: FastifyInstance,
  options: {
    schoolIds: number[];
    testParallels?: number[];
    parallels?: number[];
    startsAt?: Date;
    endsAt?: Date;
    name?: string;
    kind?: string;
  },
): Promise<DiagnosticFixture> {
  const db = app.ctx.db;
  const [subject] = await db
    .insert(subjects)
    .values({ name: unique('Русский язык '), code: unique('R') })
    .returning();
  const [exam] = await db
    .insert(subjectExams)
    .values({ subjectId: subject!.id, kind: 'diagnostic', name: 'Диагностика' })
    .returning();
  const grades = options.testParallels ?? [7];
  const [test] = await db
    .insert(subjectTests)
    .values({
      subjectExamId: exam!.id,
      name: `Русский язык, ${grades.join(', ')} класс`,
      parallels: grades,
      durationMinutes: 45,
    })
    .returning();
  const [diagnostic] = await db
    .insert(diagnostics)
    .values({
      code: unique('DG'),
      name: options.name ?? unique('Диагностика '),
      kind: options.kind ?? 'diagnostic',
      startsAt: options.startsAt ?? new Date(Date.now() - 86_400_000),
      endsAt: options.endsAt ?? new Date(Date.now() + 7 * 86_400_000),
      parallels: options.parallels ?? [],
    })
    .returning();
  await db.insert(diagnosticSubjectTests).values({ diagnosticId: diagnostic!.id, subjectTestId: test!.id });
  if (options.schoolIds.length)
    await db
      .insert(diagnosticSchools)
      .values(options.schoolIds.map((schoolId) => ({ diagnosticId: diagnostic!.id, schoolId })));
  return { diagnosticId: diagnostic!.id, subjectTestId: test!.id };
}

/** A worker position, a worker test of it (own worker diagnostic) and the position's id. */
export async function createWorkerTest(
  app: FastifyInstance,
  options: { positionName?: string; schoolId?: number | null; name?: string } = {},
): Promise<{ positionId: number; workerTestId: number; diagnosticId: number; subjectTestId: number }> {
  const db = app.ctx.db;
  const [position] = await db
    .insert(workerPositions)
    .values({ name: options.positionName ?? unique('Организатор в аудитории ') })
    .returning();
  const target = await createDiagnosticFor(app, { schoolIds: [], kind: 'worker', testParallels: [] });
  const [wt] = await db
    .insert(workerTests)
    .values({
      name: options.name ?? 'Подготовка организаторов',
      subjectTestId: target.subjectTestId,
      diagnosticId: target.diagnosticId,
      positionId: position!.id,
      schoolId: options.schoolId ?? null,
      startsAt: new Date(Date.now() - 86_400_000),
      endsAt: new Date(Date.now() + 7 * 86_400_000),
    })
    .returning();
  return { positionId: position!.id, workerTestId: wt!.id, ...target };
}

// --- fixtures of ugnik, participant-test, worker and profile tests ---

/** A signed-in user with roles and scope anchors (school, oo) set directly. */
export async function signedInScoped(
  app: FastifyInstance,
  roles: Role[],
  anchors: { schoolId?: number | null; ooId?: number | null } = {},
) {
  const user = await createUser(app, { roles, ...(anchors.schoolId ? { schoolId: anchors.schoolId } : {}) });
  if (anchors.ooId) await app.ctx.db.update(users).set({ ooId: anchors.ooId }).where(eq(users.id, user.id));
  return { user, session: await sessionFor(app, user.id) };
}

/** A subject test of a subject exam of `kind` (diagnostic unless told), offered for `parallels`. */
export async function createSubjectTest(
  app: FastifyInstance,
  options: { kind?: string; parallels?: number[]; name?: string } = {},
): Promise<number> {
  const db = app.ctx.db;
  const [subject] = await db
    .insert(subjects)
    .values({ name: unique('Предмет '), code: unique('SUB') })
    .returning();
  const [exam] = await db
    .insert(subjectExams)
    .values({ subjectId: subject!.id, kind: options.kind ?? 'diagnostic', name: 'Экзамен' })
    .returning();
  const [test] = await db
    .insert(subjectTests)
    .values({
      subjectExamId: exam!.id,
      name: options.name ?? unique('Тест '),
      parallels: options.parallels ?? [7],
      durationMinutes: 45,
    })
    .returning();
  return test!.id;
}

/** A diagnostic with its subject tests and schools, open from yesterday for a week unless told. */
export async function createDiagnosticWith(
  app: FastifyInstance,
  options: {
    subjectTestIds: number[];
    schoolIds?: number[];
    createdBy?: number | null;
    createdByRole?: string | null;
    kind?: string;
    startsAt?: Date;
    endsAt?: Date;
  },
): Promise<{ diagnosticId: number; code: string }> {
  const db = app.ctx.db;
  const code = unique('DG');
  const [d] = await db
    .insert(diagnostics)
    .values({
      code,
      name: unique('Диагностика '),
      kind: options.kind ?? 'diagnostic',
      startsAt: options.startsAt ?? new Date(Date.now() - 86_400_000),
      endsAt: options.endsAt ?? new Date(Date.now() + 7 * 86_400_000),
      parallels: [7],
      createdBy: options.createdBy ?? null,
      createdByRole: options.createdByRole ?? null,
    })
    .returning();
  if (options.subjectTestIds.length)
    await db
      .insert(diagnosticSubjectTests)
      .values(options.subjectTestIds.map((subjectTestId) => ({ diagnosticId: d!.id, subjectTestId })));
  if (options.schoolIds?.length)
    await db
      .insert(diagnosticSchools)
      .values(options.schoolIds.map((schoolId) => ({ diagnosticId: d!.id, schoolId })));
  return { diagnosticId: d!.id, code };
}

/** A worker (staff member) of a school, with a position when given. */
export async function createWorker(
  app: FastifyInstance,
  schoolId: number | null,
  options: { positionId?: number; blocked?: boolean } = {},
): Promise<number> {
  const [w] = await app.ctx.db
    .insert(workers)
    .values({
      schoolId,
      positionId: options.positionId ?? null,
      surname: 'Работникова',
      name: 'Анна',
      isBlocked: options.blocked ?? false,
    })
    .returning({ id: workers.id });
  return w!.id;
}

export async function createWorkerPosition(
  app: FastifyInstance,
  name = unique('Должность '),
): Promise<number> {
  const [p] = await app.ctx.db.insert(workerPositions).values({ name }).returning({ id: workerPositions.id });
  return p!.id;
}

/** Number of rows of a table (tests that bad input changes nothing). */
export async function countRows(database: Database, table: string, where = 'true'): Promise<number> {
  const [row] = await database.query<{ n: number }>(`select count(*)::int as n from ${table} where ${where}`);
  return row!.n;
}

export interface GuardedCall {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  payload?: unknown;
}

/**
 * What the access layer answers for a call: without a session, with a session of a role not
 * allowed, and with an allowed cookie session lacking the anti-CSRF header. Expect
 * `{ anonymous: 401, wrongRole: 403, noCsrf: 'csrf' }` (noCsrf is the error code, or the status
 * when the call is not state-changing and so passes).
 */
export async function guardResults(
  app: FastifyInstance,
  call: GuardedCall,
  sessions: { allowed: Session; wrongRole: Session },
): Promise<{ anonymous: number; wrongRole: number; noCsrf: string | number }> {
  const send = (headers: Record<string, string>) =>
    app.inject({
      method: call.method,
      url: call.url,
      headers,
      ...(call.payload === undefined ? {} : { payload: call.payload as object }),
    });
  const anonymous = await send({ 'x-requested-with': 'XMLHttpRequest' });
  const wrongRole = await send(sessions.wrongRole.headers);
  const noCsrf = await send({ cookie: sessions.allowed.cookie });
  return {
    anonymous: anonymous.statusCode,
    wrongRole: wrongRole.statusCode,
    noCsrf: noCsrf.statusCode === 403 ? (noCsrf.json() as { code: string }).code : noCsrf.statusCode,
  };
}

// --- fixtures of expert grading tests ---

export interface ExpertWorkFixture extends ParticipantTestFixture {
  examWorkId: number;
  subjectId: number;
  /** [extended text (К1 ≤ 2, К2 ≤ 1), file answer (К1 ≤ 3)] */
  variantTaskIds: number[];
  /** The file attached to the file answer (named after the participant on purpose). */
  fileId: number;
  fileBytes: Buffer;
  answerText: string;
}

/**
 * A finished work of student «Иванов» (createOrg) with two expert-graded tasks answered (a text
 * and an attached file) whose task_scores await experts, as the results module leaves them.
 */
export async function createExpertWork(
  app: FastifyInstance,
  options: { threshold?: number; expertRule?: 'third' | 'mean' } = {},
): Promise<ExpertWorkFixture> {
  const db = app.ctx.db;
  const org = await createOrg(app);
  const pt = await createParticipantTest(app, org, { status: 'finished' });
  await db
    .update(subjectTests)
    .set({ expertRule: options.expertRule ?? 'third' })
    .where(eq(subjectTests.id, pt.subjectTestId));
  const [st] = await db
    .select({ subjectId: subjectExams.subjectId })
    .from(subjectTests)
    .innerJoin(subjectExams, eq(subjectExams.id, subjectTests.subjectExamId))
    .where(eq(subjectTests.id, pt.subjectTestId));
  const scoring = { method: 'expert', thirdCheckThreshold: options.threshold ?? 1 };
  const variant = await createVariantWithTasks(app, pt.subjectTestId, [
    {
      answerType: 'extended_text',
      html: '<p>Напишите сочинение</p><script>alert(1)</script>',
      content: { maxLength: 2000 },
      scoring,
      solutionHtml: '<p>Образец ответа</p>',
      criteria: [
        { code: 'К1', text: 'Тезис', maxScore: 2 },
        { code: 'К2', text: 'Грамотность', maxScore: 1, step: 0.5 },
      ],
      maxScore: 3,
    },
    {
      answerType: 'file',
      content: { accept: ['image/*'], maxFiles: 1, maxSizeMb: 1 },
      scoring,
      criteria: [{ code: 'К1', text: 'Решение', maxScore: 3, step: 0.5 }],
      maxScore: 3,
    },
  ]);
  const examWorkId = await createExamWork(app, pt.participantTestId, variant.variantId, {
    status: 'finished',
  });
  await db
    .update(examWorks)
    .set({ finishedAt: new Date(), finishReason: 'manual' })
    .where(eq(examWorks.id, examWorkId));
  const fileBytes = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4]);
  const fileId = await createStoredFile(app, {
    ownerType: 'answer',
    ownerId: examWorkId,
    name: 'Иванов_работа.jpg',
    mime: 'image/jpeg',
    data: fileBytes,
  });
  const answerText = `Ответ участника ${unique('T')}`;
  await db.insert(answers).values([
    { examWorkId, variantTaskId: variant.variantTaskIds[0]!, value: answerText, seq: 1 },
    { examWorkId, variantTaskId: variant.variantTaskIds[1]!, value: { fileIds: [fileId] }, seq: 1 },
  ]);
  await db.insert(answerFiles).values({ examWorkId, variantTaskId: variant.variantTaskIds[1]!, fileId });
  await db.insert(taskScores).values(
    variant.variantTaskIds.map((variantTaskId) => ({
      examWorkId,
      variantTaskId,
      autoStatus: 'manual',
      maxScore: 3,
      status: 'awaiting_experts',
    })),
  );
  return {
    ...pt,
    examWorkId,
    subjectId: st!.subjectId,
    variantTaskIds: variant.variantTaskIds,
    fileId,
    fileBytes,
    answerText,
  };
}
