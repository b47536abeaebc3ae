import AdmZip from 'adm-zip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { queueItems, subjects } from '../../db/schema/index.js';
import { createTestApp, signedIn, type Session, type TestApp } from '../../../test/helpers.js';
import { multipartBody, type Part } from '../files/test-support.js';
import { note } from './notes.js';
import { registerParser } from './parsers/index.js';
import { unsupportedFormat, type ParsedBatch, type ParsedItem } from './parsers/types.js';
import { fakeMoodleParser, fakeQtiParser, MANIFEST, PNG, rawZip } from './test-support.js';

let t: TestApp;
let admin: { id: number; session: Session };
let coordinator: Session;
const restore: (() => void)[] = [];

const URL = '/api/admin/content/import';
const upload = (session: Session | null, parts: Part[], headers?: Record<string, string>) => {
  const body = multipartBody(parts);
  return t.app.inject({
    method: 'POST',
    url: URL,
    headers: { ...(headers ?? session?.headers ?? {}), 'content-type': body.contentType },
    payload: body.payload,
  });
};
const status = (id: number, session: Session | null = admin.session) =>
  t.app.inject({ method: 'GET', url: `${URL}/${id}`, headers: session?.headers ?? {} });
const count = async (table: string, where = 'true') =>
  (await t.database.query<{ n: number }>(`select count(*)::int as n from ${table} where ${where}`))[0]!.n;
/** Everything an import may create: tasks, task files, subject tests, variants, stored uploads. */
const created = async () => ({
  tasks: await count('tasks'),
  taskFiles: await count('files', `owner_type = 'task'`),
  uploads: await count('files', `owner_type = 'content_import'`),
  subjectTests: await count('subject_tests'),
  variants: await count('variants'),
  subjects: await count('subjects'),
});

const item = (sourceId: string, extra: Partial<ParsedItem> = {}): ParsedItem => ({
  sourceId,
  title: `Вопрос ${sourceId}`,
  category: ['Алгебра', 'Уравнения'],
  outcome: 'imported',
  notes: [],
  media: [],
  task: {
    answerType: 'single_choice',
    html: `<p>Сколько будет 2+2? (${sourceId})</p>`,
    content: {
      options: [
        { id: 'a', html: '3' },
        { id: 'b', html: '4' },
      ],
    },
    reference: { correct: 'b' },
    scoring: { method: 'all_or_nothing' },
    maxScore: 1,
  },
  ...extra,
});

/** A package for the fake QTI parser: its manifest, batch.json and the given extra files. */
const qtiPackage = (batch: ParsedBatch, files: { name: string; data: Buffer }[] = [], manifest = MANIFEST) =>
  rawZip([
    { name: 'imsmanifest.xml', data: Buffer.from(manifest) },
    {
      name: 'batch.json',
      data: Buffer.from(
        JSON.stringify(batch, (_k, v: unknown) =>
          v && typeof v === 'object' && (v as { type?: string }).type === 'Buffer'
            ? Buffer.from((v as { data: number[] }).data).toString('base64')
            : v,
        ),
      ),
    },
    ...files,
  ]);
const filePart = (filename: string, data: Buffer): Part => ({ name: 'file', filename, data });

/** Uploads, expects 202, runs the queue, returns the import's state. */
async function importFile(parts: Part[]) {
  const res = await upload(admin.session, parts);
  expect(res.statusCode, res.body).toBe(202);
  const { importId } = res.json() as { importId: number };
  await t.app.jobs.drain();
  const state = await status(importId);
  expect(state.statusCode).toBe(200);
  return { importId, state: state.json() as Record<string, unknown> };
}

beforeAll(async () => {
  t = await createTestApp();
  const a = await signedIn(t.app, ['admin']);
  admin = { id: a.user.id, session: a.session };
  coordinator = (await signedIn(t.app, ['coordinator'])).session;
  restore.push(registerParser('qti', fakeQtiParser), registerParser('moodle', fakeMoodleParser));
});

afterAll(async () => {
  restore.forEach((r) => r());
  await t?.close();
});

describe('content import calls: access and input', () => {
  it('401 without a session, 403 for other roles, 403 csrf without the header', async () => {
    const parts = [filePart('a.gift', Buffer.from('::q:: x {=y}'))];
    expect((await upload(null, parts)).statusCode).toBe(401);
    expect((await upload(coordinator, parts)).statusCode).toBe(403);
    const noCsrf = await upload(admin.session, parts, { cookie: admin.session.cookie });
    expect([noCsrf.statusCode, noCsrf.json().code]).toEqual([403, 'csrf']);
    expect((await status(1, null)).statusCode).toBe(401);
    expect((await status(1, coordinator)).statusCode).toBe(403);
    const exportUrl = '/api/admin/content/subjectTests/1/export?format=qti3';
    expect((await t.app.inject({ method: 'GET', url: exportUrl })).statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: 'GET', url: exportUrl, headers: coordinator.headers })).statusCode,
    ).toBe(403);
    expect(await count('queue_items', `type = 'import'`)).toBe(0);
  });

  it('400 for no file, a bad subjectId, unknown fields; 404 unknown subject; 415 other files; nothing queued', async () => {
    const gift = filePart('a.gift', Buffer.from('::q:: x {=y}'));
    const cases: [Part[], number, string][] = [
      [[{ name: 'subjectId', value: '1' }], 400, 'no_file'],
      [[{ name: 'subjectId', value: 'abc' }, gift], 400, 'validation_failed'],
      [[{ name: 'color', value: 'red' }, gift], 400, 'validation_failed'],
      [[{ name: 'subjectId', value: '999999' }, gift], 404, 'not_found'],
      [[filePart('a.exe', Buffer.from('MZ'))], 415, 'unsupported_format'],
      [[filePart('fake.zip', Buffer.from('not a zip at all'))], 415, 'unsupported_format'],
      [[filePart('empty.gift', Buffer.alloc(0))], 400, 'no_file'],
      [[gift, filePart('b.gift', Buffer.from('x'))], 400, 'too_many_files'],
    ];
    for (const [parts, code, errorCode] of cases) {
      const res = await upload(admin.session, parts);
      expect([res.statusCode, res.json().code]).toEqual([code, errorCode]);
    }
    const notMultipart = await t.app.inject({
      method: 'POST',
      url: URL,
      headers: { ...admin.session.headers, 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(notMultipart.statusCode).toBe(415);
    expect((await status(0)).statusCode).toBe(400);
    expect((await status(999999)).statusCode).toBe(404);
    expect(await count('queue_items', `type = 'import'`)).toBe(0);
    expect(await count('files', `owner_type = 'content_import'`)).toBe(0);
  });

  it('413 for a file over 50 MB, answered without storing anything', async () => {
    const res = await upload(admin.session, [filePart('big.zip', Buffer.alloc(50 * 1024 * 1024 + 10, 1))]);
    expect([res.statusCode, res.json().code]).toEqual([413, 'payload_too_large']);
    expect(await count('queue_items', `type = 'import'`)).toBe(0);
  });

  it('a queue item of another type is not an import (404)', async () => {
    const [other] = await t.app.ctx.db.insert(queueItems).values({ type: 'report' }).returning();
    expect((await status(other!.id)).statusCode).toBe(404);
  });
});

describe('content import: the job', () => {
  it('202, queued, then done: the report, the tasks with media and category, a draft subject test', async () => {
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 4"><script>alert(1)</script><rect width="4" height="4"/></svg>';
    const batch: ParsedBatch = {
      format: 'qti22',
      items: [
        item('q1', {
          task: {
            answerType: 'single_choice',
            html: '<p onclick="x()">Рисунок: <img src="images/a.png" alt="a"><script>alert(1)</script></p>',
            content: {
              options: [
                { id: 'a', html: '<img src="images/b.svg">' },
                { id: 'b', html: 'четыре' },
              ],
            },
            reference: { correct: 'b' },
            scoring: { method: 'all_or_nothing' },
            maxScore: 1,
            solutionHtml: '<p>См. <a href="docs/s.png">решение</a></p>',
          },
          media: [
            { ref: 'images/a.png', path: 'images/a.png' },
            { ref: 'images/b.svg', path: 'images/b.svg' },
            { ref: 'docs/s.png', bytes: PNG, name: 's.png' },
            { ref: 'missing.png', path: 'missing.png' },
          ],
        }),
        item('q2', { outcome: 'converted', notes: [note('feedback_dropped'), 'a bare string' as never] }),
        item('q3', {
          task: {
            answerType: 'single_choice',
            html: '<p>Broken key</p>',
            content: {
              options: [
                { id: 'a', html: '1' },
                { id: 'b', html: '2' },
              ],
            },
            reference: { correct: 'z' },
            scoring: { method: 'all_or_nothing' },
            maxScore: 1,
          },
        }),
        {
          sourceId: 'q4',
          title: 'Hotspot',
          outcome: 'refused',
          notes: [note('interaction_unsupported', { name: 'hotspotInteraction' })],
          media: [],
        },
      ],
      tests: [
        {
          sourceId: 'T1',
          title: 'Контрольная',
          sections: [
            { title: 'A', itemKeys: ['q2', 'q1'] },
            { title: 'B', itemKeys: ['q3', 'q4', 'nope', 'q1'] },
          ],
        },
      ],
    };
    const before = await created();
    const res = await upload(admin.session, [
      filePart(
        'pack.zip',
        qtiPackage(batch, [
          { name: 'images/a.png', data: PNG },
          { name: 'images/b.svg', data: Buffer.from(svg) },
        ]),
      ),
    ]);
    expect(res.statusCode, res.body).toBe(202);
    const { importId } = res.json() as { importId: number };
    expect(Object.keys(res.json())).toEqual(['importId']);
    expect((await status(importId)).json()).toEqual({ status: 'queued', items: [], subjectTestIds: [] });
    // The queue pages show it.
    const listed = await t.app.inject({
      method: 'POST',
      url: '/api/ParticipantTest/queuelist',
      headers: admin.session.headers,
      payload: { filter: { type: 'import' } },
    });
    expect((listed.json() as { items: { id: number }[] }).items.map((i) => i.id)).toContain(importId);

    await t.app.jobs.drain();
    const body = (await status(importId)).json() as {
      status: string;
      items: {
        sourceId: string;
        taskId: number | null;
        answerType: string | null;
        outcome: string;
        notes: string[];
        noteCodes: { code: string; params?: Record<string, string | number> }[];
      }[];
      subjectTestIds: number[];
    };
    expect(Object.keys(body).sort()).toEqual(['items', 'status', 'subjectTestIds']);
    expect(body.status).toBe('done');
    for (const i of body.items)
      expect(Object.keys(i).sort()).toEqual([
        'answerType',
        'noteCodes',
        'notes',
        'outcome',
        'sourceId',
        'taskId',
        'title',
      ]);
    const [q1, q2, q3, q4] = body.items;
    expect(q1).toMatchObject({
      sourceId: 'q1',
      title: 'Вопрос q1',
      answerType: 'single_choice',
      outcome: 'converted',
    });
    // Each note twice: its English text (notes) and its code with params (noteCodes), in one order.
    expect(q1!.notes).toEqual(['media left out: missing.png: not found in the package']);
    expect(q1!.noteCodes).toEqual([{ code: 'media_missing', params: { ref: 'missing.png' } }]);
    expect(q2).toMatchObject({
      outcome: 'converted',
      notes: ['feedback to participants dropped (Attesta shows no answer feedback)', 'a bare string'],
      // A parser's note without a code is kept by its text.
      noteCodes: [{ code: 'feedback_dropped' }, { code: 'unclassified', params: { text: 'a bare string' } }],
      answerType: 'single_choice',
    });
    expect(q3).toMatchObject({ outcome: 'refused', taskId: null, answerType: null });
    // A schema issue in the author's words (issue 27): the key names a choice the question lacks.
    expect(q3!.notes[0]).toMatch(/^the correct answer does not fit the question/);
    expect(q3!.noteCodes[0]).toEqual({ code: 'task_key_wrong' });
    expect(q4).toEqual({
      sourceId: 'q4',
      title: 'Hotspot',
      taskId: null,
      answerType: null,
      outcome: 'refused',
      notes: ['unsupported interaction: hotspotInteraction'],
      noteCodes: [{ code: 'interaction_unsupported', params: { name: 'hotspotInteraction' } }],
    });
    expect(body.subjectTestIds).toHaveLength(1);

    // The tasks: subject named after the common top category, the rest of the path as category.
    const tasks = await t.database.query<{
      id: number;
      html: string;
      content: { options: { html: string }[] };
      solution_html: string;
      subject_id: number;
      category: string;
      title: string;
      source_id: string;
      source_format: string;
      created_by: number;
    }>(`select * from tasks where id = ${q1!.taskId}`);
    const task = tasks[0]!;
    const [subject] = await t.app.ctx.db.select().from(subjects).where(eq(subjects.id, task.subject_id));
    expect(subject!.name).toBe('Алгебра');
    expect(task).toMatchObject({
      category: 'Уравнения',
      title: 'Вопрос q1',
      source_id: 'q1',
      source_format: 'qti22',
      created_by: admin.id,
    });
    // Media stored as the task's files, references rewritten, html sanitised.
    const media = await t.database.query<{
      id: number;
      name: string;
      mime: string;
      size: number;
      storage_key: string | null;
    }>(
      `select id, name, mime, size::int as size, storage_key from files where owner_type = 'task' and owner_id = ${task.id} order by id`,
    );
    const bytesOf = async (m: (typeof media)[number]) =>
      (await t.app.ctx.files.read(t.app.ctx.db, { id: m.id, size: m.size, storageKey: m.storage_key }))!;
    expect(media.map((m) => [m.name, m.mime])).toEqual([
      ['a.png', 'image/png'],
      ['b.svg', 'image/svg+xml'],
      ['s.png', 'image/png'],
    ]);
    expect(task.html).toBe(`<p>Рисунок: <img src="/api/files/${media[0]!.id}" alt="a" /></p>`);
    expect(task.content.options[0]!.html).toBe(`<img src="/api/files/${media[1]!.id}" />`);
    expect(task.solution_html).toContain(`href="/api/files/${media[2]!.id}"`);
    expect((await bytesOf(media[1]!)).toString()).not.toContain('script');

    // The subject test: a draft of the subject's diagnostic exam, one variant, items in order, once each.
    const [test] = await t.database.query<{ status: string; name: string; source_id: string; kind: string }>(
      `select st.status, st.name, st.source_id, se.kind from subject_tests st
         join subject_exams se on se.id = st.subject_exam_id where st.id = ${body.subjectTestIds[0]}`,
    );
    expect(test).toEqual({ status: 'draft', name: 'Контрольная', source_id: 'T1', kind: 'diagnostic' });
    const order = await t.database.query<{ task_id: number }>(
      `select vt.task_id from variant_tasks vt join variants v on v.id = vt.variant_id
         where v.subject_test_id = ${body.subjectTestIds[0]} order by vt.position`,
    );
    expect(order.map((r) => r.task_id)).toEqual([q2!.taskId, q1!.taskId]);

    const after = await created();
    expect(after.tasks - before.tasks).toBe(2);
    expect(after.uploads).toBe(before.uploads); // the upload is gone once imported
    const audited = await t.database.query<{ action: string }>(
      `select action from audit_events where entity = 'queue_item' and entity_id = '${importId}' order by id`,
    );
    expect(audited.map((a) => a.action)).toEqual(['content.import.queued', 'content.import']);
  });

  it('two resources with one identifier are two tasks with that source id, each in the test (issue 27)', async () => {
    const batch: ParsedBatch = {
      format: 'qti22',
      items: [
        {
          ...item('same'),
          key: 'items/a.xml',
          file: 'items/a.xml',
          outcome: 'refused',
          notes: [note('qti_no_body')],
        },
        { ...item('same'), key: 'items/b.xml', file: 'items/b.xml' },
        { ...item('same'), key: 'items/c.xml', file: 'items/c.xml' },
      ],
      tests: [
        {
          sourceId: 'T',
          title: 'T',
          sections: [{ itemKeys: ['items/c.xml', 'items/a.xml', 'items/b.xml'] }],
        },
      ],
    };
    const { state } = await importFile([filePart('same.zip', qtiPackage(batch))]);
    const items = state.items as {
      sourceId: string;
      file?: string;
      taskId: number | null;
      outcome: string;
    }[];
    expect(items.map((i) => [i.sourceId, i.file, i.outcome])).toEqual([
      ['same', 'items/a.xml', 'refused'],
      ['same', 'items/b.xml', 'imported'],
      ['same', 'items/c.xml', 'imported'],
    ]);
    const [, b, c] = items;
    const rows = await t.database.query<{ id: number; source_id: string }>(
      `select id, source_id from tasks where id in (${b!.taskId}, ${c!.taskId}) order by id`,
    );
    expect(rows.map((r) => r.source_id)).toEqual(['same', 'same']);
    const order = await t.database.query<{ task_id: number }>(
      `select vt.task_id from variant_tasks vt join variants v on v.id = vt.variant_id
         where v.subject_test_id = ${(state.subjectTestIds as number[])[0]} order by vt.position`,
    );
    expect(order.map((r) => r.task_id)).toEqual([c!.taskId, b!.taskId]);
  });

  it("the source identifiers of a task's choices are stored with it and written back by the export (issue 27, defect 7d)", async () => {
    const batch: ParsedBatch = {
      format: 'qti22',
      items: [
        { ...item('kept'), choiceIds: { a: 'ChoiceThree', b: 'ChoiceFour' } },
        // Not QTI identifiers, or two of our ids on one: not kept.
        { ...item('bad'), choiceIds: { a: '1 two', b: 'x' } as Record<string, string> },
        { ...item('twice'), choiceIds: { a: 'Same', b: 'Same' } },
      ],
      tests: [{ sourceId: 'T7d', title: 'T7d', sections: [{ itemKeys: ['kept', 'bad', 'twice'] }] }],
    };
    const { state } = await importFile([filePart('ids.zip', qtiPackage(batch))]);
    const ids = (state.items as { taskId: number }[]).map((i) => i.taskId);
    const rows = await t.database.query<{ source_choice_ids: Record<string, string> | null }>(
      `select source_choice_ids from tasks where id in (${ids.join(',')}) order by id`,
    );
    expect(rows.map((r) => r.source_choice_ids)).toEqual([
      { a: 'ChoiceThree', b: 'ChoiceFour' },
      { b: 'x' },
      null,
    ]);
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/admin/content/subjectTests/${(state.subjectTestIds as number[])[0]}/export?format=qti3`,
      headers: admin.session.headers,
    });
    expect(res.statusCode).toBe(200);
    const zip = new AdmZip(res.rawPayload);
    const kept = zip.getEntry('items/kept.xml')!.getData().toString();
    expect(kept).toContain('<qti-simple-choice identifier="ChoiceThree">3</qti-simple-choice>');
    expect(kept).toContain('<qti-correct-response><qti-value>ChoiceFour</qti-value></qti-correct-response>');
    const bad = zip.getEntry('items/bad.xml')!.getData().toString();
    expect(bad).toContain('<qti-simple-choice identifier="a">3</qti-simple-choice>');
    expect(bad).toContain('<qti-value>x</qti-value>');
  });

  it('POST …/fullMarks: a task held for its full marks gets them from the admin (issue 27, Deliver 5)', async () => {
    const batch: ParsedBatch = {
      format: 'qti22',
      items: [
        item('given'),
        {
          ...item('held'),
          outcome: 'converted',
          notes: [note('qti_max_score_needed')],
          fullMarksNeeded: true,
        },
      ],
      tests: [{ sourceId: 'TF', title: 'TF', sections: [{ itemKeys: ['given', 'held'] }] }],
    };
    const { importId, state } = await importFile([filePart('held.zip', qtiPackage(batch))]);
    const [given, held] = state.items as {
      taskId: number;
      fullMarksNeeded?: boolean;
      noteCodes: unknown[];
    }[];
    expect([given!.fullMarksNeeded, held!.fullMarksNeeded]).toEqual([undefined, true]);
    // Held out of the file's test until its full marks are given.
    const inTest = async () =>
      (
        await t.database.query<{ task_id: number }>(
          `select vt.task_id from variant_tasks vt join variants v on v.id = vt.variant_id
             where v.subject_test_id = ${(state.subjectTestIds as number[])[0]}`,
        )
      ).map((r) => r.task_id);
    expect(await inTest()).toEqual([given!.taskId]);

    const url = `${URL}/${importId}/fullMarks`;
    const give = (payload: unknown, session: Session | null = admin.session, id = importId) =>
      t.app.inject({
        method: 'POST',
        url: `${URL}/${id}/fullMarks`,
        headers: session?.headers ?? {},
        payload: payload as Record<string, unknown>,
      });
    const maxOf = async (id: number) =>
      (await t.database.query<{ m: string }>(`select max_score::text as m from tasks where id = ${id}`))[0]!
        .m;
    // 401, 403 (another role, no csrf header), 400 bad bodies, 404 another import or task: nothing changes.
    expect((await give({ taskId: held!.taskId, maxScore: 2 }, null)).statusCode).toBe(401);
    expect((await give({ taskId: held!.taskId, maxScore: 2 }, coordinator)).statusCode).toBe(403);
    const noCsrf = await t.app.inject({
      method: 'POST',
      url,
      headers: { cookie: admin.session.cookie },
      payload: { taskId: held!.taskId, maxScore: 2 },
    });
    expect([noCsrf.statusCode, noCsrf.json().code]).toEqual([403, 'csrf']);
    for (const bad of [
      {},
      { taskId: held!.taskId },
      { taskId: held!.taskId, maxScore: 0 },
      { taskId: held!.taskId, maxScore: 101 },
      { taskId: held!.taskId, maxScore: 1.005 },
      { taskId: held!.taskId, maxScore: '2' },
      { taskId: 'x', maxScore: 2 },
      { taskId: held!.taskId, maxScore: 2, extra: 1 },
    ]) {
      const res = await give(bad);
      expect([JSON.stringify(bad), res.statusCode, res.json().code]).toEqual([
        JSON.stringify(bad),
        400,
        'validation_failed',
      ]);
    }
    expect((await give({ taskId: given!.taskId, maxScore: 2 })).statusCode).toBe(404);
    expect((await give({ taskId: held!.taskId, maxScore: 2 }, admin.session, 999999)).statusCode).toBe(404);
    expect(await maxOf(held!.taskId)).toBe('1');
    expect(await maxOf(given!.taskId)).toBe('1');

    const res = await give({ taskId: held!.taskId, maxScore: 2.5 });
    expect(res.statusCode, res.body).toBe(200);
    const report = res.json() as {
      items: { taskId: number; fullMarksNeeded?: boolean; noteCodes: unknown[] }[];
    };
    expect(report.items[1]!.fullMarksNeeded).toBeUndefined();
    expect(report.items[1]!.noteCodes).toEqual([
      { code: 'qti_max_score_needed' },
      { code: 'full_marks_given', params: { points: 2.5 } },
    ]);
    expect(await maxOf(held!.taskId)).toBe('2.5');
    expect(((await status(importId)).json() as typeof report).items[1]!.fullMarksNeeded).toBeUndefined();
    // Given once: the item no longer waits.
    expect((await give({ taskId: held!.taskId, maxScore: 3 })).statusCode).toBe(404);
    expect(await maxOf(held!.taskId)).toBe('2.5');
    const audits = await t.database.query<{ n: number }>(
      `select count(*)::int as n from audit_events where action = 'content.import.full_marks' and entity_id = '${held!.taskId}'`,
    );
    expect(audits[0]!.n).toBe(1);
  });

  it('the chosen subject receives the tasks with their whole category path', async () => {
    const [subject] = await t.app.ctx.db.insert(subjects).values({ name: 'Физика' }).returning();
    const xml =
      '<?xml version="1.0"?><quiz><question><name>Скорость</name><answer>10</answer></question></quiz>';
    const res = await upload(admin.session, [
      { name: 'subjectId', value: String(subject!.id) },
      filePart('m.xml', Buffer.from(xml)),
    ]);
    expect(res.statusCode).toBe(202);
    await t.app.jobs.drain();
    const body = (await status(res.json().importId)).json() as {
      status: string;
      items: { taskId: number }[];
    };
    expect(body.status).toBe('done');
    const [task] = await t.database.query<{ subject_id: number; category: string; answer_type: string }>(
      `select subject_id, category, answer_type from tasks where id = ${body.items[0]!.taskId}`,
    );
    expect(task).toEqual({ subject_id: subject!.id, category: 'Moodle', answer_type: 'short_text' });
  });

  it('a report stored before notes had codes gives its notes as unclassified codes', async () => {
    const [row] = await t.app.ctx.db
      .insert(queueItems)
      .values({
        type: 'import',
        status: 'done',
        payload: {},
        result: {
          format: 'gift',
          subjectId: null,
          subjectTestIds: [],
          items: [
            {
              sourceId: 'old',
              title: 'Old',
              taskId: null,
              answerType: null,
              outcome: 'refused',
              notes: ['description carries no question'],
            },
          ],
        },
      })
      .returning();
    const body = (await status(row!.id)).json() as { items: unknown[] };
    expect(body.items).toEqual([
      {
        sourceId: 'old',
        title: 'Old',
        taskId: null,
        answerType: null,
        outcome: 'refused',
        notes: ['description carries no question'],
        noteCodes: [{ code: 'unclassified', params: { text: 'description carries no question' } }],
      },
    ]);
  });

  it('refuses unsafe files whole, creating nothing: zip bomb, path traversal, DOCTYPE, billion laughs, depth, a NUL', async () => {
    const batch: ParsedBatch = { format: 'qti21', items: [item('x1')], tests: [] };
    const bomb = rawZip([
      { name: 'imsmanifest.xml', data: Buffer.from(MANIFEST) },
      { name: 'batch.json', data: Buffer.from(JSON.stringify(batch)) },
      { name: 'zeros.bin', data: Buffer.alloc(30 * 1024 * 1024), declaredSize: 1000 },
    ]);
    const traversal = rawZip([
      { name: 'imsmanifest.xml', data: Buffer.from(MANIFEST) },
      { name: 'batch.json', data: Buffer.from(JSON.stringify(batch)) },
      { name: '../../etc/cron.d/evil', data: Buffer.from('x') },
    ]);
    const doctypeManifest = qtiPackage(
      batch,
      [],
      '<?xml version="1.0"?><!DOCTYPE m [<!ENTITY e SYSTEM "file:///etc/passwd">]><manifest>&e;</manifest>',
    );
    const laughs =
      '<?xml version="1.0"?><!DOCTYPE quiz [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">' +
      '<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]><quiz><question><name>&c;</name></question></quiz>';
    const deep = `<quiz>${'<question>'.repeat(100)}${'</question>'.repeat(100)}</quiz>`;
    const cases: [string, Buffer, string][] = [
      ['bomb.zip', bomb, 'package_too_large'],
      ['traversal.zip', traversal, 'package_unsafe'],
      ['doctype.zip', doctypeManifest, 'xml_malformed'],
      ['laughs.xml', Buffer.from(laughs), 'xml_malformed'],
      ['deep.xml', Buffer.from(deep), 'xml_malformed'],
      ['nothing.zip', rawZip([{ name: 'readme.txt', data: Buffer.from('hi') }]), 'unsupported_format'],
      // A NUL in the text of an item, from a package or from Moodle XML: no text for the database.
      [
        'nul.zip',
        qtiPackage({
          format: 'qti21',
          items: [item('n1', { task: { ...item('n1').task!, html: '<p>Н\u0000уль</p>' } })],
          tests: [],
        }),
        'invalid_text',
      ],
      [
        'nul.xml',
        Buffer.from(
          '<?xml version="1.0" encoding="UTF-8"?><quiz><question><name>Н\u0000уль</name></question></quiz>',
        ),
        'invalid_text',
      ],
    ];
    for (const [name, data, code] of cases) {
      const before = await created();
      const { importId, state } = await importFile([filePart(name, data)]);
      expect([name, state.status, (state.error as { code: string } | undefined)?.code]).toEqual([
        name,
        'failed',
        code,
      ]);
      expect(state.items).toEqual([]);
      expect(state.subjectTestIds).toEqual([]);
      // Nothing created, and the upload itself is gone.
      expect([name, await created()]).toEqual([name, { ...before }]);
      const [row] = await t.app.ctx.db.select().from(queueItems).where(eq(queueItems.id, importId));
      expect(row).toMatchObject({ status: 'failed', attempts: 1, errorCode: code });
    }
  });

  it('a failed import leaves no tasks, files or subject tests (persistence fails midway)', async () => {
    // The database refuses a subject test named BOOM: the tasks and files before it must go too.
    await t.database.query(`create or replace function boom() returns trigger language plpgsql as $$
      begin if new.name = 'BOOM' then raise exception 'boom'; end if; return new; end $$`);
    await t.database.query(
      'create trigger boom before insert on subject_tests for each row execute function boom()',
    );
    try {
      const batch: ParsedBatch = {
        format: 'qti30',
        items: [item('f1', { media: [{ ref: 'a.png', bytes: PNG }] }), item('f2')],
        tests: [
          { sourceId: 'ok', title: 'Fine', sections: [{ itemKeys: ['f1'] }] },
          { sourceId: 'bad', title: 'BOOM', sections: [{ itemKeys: ['f2'] }] },
        ],
      };
      const before = await created();
      const { importId, state } = await importFile([filePart('fails.zip', qtiPackage(batch))]);
      // A database failure may be transient: retried once, its error shown meanwhile.
      expect(state).toMatchObject({ status: 'queued', error: { code: 'job_failed' }, items: [] });
      const { uploads: _uploads, ...rest } = before;
      expect(await created()).toMatchObject(rest);
      expect(await count('tasks', `source_id in ('f1', 'f2')`)).toBe(0);

      await t.app.ctx.db
        .update(queueItems)
        .set({ runAfter: sql`now() - interval '1 second'` })
        .where(eq(queueItems.id, importId));
      await t.app.jobs.drain();
      const final = (await status(importId)).json();
      expect(final).toMatchObject({
        status: 'failed',
        error: { code: 'job_failed' },
        items: [],
        subjectTestIds: [],
      });
      expect(await created()).toEqual(before);
      expect(await count('subject_tests', `name in ('Fine', 'BOOM')`)).toBe(0);
    } finally {
      await t.database.query('drop trigger boom on subject_tests');
    }
  });

  it('an item a parser crashes on refuses the file as import_invalid (no retries)', async () => {
    const undo = registerParser('gift', {
      name: 'crashing',
      parse: () => {
        throw new TypeError('cannot read x of undefined');
      },
    });
    try {
      const { state } = await importFile([filePart('a.gift', Buffer.from('::q:: x {=y}'))]);
      expect(state).toMatchObject({ status: 'failed', error: { code: 'import_invalid' } });
      expect(JSON.stringify(state)).not.toContain('undefined');
    } finally {
      undo();
    }
  });

  it('a parser refusing the format fails the import with unsupported_format', async () => {
    const undo = registerParser('gift', {
      name: 'none',
      parse: () => {
        throw unsupportedFormat();
      },
    });
    try {
      const { state } = await importFile([filePart('a.gift', Buffer.from('::q:: x {=y}'))]);
      expect(state).toMatchObject({ status: 'failed', error: { code: 'unsupported_format' } });
    } finally {
      undo();
    }
  });
});
