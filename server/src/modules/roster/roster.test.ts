import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RosterImportResult } from '@attesta/contract';
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
import { craftXlsx, deflatedZeros, sheetXml } from '../../../test/xlsx-craft.js';
import { uploadTo, type UploadOptions } from './test-support.js';

// The roster import (issue 13): students with their ОО, schools, buildings and classes from a file.

let t: TestApp;
let admin: Session;

beforeAll(async () => {
  t = await createTestApp();
  admin = (await signedIn(t.app, ['admin'])).session;
});
afterAll(async () => t.close());

const upload = (name: string, data: Buffer | string, options: UploadOptions = {}) =>
  uploadTo(t.app, '/api/admin/roster/import', admin.headers, name, data, options);

const imported = async (name: string, data: Buffer | string, options: Parameters<typeof upload>[2] = {}) => {
  const res = await upload(name, data, options);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as RosterImportResult;
};

const counts = (oo = 0, schools = 0, buildings = 0, classes = 0, students = 0) => ({
  oo,
  schools,
  buildings,
  classes,
  students,
});

const q = (sql: string, params: unknown[] = []) => t.database.query<Record<string, unknown>>(sql, params);

const studentsOf = (schoolName: string) =>
  q(
    `select s.surname, s.name, s.patronymic, s.birth_date::text as "birthDate", s.external_id as "externalId",
            c.name as "className", b.name as "building"
       from students s join schools sc on sc.id = s.school_id
       left join classes c on c.id = s.class_id left join buildings b on b.id = c.building_id
      where sc.name = $1 and s.deleted_at is null order by s.surname, s.name`,
    [schoolName],
  );

/** A csv with English headers for a fresh ОО and school. */
function englishCsv(oo: string, school: string) {
  return [
    'oo,school,building,grade,class,surname,name,patronymic,birthDate,externalId',
    `${oo},${school},Main,7,7А,Иванов,Иван,Иванович,2012-09-01,E1`,
    `${oo},${school},Main,7,А,Петрова,Мария,,01.02.2012,E2`,
    `${oo},${school},Annex,8,8 «Б»,Сидоров,Пётр,,,`,
  ].join('\n');
}

describe('access', () => {
  it('401 without a session, 403 without the CSRF header and for other roles', async () => {
    const csv = englishCsv('ОО', 'Школа');
    expect((await upload('r.csv', csv, { headers: {} })).statusCode).toBe(401);
    const noCsrf = await upload('r.csv', csv, { headers: { cookie: admin.cookie } });
    expect([noCsrf.statusCode, noCsrf.json().code]).toEqual([403, 'csrf']);
    for (const role of ['participant', 'expert', 'organizator'] as const) {
      const { session } = await signedIn(t.app, [role]);
      expect((await upload('r.csv', csv, { headers: session.headers })).statusCode).toBe(403);
      const template = await t.app.inject({
        method: 'GET',
        url: '/api/admin/roster/template',
        headers: session.headers,
      });
      expect(template.statusCode).toBe(403);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/roster/template' })).statusCode).toBe(401);
  });
});

describe('admin import', () => {
  it('creates ОО, school, buildings, classes and students from a comma csv; a re-import changes nothing', async () => {
    const oo = unique('ОО Тест ');
    const school = unique('Школа ');
    const csv = englishCsv(oo, school);
    const first = await imported('roster.csv', csv);
    expect(first).toEqual({
      dryRun: false,
      created: counts(1, 1, 2, 2, 3),
      updated: counts(),
      unchanged: 0,
      errors: [],
    });
    expect(await studentsOf(school)).toEqual([
      {
        surname: 'Иванов',
        name: 'Иван',
        patronymic: 'Иванович',
        birthDate: '2012-09-01',
        externalId: 'E1',
        className: '7 «А»',
        building: 'Main',
      },
      {
        surname: 'Петрова',
        name: 'Мария',
        patronymic: null,
        birthDate: '2012-02-01',
        externalId: 'E2',
        className: '7 «А»',
        building: 'Main',
      },
      {
        surname: 'Сидоров',
        name: 'Пётр',
        patronymic: null,
        birthDate: null,
        externalId: null,
        className: '8 «Б»',
        building: 'Annex',
      },
    ]);
    const again = await imported('roster.csv', csv);
    expect(again).toEqual({ dryRun: false, created: counts(), updated: counts(), unchanged: 3, errors: [] });
    // ОО and school names match case- and space-insensitively.
    const shouting = csv.replaceAll(oo, `  ${oo.toUpperCase()} `).replaceAll(school, school.toLowerCase());
    expect((await imported('roster.csv', shouting)).unchanged).toBe(3);
    expect(await countRows(t.database, 'oo', `name = '${oo}'`)).toBe(1);

    // Audited with counts, never row contents.
    const [event] = await q(
      `select details from audit_events where action = 'roster.import' order by id desc limit 1`,
    );
    const details = JSON.stringify(event!.details);
    expect(details).toContain('"unchanged":3');
    expect(details).not.toContain('Иванов');
  });

  it('reads a semicolon csv with a BOM and Russian headers in another order', async () => {
    const oo = unique('ОО ');
    const school = unique('Школа ');
    const csv =
      '\uFEFFФамилия;Имя;Отчество;ДАТА РОЖДЕНИЯ;Класс;Параллель;Школа;ОО;Здание;Внешний ID\r\n' +
      `Орлова;Анна;Сергеевна;15.03.2011;б;8;${school};${oo};;R-1\r\n` +
      `=1+1;Борис;;2011-01-31;8-Б;8;${school};${oo};;R-2\r\n`;
    const res = await imported('список.csv', csv);
    expect(res.created).toEqual(counts(1, 1, 0, 1, 2));
    const rows = await studentsOf(school);
    expect(rows.map((r) => [r.surname, r.className, r.birthDate, r.externalId, r.building])).toEqual([
      // A cell that looks like a formula is text: stored as it is, never evaluated.
      ['=1+1', '8 «Б»', '2011-01-31', 'R-2', null],
      ['Орлова', '8 «Б»', '2011-03-15', 'R-1', null],
    ]);
  });

  it('reads an xlsx: date and number cells, formula cells by their cached value', async () => {
    const oo = unique('ОО ');
    const school = unique('Школа ');
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Лист1');
    ws.addRow(['Школа', 'ОО', 'Параллель', 'Класс', 'Фамилия', 'Имя', 'Дата рождения', 'externalId']);
    ws.addRow([school, oo, 5, 'В', 'Кэшев', 'Иван', new Date(Date.UTC(2014, 4, 20)), 501]);
    const formulaRow = ws.addRow([school, oo, 5, 'В', null, 'Фёдор', '2014-06-01', 'F-2']);
    // A formula with a cached value: the value is read, the formula is never run.
    formulaRow.getCell(5).value = { formula: 'CONCAT("Вы","числено")', result: 'Кэшированный' };
    const data = Buffer.from(await wb.xlsx.writeBuffer());
    const res = await imported('roster.xlsx', data);
    expect(res).toMatchObject({ created: counts(1, 1, 0, 1, 2), errors: [] });
    const rows = await studentsOf(school);
    expect(rows.map((r) => [r.surname, r.className, r.birthDate, r.externalId])).toEqual([
      ['Кэшев', '5 «В»', '2014-05-20', '501'],
      ['Кэшированный', '5 «В»', '2014-06-01', 'F-2'],
    ]);

    // A formula without a cached value is an empty cell (required), not a computed one.
    const wb2 = new ExcelJS.Workbook();
    const ws2 = wb2.addWorksheet('Лист1');
    ws2.addRow(['oo', 'school', 'grade', 'class', 'surname', 'name']);
    ws2.addRow([oo, school, 5, 'В', { formula: '1+1' }, 'Ной']);
    const res2 = await imported('f.xlsx', Buffer.from(await wb2.xlsx.writeBuffer()));
    expect(res2.errors).toEqual([
      { row: 2, column: 'surname', code: 'required', message: expect.any(String) },
    ]);
  });

  it('a dry run writes nothing and counts what the import would do', async () => {
    const oo = unique('ОО ');
    const school = unique('Школа ');
    const res = await imported('roster.csv', englishCsv(oo, school), { dryRun: true });
    expect(res).toEqual({
      dryRun: true,
      created: counts(1, 1, 2, 2, 3),
      updated: counts(),
      unchanged: 0,
      errors: [],
    });
    expect(await countRows(t.database, 'oo', `name = '${oo}'`)).toBe(0);
    expect(await countRows(t.database, 'schools', `name = '${school}'`)).toBe(0);
    const real = await imported('roster.csv', englishCsv(oo, school), { dryRun: false });
    expect(real.created).toEqual(counts(1, 1, 2, 2, 3));
  });

  it('updates a changed student matched by external id and keeps the class move in history', async () => {
    const oo = unique('ОО ');
    const school = unique('Школа ');
    await imported('roster.csv', englishCsv(oo, school));
    const [before] = await q(
      `select id, class_id from students where external_id = 'E1' and surname = 'Иванов'
      and school_id = (select id from schools where name = $1)`,
      [school],
    );
    const moved = englishCsv(oo, school)
      .replace('Main,7,7А,Иванов,Иван,Иванович', 'Main,7,7В,Иванов,Иван,Ильич')
      .replace(',Петрова,Мария,,', ',Петрова,Мария,Олеговна,');
    const res = await imported('roster.csv', moved);
    expect(res).toEqual({
      dryRun: false,
      created: counts(0, 0, 0, 1, 0),
      updated: counts(0, 0, 0, 0, 2),
      unchanged: 1,
      errors: [],
    });
    const rows = await studentsOf(school);
    expect(rows.map((r) => [r.surname, r.patronymic, r.className])).toEqual([
      ['Иванов', 'Ильич', '7 «В»'],
      ['Петрова', 'Олеговна', '7 «А»'],
      ['Сидоров', null, '8 «Б»'],
    ]);
    const history = await q(
      `select h.from_class_id as "from", h.to_class_id as "to", h.changed_by as "by", c.name as "toName"
         from student_class_history h join classes c on c.id = h.to_class_id where h.student_id = $1`,
      [before!.id],
    );
    expect(history).toEqual([
      { from: before!.class_id, to: expect.any(Number), by: expect.any(Number), toName: '7 «В»' },
    ]);
    expect((await imported('roster.csv', moved)).unchanged).toBe(3);
  });

  it('a class takes the building of the first row that names one', async () => {
    const oo = unique('ОО ');
    const school = unique('Школа ');
    const rows = (first: string, second: string) =>
      [
        'oo,school,building,grade,class,surname,name',
        `${oo},${school},${first},9,А,Первый,Ученик`,
        `${oo},${school},${second},9,А,Второй,Ученик`,
      ].join('\n');
    const created = await imported('b.csv', rows('', 'Корпус 1'));
    expect([created.created, created.updated]).toEqual([counts(1, 1, 1, 1, 2), counts()]);
    expect((await studentsOf(school)).map((r) => r.building)).toEqual(['Корпус 1', 'Корпус 1']);
    const moved = await imported('b.csv', rows('Корпус 2', 'Корпус 1'));
    expect(moved).toMatchObject({
      created: counts(0, 0, 1, 0, 0),
      updated: counts(0, 0, 0, 1, 0),
      unchanged: 2,
    });
    expect((await studentsOf(school)).map((r) => r.building)).toEqual(['Корпус 2', 'Корпус 2']);
  });

  it('two imports of one file at once create each student once', async () => {
    const csv = englishCsv(unique('ОО '), unique('Школа '));
    const [a, b] = await Promise.all([imported('r.csv', csv), imported('r.csv', csv)]);
    expect(a.created.students + b.created.students).toBe(3);
    expect(a.unchanged + b.unchanged).toBe(3);
  });

  it('all or nothing: every row error listed with its row and column, nothing written', async () => {
    const oo = unique('ОО ');
    const school = unique('Школа ');
    const csv = [
      'oo;school;grade;class;surname;name;birthDate;externalId',
      `${oo};${school};7;7А;Годный;Ученик;;X1`,
      `${oo};${school};12;А;Плохой;Класс;;`,
      `${oo};${school};7;8А;Чужой;Класс;;`,
      `${oo};${school};7;А;;Безфамильный;;`,
      `${oo};${school};7;А;Датов;Дат;31.02.2012;`,
      `${oo};${school};7;А;${'Я'.repeat(101)};Длинный;;`,
      `${oo};${school};7;А;Повтор;Ученик;;X1`,
      `${oo};${school};7;А;Дважды;Ученик;;`,
      `${oo};${school};7;7 А;дважды;ученик;;`,
      `${oo};${school};7;7;Безбуквенный;Ученик;;`,
    ].join('\n');
    const res = await imported('bad.csv', csv);
    expect(res.errors.map((e) => [e.row, e.column, e.code])).toEqual([
      [3, 'grade', 'invalid_grade'],
      [4, 'class', 'class_grade_mismatch'],
      [5, 'surname', 'required'],
      [6, 'birthDate', 'invalid_date'],
      [7, 'surname', 'too_long'],
      [8, 'externalId', 'duplicate_row'],
      [10, 'surname', 'duplicate_row'],
      [11, 'class', 'invalid_class'],
    ]);
    expect(res.errors.every((e) => typeof e.message === 'string' && e.message.length > 0)).toBe(true);
    // What the rows without errors would have done.
    expect(res.created).toEqual(counts(1, 1, 0, 1, 2));
    expect(await countRows(t.database, 'oo', `name = '${oo}'`)).toBe(0);
    expect(await countRows(t.database, 'students', `surname = 'Годный'`)).toBe(0);
  });
});

describe('row numbers', () => {
  it('are the spreadsheet rows: blank lines count, a quoted cell over two lines is one row', async () => {
    const oo = unique('ОО ');
    const school = unique('Школа ');
    const csv = [
      'oo,school,grade,class,surname,name',
      '',
      `${oo},${school},7,А,"Двух",Строчный`,
      `${oo},${school},7,А,"Двух`,
      `строчный",13`,
      `${oo},${school},99,А,Ошибочный,Ученик`,
    ].join('\r\n');
    const res = await imported('rows.csv', csv);
    expect(res.errors.map((e) => [e.row, e.code])).toEqual([[5, 'invalid_grade']]);

    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Лист1');
    ws.getRow(2).values = ['oo', 'school', 'grade', 'class', 'surname', 'name'];
    ws.getRow(5).values = [oo, school, 7, 'А', 'Годный', 'Ученик'];
    ws.getRow(9).values = [oo, school, 7, 'Ж7', '', 'Безфамильный'];
    const xlsx = await imported('rows.xlsx', Buffer.from(await wb.xlsx.writeBuffer()));
    expect(xlsx.errors.map((e) => [e.row, e.column, e.code])).toEqual([[9, 'surname', 'required']]);
  });
});

describe('file errors', () => {
  it('400 invalid_text for a NUL in a cell (csv or xlsx), naming its row and column; nothing written', async () => {
    const before = await countRows(t.database, 'students');
    const school = unique('Школа ');
    const csv = englishCsv(unique('ОО '), school).replace('Иванов,', 'Ива\u0000нов,');
    for (const dryRun of [true, false]) {
      const res = await upload('roster.csv', csv, { dryRun });
      expect([res.statusCode, res.json().code], res.body).toEqual([400, 'invalid_text']);
      expect(res.json().errors).toEqual([
        expect.objectContaining({ path: 'file.row2.col6', params: { row: 2, column: 6 } }),
      ]);
    }
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Контингент');
    ws.addRow(['oo', 'school', 'grade', 'class', 'surname', 'name']);
    ws.addRow([unique('ОО '), school, 7, 'А', 'Петров', 'Пётр']);
    // A spreadsheet writes a NUL as the escape _x0000_, which reads back as the character.
    ws.addRow([unique('ОО '), school, 7, 'А', 'Сидоров', 'Сид_x0000_ор']);
    const xlsx = Buffer.from(await wb.xlsx.writeBuffer());
    const fromXlsx = await upload('roster.xlsx', xlsx);
    expect([fromXlsx.statusCode, fromXlsx.json().code], fromXlsx.body).toEqual([400, 'invalid_text']);
    expect(fromXlsx.json().errors).toEqual([expect.objectContaining({ path: 'file.row3.col6' })]);
    expect(await countRows(t.database, 'students')).toBe(before);
    expect(await countRows(t.database, 'schools', `name = '${school}'`)).toBe(0);
  });

  it('400 unsupported_format, validation_failed naming the missing columns, too_many_rows; 413 over 5 MB', async () => {
    const pdf = await upload('roster.pdf', '%PDF-1.4 not a roster');
    expect([pdf.statusCode, pdf.json().code]).toEqual([400, 'unsupported_format']);
    const badZip = await upload('roster.xlsx', Buffer.from('PK\u0003\u0004broken', 'latin1'));
    expect([badZip.statusCode, badZip.json().code]).toEqual([400, 'unsupported_format']);
    const latin1 = await upload('roster.csv', Buffer.from('oo;school\nÉcole;\xe9\n', 'latin1'));
    expect([latin1.statusCode, latin1.json().code]).toEqual([400, 'unsupported_format']);

    const maybe = await upload('roster.csv', englishCsv('ОО', 'Школа'), { dryRun: 'maybe' });
    expect([maybe.statusCode, maybe.json().code]).toEqual([400, 'validation_failed']);

    const header = await upload('roster.csv', 'ОО;школа;фамилия;имя\nА;Б;В;Г\n');
    expect([header.statusCode, header.json().code]).toEqual([400, 'validation_failed']);
    expect(header.json().errors.map((e: { path: string }) => e.path)).toEqual([
      'header.grade',
      'header.class',
    ]);

    const line = 'ОО;Школа;7;А;Фамилия;Имя\n';
    const many = await upload('many.csv', 'oo;school;grade;class;surname;name\n' + line.repeat(20_001));
    expect([many.statusCode, many.json().code]).toEqual([400, 'too_many_rows']);

    const huge = await upload('huge.csv', 'oo;school;grade;class;surname;name\n' + line.repeat(200_000));
    expect(huge.statusCode).toBe(413);
    expect(await countRows(t.database, 'students', `surname = 'Фамилия'`)).toBe(0);
  });
});

describe('a hostile workbook (issue 23 item 8)', () => {
  const HEADER = ['oo', 'school', 'grade', 'class', 'surname', 'name'];

  it('400 package_too_large for an xlsx whose zip claims 1 KB and inflates to 256 MB; nothing written', async () => {
    const before = await countRows(t.database, 'students');
    const bomb = craftXlsx({ deflated: await deflatedZeros(256 * 1024 * 1024), declaredSize: 1024 });
    expect(bomb.length).toBeLessThan(5 * 1024 * 1024);
    const res = await upload('roster.xlsx', bomb);
    expect([res.statusCode, res.json().code]).toEqual([400, 'package_too_large']);
    expect(await countRows(t.database, 'students')).toBe(before);
  });

  it('400 too_many_rows for a sheet of 50,001 rows, counted before exceljs reads it', async () => {
    const rows = (n: number) => ['ОО', 'Школа', '7', 'А', `Фамилия${n}`, 'Имя'];
    const full = await upload('many.xlsx', craftXlsx({ data: sheetXml(HEADER, 50_000, rows) }));
    expect([full.statusCode, full.json().code]).toEqual([400, 'too_many_rows']);
    // Rows without values, which exceljs would still parse, count too.
    const blank = Buffer.from(
      sheetXml(HEADER, 0, rows)
        .toString()
        .replace(
          '</sheetData>',
          Array.from({ length: 50_000 }, (_, i) => `<row r="${i + 2}"/>`).join('') + '</sheetData>',
        ),
    );
    const empty = await upload('blank.xlsx', craftXlsx({ data: blank }));
    expect([empty.statusCode, empty.json().code]).toEqual([400, 'too_many_rows']);
  });

  it('a hand-built workbook within the limits still imports', async () => {
    const school = unique('Школа книги ');
    const data = craftXlsx({
      data: sheetXml(HEADER, 2, (n) => ['ОО книги', school, '7', 'А', `Книгин${n}`, 'Имя']),
    });
    const res = await imported('book.xlsx', data);
    expect(res.errors).toEqual([]);
    expect(await countRows(t.database, 'students', `surname like 'Книгин%'`)).toBe(2);
  });
});

describe('coordinator', () => {
  let staff: SchoolWithStaff;
  let schoolName: string;
  beforeAll(async () => {
    schoolName = unique('Школа координатора ');
    staff = await createSchoolWithStaff(t.app, schoolName);
  });

  it('imports into their own school, never another or a new one', async () => {
    const own = (school: string, oo = `ОО ${schoolName}`) =>
      `oo,school,grade,class,surname,name\n${oo},${school},7,А,Новиков,Никита\n${oo},${school},7,А,Иванов,Иван\n`;
    const headers = staff.coordinator.session.headers;
    // createOrg's student Иванов Иван of 7 «А» is matched, Новиков is new.
    const ok = await imported('own.csv', own(schoolName), { headers });
    expect(ok).toMatchObject({ created: counts(0, 0, 0, 0, 1), unchanged: 1, errors: [] });
    expect(
      await countRows(t.database, 'students', `school_id = ${staff.schoolId} and surname = 'Новиков'`),
    ).toBe(1);

    const other = unique('Чужая школа ');
    const theirs = await imported('other.csv', own(other), { headers });
    expect(theirs.errors.map((e) => [e.row, e.column, e.code])).toEqual([
      [2, 'school', 'school_out_of_scope'],
      [3, 'school', 'school_out_of_scope'],
    ]);
    expect(theirs.created).toEqual(counts());
    const newOo = await imported('oo.csv', own(schoolName, unique('ОО ')), { headers });
    expect(newOo.errors.map((e) => [e.column, e.code])).toEqual([
      ['oo', 'school_out_of_scope'],
      ['oo', 'school_out_of_scope'],
    ]);
    expect(await countRows(t.database, 'schools', `name = '${other}'`)).toBe(0);

    const template = await t.app.inject({ method: 'GET', url: '/api/admin/roster/template', headers });
    expect(template.statusCode).toBe(200);
  });
});

describe('template', () => {
  it('gives an xlsx with the Russian header and an example row, and a csv that imports as is', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/admin/roster/template',
      headers: admin.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain('roster-template.xlsx');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    expect((ws.getRow(1).values as unknown[]).slice(1)).toEqual([
      'ОО',
      'Школа',
      'Здание',
      'Параллель',
      'Класс',
      'Фамилия',
      'Имя',
      'Отчество',
      'Дата рождения',
      'Внешний id',
    ]);
    expect(ws.getRow(2).getCell(6).value).toBe('Иванов');
    const dry = await imported('roster-template.xlsx', res.rawPayload, { dryRun: true });
    expect(dry.errors).toEqual([]);

    const csv = await t.app.inject({
      method: 'GET',
      url: '/api/admin/roster/template?format=csv',
      headers: admin.headers,
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.body.startsWith('\uFEFFОО;Школа;Здание;Параллель;Класс')).toBe(true);
    expect((await imported('t.csv', csv.rawPayload, { dryRun: true })).errors).toEqual([]);
  });
});
