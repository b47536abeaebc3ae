import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StaffImportResult } from '@attesta/contract';
import {
  countRows,
  createSchoolWithStaff,
  createTestApp,
  signedIn,
  unique,
  type SchoolWithStaff,
  type Session,
  type TestApp,
} from '../../../test/helpers.js';
import { uploadTo, type UploadOptions } from './test-support.js';

// The staff import (issue 13): organizators, coordinators and workers of schools from a file.

let t: TestApp;
let admin: Session;
let adminId: number;

beforeAll(async () => {
  t = await createTestApp();
  const signed = await signedIn(t.app, ['admin']);
  admin = signed.session;
  adminId = signed.user.id;
});
afterAll(async () => t.close());

const upload = (name: string, data: Buffer | string, options: UploadOptions = {}) =>
  uploadTo(t.app, '/api/admin/roster/staff/import', admin.headers, name, data, options);

const imported = async (name: string, data: Buffer | string, options: UploadOptions = {}) => {
  const res = await upload(name, data, options);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as StaffImportResult;
};

const counts = (c: Partial<StaffImportResult['created']> = {}) => ({
  oo: 0,
  schools: 0,
  users: 0,
  organizators: 0,
  coordinators: 0,
  workers: 0,
  ...c,
});

const q = (sql: string, params: unknown[] = []) => t.database.query<Record<string, unknown>>(sql, params);

/** The staff of a school as stored: worker rows with their accounts and roles. */
const staffOf = (schoolName: string) =>
  q(
    `select w.surname, w.name, w.patronymic, w.email as "workerEmail", w.external_id as "externalId",
            p.name as position, u.login, u.email,
            case when u.id is not null then u.password_hash is null end as "noPassword",
            case when u.id is not null then u.email_confirmed_at is not null end as "emailConfirmed",
            u.school_id = w.school_id as "sameSchool",
            case when u.id is not null then
              array(select r.role from user_roles r where r.user_id = u.id order by r.role)::text end as roles
       from workers w join schools s on s.id = w.school_id
       left join worker_positions p on p.id = w.position_id
       left join users u on u.worker_id = w.id
      where s.name = $1 order by w.surname, w.name`,
    [schoolName],
  );

const mailTo = (email: string) => t.mail.filter((m) => m.to === email);

/** The mails go out after the answer: wait for them. */
async function mailsTo(email: string, expected: number) {
  await expect.poll(() => mailTo(email).length, { timeout: 5000 }).toBe(expected);
}

function staffCsv(oo: string, school: string, tag: string) {
  return [
    'oo,school,role,surname,name,patronymic,email,login,position,externalId',
    `${oo},${school},организатор,Петрова,Анна,Сергеевна,anna.${tag}@example.test,anna_${tag},Учитель,`,
    `${oo},${school},coordinator,Орлов,Олег,,oleg.${tag}@example.test,,,`,
    `${oo},${school},Работник,Смирнова,Елена,,,,Повар,W-${tag}`,
  ].join('\n');
}

describe('access', () => {
  it('401 without a session, 403 without the CSRF header and for other roles', async () => {
    const csv = staffCsv('ОО', 'Школа', 'x');
    expect((await upload('s.csv', csv, { headers: {} })).statusCode).toBe(401);
    const noCsrf = await upload('s.csv', csv, { headers: { cookie: admin.cookie } });
    expect([noCsrf.statusCode, noCsrf.json().code]).toEqual([403, 'csrf']);
    for (const role of ['participant', 'expert', 'organizator', 'ugnik'] as const) {
      const { session } = await signedIn(t.app, [role]);
      expect((await upload('s.csv', csv, { headers: session.headers })).statusCode).toBe(403);
      const template = await t.app.inject({
        method: 'GET',
        url: '/api/admin/roster/staff/template',
        headers: session.headers,
      });
      expect(template.statusCode).toBe(403);
    }
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/admin/roster/staff/template' });
    expect(anonymous.statusCode).toBe(401);
    expect(await countRows(t.database, 'workers', `surname = 'Смирнова' and name = 'Елена'`)).toBe(0);
  });
});

describe('admin import', () => {
  it('400 invalid_text for a NUL in a cell, naming its row and column; nothing written', async () => {
    const school = unique('Школа нуля ');
    const csv = staffCsv(unique('ОО '), school, unique('z').toLowerCase()).replace(
      'Смирнова',
      'Смир\u0000нова',
    );
    const res = await upload('s.csv', csv);
    expect([res.statusCode, res.json().code], res.body).toEqual([400, 'invalid_text']);
    expect(res.json().errors[0]).toMatchObject({ path: 'file.row4.col4', params: { row: 4, column: 4 } });
    expect(await countRows(t.database, 'schools', `name = '${school}'`)).toBe(0);
  });

  it('dry run writes nothing; the import creates accounts without passwords, mails their links, and a re-import changes nothing', async () => {
    const oo = unique('ОО Кадры ');
    const school = unique('Школа кадров ');
    const tag = unique('t').toLowerCase();
    const csv = staffCsv(oo, school, tag);
    const usersBefore = await countRows(t.database, 'users');

    const dry = await imported('staff.csv', csv, { dryRun: true });
    const expected = counts({ oo: 1, schools: 1, users: 2, organizators: 1, coordinators: 1, workers: 1 });
    expect(dry).toEqual({ dryRun: true, created: expected, updated: counts(), unchanged: 0, errors: [] });
    expect(await countRows(t.database, 'users')).toBe(usersBefore);
    expect(await countRows(t.database, 'schools', `name = '${school}'`)).toBe(0);

    const done = await imported('staff.csv', csv, { dryRun: false });
    expect(done).toEqual({ dryRun: false, created: expected, updated: counts(), unchanged: 0, errors: [] });
    // The answer holds counts only: never a password or a token.
    expect(JSON.stringify(done)).not.toMatch(/password|token/i);
    expect(await staffOf(school)).toEqual([
      {
        surname: 'Орлов',
        name: 'Олег',
        patronymic: null,
        workerEmail: `oleg.${tag}@example.test`,
        externalId: null,
        position: null,
        // No login in the file: the e-mail is the login.
        login: `oleg.${tag}@example.test`,
        email: `oleg.${tag}@example.test`,
        noPassword: true,
        emailConfirmed: true,
        sameSchool: true,
        roles: '{coordinator}',
      },
      {
        surname: 'Петрова',
        name: 'Анна',
        patronymic: 'Сергеевна',
        workerEmail: `anna.${tag}@example.test`,
        externalId: null,
        position: 'Учитель',
        login: `anna_${tag}`,
        email: `anna.${tag}@example.test`,
        noPassword: true,
        emailConfirmed: true,
        sameSchool: true,
        roles: '{organizator}',
      },
      {
        surname: 'Смирнова',
        name: 'Елена',
        patronymic: null,
        workerEmail: null,
        externalId: `W-${tag}`,
        position: 'Повар',
        login: null,
        email: null,
        noPassword: null,
        emailConfirmed: null,
        sameSchool: null,
        roles: null,
      },
    ]);
    await mailsTo(`anna.${tag}@example.test`, 1);
    await mailsTo(`oleg.${tag}@example.test`, 1);
    expect(mailTo(`anna.${tag}@example.test`)[0]!.text).toContain('/account/reset?token=');
    // The link sets the first password: the account then logs in with it.
    const token = /token=([^\s&]+)/.exec(mailTo(`anna.${tag}@example.test`)[0]!.text)![1]!;
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/Account/ResetPassword',
      headers: { 'x-requested-with': 'XMLHttpRequest' },
      payload: { token: decodeURIComponent(token), newPassword: 'a new staff password 1' },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    const [audit] = await q(
      `select details from audit_events where action = 'roster.staff_import' and user_id = $1 order by id desc limit 1`,
      [adminId],
    );
    expect(audit!.details).toMatchObject({ rows: 3, created: expected, scope: 'admin', mailed: 2 });
    expect(JSON.stringify(audit!.details)).not.toContain('Петрова');

    const again = await imported('staff.csv', csv);
    expect(again).toEqual({ dryRun: false, created: counts(), updated: counts(), unchanged: 3, errors: [] });
    expect(await countRows(t.database, 'users')).toBe(usersBefore + 2);
    // Nobody new: no more mails.
    await new Promise((r) => setTimeout(r, 100));
    expect(mailTo(`anna.${tag}@example.test`)).toHaveLength(1);
  });

  it('updates a changed row: matched by login, by external id and by e-mail', async () => {
    const oo = unique('ОО Кадры ');
    const school = unique('Школа кадров ');
    const tag = unique('u').toLowerCase();
    await imported('staff.csv', staffCsv(oo, school, tag));
    const changed = [
      'oo;school;role;surname;name;patronymic;email;login;position;externalId',
      // by login: a new surname and position
      `${oo};${school};organizator;Петрова-Лис;Анна;Сергеевна;anna.${tag}@example.test;anna_${tag};Завуч;`,
      // by e-mail (the login it has is kept)
      `${oo};${school};координатор;Орлов;Олег;Ильич;oleg.${tag}@example.test;;;`,
      // by external id: a new name
      `${oo};${school};сотрудник;Смирнова;Алёна;;;;Повар;W-${tag}`,
    ].join('\n');
    const dry = await imported('changed.csv', changed, { dryRun: true });
    const updated = counts({ users: 2, organizators: 1, coordinators: 1, workers: 1 });
    expect(dry).toMatchObject({ created: counts(), updated, unchanged: 0, errors: [] });
    expect((await staffOf(school)).map((s) => s.surname)).toEqual(['Орлов', 'Петрова', 'Смирнова']);

    expect(await imported('changed.csv', changed)).toMatchObject({ created: counts(), updated, errors: [] });
    const rows = await staffOf(school);
    expect(rows.map((s) => [s.surname, s.name, s.patronymic, s.position, s.login])).toEqual([
      ['Орлов', 'Олег', 'Ильич', null, `oleg.${tag}@example.test`],
      ['Петрова-Лис', 'Анна', 'Сергеевна', 'Завуч', `anna_${tag}`],
      ['Смирнова', 'Алёна', null, 'Повар', null],
    ]);
    expect(await imported('changed.csv', changed)).toMatchObject({ updated: counts(), unchanged: 3 });
  });

  it('all or nothing: any row error writes nothing and lists every error by row', async () => {
    const oo = unique('ОО Кадры ');
    const school = unique('Школа кадров ');
    const other = await signedIn(t.app, ['expert']);
    const csv = [
      'ОО,Школа,Роль,Фамилия,Имя,Отчество,E-mail,Логин,Должность,Внешний id',
      `${oo},${school},организатор,Верный,Вадим,,,vadim_${school.length},,`,
      `${oo},${school},директор,Ошибкин,Олег,,,,,`,
      `${oo},${school},организатор,Почтин,Павел,,not-an-email,,,`,
      `${oo},${school},работник,Логинов,Лев,,,lev,,`,
      `${oo},${school},организатор,Занятой,Зиновий,,,${other.user.login},,`,
      `${oo},${school},организатор,Безлогинов,Борис,,,,,`,
      `${oo},${school},организатор,Верный,Вадим,,,vadim_${school.length},,`,
      `${oo},${school},организатор,,Имя,,,,,`,
    ].join('\n');
    const res = await imported('bad.csv', csv);
    expect(res.errors.map((e) => [e.row, e.column, e.code])).toEqual([
      [3, 'role', 'invalid_role'],
      [4, 'email', 'invalid_email'],
      [5, 'login', 'login_for_worker'],
      [6, 'login', 'login_taken'],
      [7, 'login', 'required'],
      [8, 'login', 'duplicate_row'],
      [9, 'surname', 'required'],
    ]);
    // The counts say what the good row would do; nothing was written.
    expect(res.created).toEqual(counts({ oo: 1, schools: 1, users: 1, organizators: 1 }));
    expect(await countRows(t.database, 'schools', `name = '${school}'`)).toBe(0);
    expect(await countRows(t.database, 'users', `login = 'vadim_${school.length}'`)).toBe(0);
  });

  it('400 with a code for a file it cannot read, and nothing changed', async () => {
    const workers = await countRows(t.database, 'workers');
    const bad = await upload('staff.pdf', '%PDF-1.4');
    expect([bad.statusCode, bad.json().code]).toEqual([400, 'unsupported_format']);
    const missing = await upload('s.csv', 'oo,school,surname,name\nО,Ш,Ф,И\n');
    expect([missing.statusCode, missing.json().code]).toEqual([400, 'validation_failed']);
    expect(missing.json().errors.map((e: { path: string }) => e.path)).toEqual(['header.role']);
    const dryRun = await upload('s.csv', staffCsv('О', 'Ш', 'z'), { dryRun: 'maybe' });
    expect([dryRun.statusCode, dryRun.json().code]).toEqual([400, 'validation_failed']);
    const empty = await t.app.inject({
      method: 'POST',
      url: '/api/admin/roster/staff/import',
      headers: { ...admin.headers, 'content-type': 'multipart/form-data; boundary=x' },
      payload: '--x--\r\n',
    });
    expect(empty.statusCode).toBe(400);
    expect(await countRows(t.database, 'workers')).toBe(workers);
  });

  it('reads an xlsx with Russian headers in another order, a formula cell by its cached value', async () => {
    const oo = unique('ОО Кадры ');
    const school = unique('Школа кадров ');
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Лист1');
    ws.addRow(['Фамилия', 'Имя', 'Роль', 'Школа', 'ОО', 'Внешний id', 'Должность']);
    ws.addRow(['Кузьмин', 'Карп', 'Работник', school, oo, 'K-1', 'Охранник']);
    ws.addRow(['Лосева', 'Лиза', 'работник', school, oo, { formula: '"K-"&2', result: 'K-2' }, '']);
    const data = Buffer.from(await wb.xlsx.writeBuffer());
    const res = await imported('staff.xlsx', data);
    expect(res).toMatchObject({ created: counts({ oo: 1, schools: 1, workers: 2 }), errors: [] });
    expect((await staffOf(school)).map((s) => [s.surname, s.externalId, s.position])).toEqual([
      ['Кузьмин', 'K-1', 'Охранник'],
      ['Лосева', 'K-2', null],
    ]);
  });
});

describe('coordinator', () => {
  let staff: SchoolWithStaff;
  let schoolName: string;
  beforeAll(async () => {
    schoolName = unique('Школа координатора ');
    staff = await createSchoolWithStaff(t.app, schoolName);
  });

  it('imports organizators and workers of their own school only', async () => {
    const headers = staff.coordinator.session.headers;
    const oo = `ОО ${schoolName}`;
    const tag = unique('c').toLowerCase();
    const own = [
      'oo,school,role,surname,name,login,externalId',
      `${oo},${schoolName},организатор,Новикова,Нина,nina_${tag},`,
      `${oo},${schoolName},работник,Жуков,Жан,,J-${tag}`,
    ].join('\n');
    const ok = await imported('own.csv', own, { headers });
    expect(ok).toMatchObject({ created: counts({ users: 1, organizators: 1, workers: 1 }), errors: [] });
    const [nina] = await q(`select school_id as "schoolId" from users where login = $1`, [`nina_${tag}`]);
    expect(nina!.schoolId).toBe(staff.schoolId);

    const before = await countRows(t.database, 'users');
    const otherSchool = unique('Чужая школа ');
    const refused = await imported(
      'refused.csv',
      [
        'oo,school,role,surname,name,login',
        `${oo},${schoolName},координатор,Главный,Глеб,gleb_${tag}`,
        `${oo},${otherSchool},организатор,Чужой,Чеслав,ches_${tag}`,
        `${unique('ОО ')},${schoolName},работник,Иной,Игорь,`,
        // The school's coordinator is not an organizator the coordinator may take over.
        `${oo},${schoolName},организатор,Тестов,Тест,${staff.coordinator.user.login}`,
        `${oo},${schoolName},организатор,Годный,Гордей,gord_${tag}`,
      ].join('\n'),
      { headers },
    );
    expect(refused.errors.map((e) => [e.row, e.column, e.code])).toEqual([
      [2, 'role', 'role_not_allowed'],
      [3, 'school', 'school_out_of_scope'],
      [4, 'oo', 'school_out_of_scope'],
      [5, 'login', 'login_taken'],
    ]);
    expect(await countRows(t.database, 'users')).toBe(before);
    expect(await countRows(t.database, 'schools', `name = '${otherSchool}'`)).toBe(0);
    const [audit] = await q(
      `select details from audit_events where action = 'roster.staff_import' and user_id = $1`,
      [staff.coordinator.user.id],
    );
    expect(audit!.details).toMatchObject({ scope: { schoolId: staff.schoolId } });

    const template = await t.app.inject({ method: 'GET', url: '/api/admin/roster/staff/template', headers });
    expect(template.statusCode).toBe(200);
  });
});

describe('template', () => {
  it('gives an xlsx with the Russian header and an example row, and a csv that imports as is', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/admin/roster/staff/template',
      headers: admin.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain('staff-template.xlsx');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    expect((ws.getRow(1).values as unknown[]).slice(1)).toEqual([
      'ОО',
      'Школа',
      'Роль',
      'Фамилия',
      'Имя',
      'Отчество',
      'E-mail',
      'Логин',
      'Должность',
      'Внешний id',
    ]);
    expect(ws.getRow(2).getCell(3).value).toBe('организатор');
    expect((await imported('staff-template.xlsx', res.rawPayload, { dryRun: true })).errors).toEqual([]);

    const csv = await t.app.inject({
      method: 'GET',
      url: '/api/admin/roster/staff/template?format=csv',
      headers: admin.headers,
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body.startsWith('\uFEFFОО;Школа;Роль;Фамилия;Имя')).toBe(true);
    expect((await imported('t.csv', csv.rawPayload, { dryRun: true })).errors).toEqual([]);
    const bad = await t.app.inject({
      method: 'GET',
      url: '/api/admin/roster/staff/template?format=pdf',
      headers: admin.headers,
    });
    expect(bad.statusCode).toBe(400);
  });
});
