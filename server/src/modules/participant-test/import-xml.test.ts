import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  countRows,
  createDiagnosticFor,
  createSchoolWithStaff,
  createTestApp,
  guardResults,
  isoDate,
  signedIn,
  type SchoolWithStaff,
  type Session,
  type TestApp,
} from '../../../test/helpers.js';

let t: TestApp;
let a: SchoolWithStaff;
let b: SchoolWithStaff;
let admin: Session;
let code: string;
let subjectTestId: number;
let schoolCodeA: string;

const URL = '/api/ParticipantTest/participantTestImportFromXml';
const send = (session: Session, xml: string, type = 'application/xml') =>
  t.app.inject({
    method: 'POST',
    url: URL,
    headers: { ...session.headers, 'content-type': type },
    payload: xml,
  });
const counts = async () => [
  await countRows(t.database, 'participant_tests'),
  await countRows(t.database, 'students'),
  await countRows(t.database, 'audit_events'),
];

const row = (place: string, student: string, date = isoDate()) =>
  `<participantTest subjectTestId="${subjectTestId}" testDate="${date}" ${place}>${student}</participantTest>`;
const file = (...rows: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<participantTests diagnosticCode="${code}">\n${rows.join('\n')}\n</participantTests>`;

beforeAll(async () => {
  t = await createTestApp();
  a = await createSchoolWithStaff(t.app);
  b = await createSchoolWithStaff(t.app);
  admin = (await signedIn(t.app, ['admin'])).session;
  const d = await createDiagnosticFor(t.app, { schoolIds: [a.schoolId, b.schoolId] });
  subjectTestId = d.subjectTestId;
  const [diag] = await t.database.query<{ code: string }>('select code from diagnostics where id = $1', [
    d.diagnosticId,
  ]);
  code = diag!.code;
  const [school] = await t.database.query<{ code: string }>('select code from schools where id = $1', [
    a.schoolId,
  ]);
  schoolCodeA = school!.code;
});
afterAll(async () => t.close());

describe('POST /api/ParticipantTest/participantTestImportFromXml', () => {
  it('guards: 401, 403 role, 403 csrf', async () => {
    const guest = (await signedIn(t.app, ['guest'])).session;
    const xml = file(row(`classId="${a.classId}"`, '<student surname="А" name="Б"/>'));
    const r = await guardResults(
      t.app,
      { method: 'POST', url: URL, payload: { xml } },
      { allowed: a.coordinator.session, wrongRole: guest },
    );
    expect(r).toEqual({ anonymous: 401, wrongRole: 403, noCsrf: 'csrf' });
  });

  it('imports rows by classId or school code + class name, matching or creating students', async () => {
    const xml = file(
      row(`classId="${a.classId}"`, '<student surname="иванов" name="Иван"/>'),
      row(
        `schoolCode="${schoolCodeA}" className="8Б"`,
        '<student surname="Новикова" name="Ольга" patronymic="Игоревна" birthDate="2012-04-01"/>',
      ),
      row(`classId="${a.classId}"`, '<student surname="Иванов" name="Иван"/>'),
    );
    const [pts, studentsBefore] = await counts();
    const res = await send(a.coordinator.session, xml);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ created: 2, existing: 1, studentsCreated: 1 });
    expect(body.items[0]).toMatchObject({ row: 1, studentId: a.studentIds[0], created: true });
    expect(body.items[2]).toMatchObject({
      row: 3,
      participantTestId: body.items[0].participantTestId,
      created: false,
    });
    const [created] = await t.database.query<{ class_id: number; birth_date: string; patronymic: string }>(
      `select class_id, birth_date::text, patronymic from students where id = $1`,
      [body.items[1].studentId],
    );
    expect(created).toEqual({ class_id: a.otherClassId, birth_date: '2012-04-01', patronymic: 'Игоревна' });
    const [ptsAfter, studentsAfter] = await counts();
    expect([ptsAfter! - pts!, studentsAfter! - studentsBefore!]).toEqual([2, 1]);
    // Importing the same file again changes nothing but answers the same codes.
    const again = (await send(a.coordinator.session, xml, 'text/xml')).json();
    expect(again).toMatchObject({ created: 0, existing: 3, studentsCreated: 0 });
  });

  it('one bad row changes nothing and is reported by row and field', async () => {
    const before = await counts();
    const xml = file(
      row(`classId="${a.classId}"`, '<student surname="Первый" name="Хороший"/>'),
      row(`classId="${a.classId}"`, '<student surname="Второй" name="Плохой" birthDate="2012-02-31"/>'),
      row(`classId="${a.classId}"`, '<student surname="" name="Третий"/>', 'tomorrow'),
    );
    const res = await send(a.coordinator.session, xml);
    expect([res.statusCode, res.json().code]).toEqual([400, 'import_invalid']);
    const paths = res.json().errors.map((e: { path: string }) => e.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'participantTest[2].student.birthDate',
        'participantTest[3].testDate',
        'participantTest[3].student.surname',
      ]),
    );
    expect(paths.some((p: string) => p.startsWith('participantTest[1]'))).toBe(false);
    expect(await counts()).toEqual(before);

    // Rows that parse but do not fit the database are reported the same way.
    const semantic = file(
      row(`classId="${a.classId}"`, '<student surname="Четвёртый" name="Хороший"/>'),
      row(`classId="${a.classId}"`, '<student surname="Пятый" name="Далёкий"/>', isoDate(40)),
      row(`classId="${b.classId}"`, '<student surname="Шестой" name="Чужой"/>'),
      row(`schoolCode="NOPE" className="7А"`, '<student surname="Седьмой" name="Без школы"/>'),
    );
    const res2 = await send(a.coordinator.session, semantic);
    expect(res2.statusCode).toBe(400);
    expect(res2.json().errors.map((e: { path: string }) => e.path)).toEqual([
      'participantTest[2].testDate',
      'participantTest[3].classId',
      'participantTest[4].schoolCode',
    ]);
    expect(await counts()).toEqual(before);
    // The admin may import another school's rows.
    const other = file(row(`classId="${b.classId}"`, '<student surname="Шестой" name="Чужой"/>'));
    expect((await send(admin, other)).json()).toMatchObject({ created: 1, studentsCreated: 1 });
  });

  it('refuses DOCTYPE / entities (XXE, billion laughs), malformed XML and wrong roots, changing nothing', async () => {
    const before = await counts();
    const xxe =
      '<?xml version="1.0"?><!DOCTYPE p [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>' +
      file(row(`classId="${a.classId}"`, '<student surname="&xxe;" name="X"/>')).replace(/^<\?xml[^>]*>/, '');
    const res = await send(a.coordinator.session, xxe);
    expect([res.statusCode, res.json().code]).toEqual([400, 'xml_doctype_forbidden']);
    expect(res.body).not.toContain('root:');
    const laughs =
      '<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]><participantTests diagnosticCode="x">&lol2;</participantTests>';
    expect((await send(a.coordinator.session, laughs)).json().code).toBe('xml_doctype_forbidden');
    const cases: [string, string][] = [
      ['<participantTests diagnosticCode="x"><participantTest>', 'xml_malformed'],
      ['<other/>', 'xml_invalid'],
      [`<participantTests diagnosticCode="${code}"></participantTests>`, 'xml_invalid'],
      [
        file(row(`classId="${a.classId}"`, '<student surname="A" name="B"/>')).replace(code, 'NO-SUCH'),
        'import_invalid',
      ],
      ['<?xml version="1.0" encoding="windows-1251"?><participantTests/>', 'xml_encoding'],
      // A NUL in the file is no text (the body check of plugins/hygiene.ts).
      [file(row(`classId="${a.classId}"`, '<student surname="Ну\u0000ль" name="Б"/>')), 'invalid_text'],
      // Well-formed but 10,000 levels deep: refused by the parser's depth limit, not a 500.
      [
        `<participantTests diagnosticCode="${code}">${'<a>'.repeat(10_000)}${'</a>'.repeat(10_000)}</participantTests>`,
        'xml_malformed',
      ],
    ];
    for (const [xml, expected] of cases) {
      const r = await send(a.coordinator.session, xml);
      expect([xml.slice(0, 40), r.statusCode, r.json().code]).toEqual([xml.slice(0, 40), 400, expected]);
    }
    // Predefined entities are fine and decoded.
    const amp = file(row(`classId="${a.classId}"`, '<student surname="Д&apos;Артаньян" name="Шарль"/>'));
    const ok = await send(a.coordinator.session, amp);
    expect(ok.statusCode).toBe(200);
    const [s] = await t.database.query<{ surname: string }>('select surname from students where id = $1', [
      ok.json().items[0].studentId,
    ]);
    expect(s!.surname).toBe("Д'Артаньян");
    const [pts, studs] = await counts();
    expect([pts! - before[0]!, studs! - before[1]!]).toEqual([1, 1]);
    expect((await send(a.coordinator.session, 'x', 'application/pdf')).statusCode).toBe(415);
  });
});
