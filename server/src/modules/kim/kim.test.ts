import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import {
  kimTemplates,
  specificationElements,
  specifications,
  subjectTests,
  taskElements,
  tasks,
} from '../../db/schema/index.js';
import {
  createExamWork,
  createHtmlContainer,
  createOrg,
  createParticipantTest,
  createVariantWithTasks,
  createTestApp,
  signedIn,
  signedInParticipant,
  tasksOfEveryType,
  type Session,
  type TestApp,
} from '../../../test/helpers.js';
import { CONTAINER_CSP } from './kim.service.js';

const SECRET = 'KIMLEAKMARKER';

let t: TestApp;
let admin: Session;
let expert: Session;
let coordinator: Session;
let organizator: Session;
let participant: Session;
let subjectTestId: number;
let variantId: number;
let otherVariantId: number;
let taskIds: number[];
let containerId: number;
let otherContainerId: number;
let templateId: number;

const get = (url: string, session: Session | null) =>
  t.app.inject({ method: 'GET', url, headers: session?.headers ?? {} });
const post = (url: string, session: Session | null, payload: unknown, headers?: Record<string, string>) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: headers ?? session?.headers ?? {},
    payload: payload as object,
  });

const expectNoSecret = (res: LightMyRequestResponse) => expect(res.body).not.toContain(SECRET);

beforeAll(async () => {
  t = await createTestApp();
  const org = await createOrg(t.app);
  admin = (await signedIn(t.app, ['admin'])).session;
  expert = (await signedIn(t.app, ['expert'])).session;
  coordinator = (await signedIn(t.app, ['coordinator'], { schoolId: org.schoolId })).session;
  organizator = (await signedIn(t.app, ['organizator'], { schoolId: org.schoolId })).session;

  const pt = await createParticipantTest(t.app, org);
  subjectTestId = pt.subjectTestId;
  const variant = await createVariantWithTasks(t.app, subjectTestId, tasksOfEveryType(SECRET));
  variantId = variant.variantId;
  taskIds = variant.taskIds;
  otherVariantId = (await createVariantWithTasks(t.app, subjectTestId, tasksOfEveryType(SECRET))).variantId;
  await createExamWork(t.app, pt.participantTestId, variantId);
  participant = (await signedInParticipant(t.app, pt)).session;

  containerId = await createHtmlContainer(t.app, {
    'index.html': ['text/html', '<html><script src="bundles/app.js"></script></html>'],
    'bundles/app.js': ['text/javascript', 'console.log(1)'],
    'style.css': ['text/css', 'body{}'],
  });
  otherContainerId = await createHtmlContainer(t.app, { 'index.html': ['text/html', '<p>other</p>'] });
  await t.app.ctx.db.update(tasks).set({ htmlContainerId: containerId }).where(eq(tasks.id, taskIds[0]!));

  const [template] = await t.app.ctx.db
    .insert(kimTemplates)
    .values({ name: 'Бланк', html: '<div class="head">Шапка<script>alert(1)</script></div>', css: '.head{}' })
    .returning();
  templateId = template!.id;
  await t.app.ctx.db
    .update(subjectTests)
    .set({
      kimTemplateId: templateId,
      procedureHtml: '<p onclick="x()">Порядок <b>проведения</b></p><script>bad()</script>',
    })
    .where(eq(subjectTests.id, subjectTestId));
});
afterAll(async () => t.close());

describe('POST /api/kim/*/list', () => {
  const LISTS = ['/api/kim/subject/list', '/api/kim/subjectTest/list', '/api/kim/test/list'];

  it.each(LISTS)('%s: 401 without a session, 403 to a participant or organizator, 403 csrf', async (url) => {
    expect((await post(url, null, { page: 1 })).statusCode).toBe(401);
    expect((await post(url, participant, { page: 1 })).statusCode).toBe(403);
    expect((await post(url, organizator, { page: 1 })).statusCode).toBe(403);
    const csrf = await post(url, null, { page: 1 }, { cookie: admin.cookie });
    expect(csrf.statusCode).toBe(403);
    expect(csrf.json()).toMatchObject({ code: 'csrf' });
  });

  it.each(LISTS)('%s: unknown sort field or filter → 400', async (url) => {
    const sort = await post(url, admin, { page: 1, sort: { field: 'passwordHash' } });
    expect(sort.statusCode).toBe(400);
    expect(sort.json()).toMatchObject({ code: 'validation_failed' });
    const filter = await post(url, admin, { page: 1, filter: { nope: 1 } });
    expect(filter.statusCode).toBe(400);
    expect((await post(url, admin, { page: 0 })).statusCode).toBe(400);
  });

  it('subjects: paged, sorted, searchable, with subject test counts', async () => {
    const res = await post('/api/kim/subject/list', coordinator, {
      page: 1,
      pageSize: 1,
      sort: { field: 'id', dir: 'desc' },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.total).toBeGreaterThanOrEqual(1);
    expect(body.items).toHaveLength(1);
    expect(body.items[0]).toMatchObject({ subjectTestCount: 1 });
    const none = await post('/api/kim/subject/list', expert, { page: 1, filter: { search: 'нет такого%' } });
    expect(none.json()).toEqual({ items: [], total: 0 });
  });

  it('subject tests: filtered by parallel and subject, with variant counts', async () => {
    const res = await post('/api/kim/subjectTest/list', admin, { page: 1, filter: { parallel: 7 } });
    expect(res.statusCode).toBe(200);
    const item = res.json().items.find((i: { id: number }) => i.id === subjectTestId);
    expect(item).toMatchObject({ parallels: [7], variantCount: 2, kind: 'diagnostic', durationMinutes: 45 });
    const other = await post('/api/kim/subjectTest/list', admin, { page: 1, filter: { parallel: 3 } });
    expect(other.json().items.some((i: { id: number }) => i.id === subjectTestId)).toBe(false);
  });

  it('variants: task count, max score, answer types and tasks missing a key', async () => {
    const incomplete = await createVariantWithTasks(t.app, subjectTestId, [
      { answerType: 'short_text', content: { maxLength: 10 }, reference: null },
      { answerType: 'extended_text', content: {}, criteria: null, maxScore: 3 },
      { answerType: 'number', reference: { value: 1 } },
    ]);
    const res = await post('/api/kim/test/list', admin, {
      page: 1,
      filter: { subjectTestId },
      sort: [{ field: 'number', dir: 'asc' }],
    });
    expect(res.statusCode).toBe(200);
    const { items, total } = res.json();
    expect(total).toBe(3);
    expect(items[0]).toMatchObject({
      id: variantId,
      taskCount: 10,
      manualTaskCount: 2,
      missingKeyPositions: [],
    });
    expect(items[0].answerTypes).toContain('cloze');
    expect(items[0].maxScore).toBe(13);
    expect(items[2]).toMatchObject({ id: incomplete.variantId, taskCount: 3, missingKeyPositions: [1, 2] });
    const onlyIncomplete = await post('/api/kim/test/list', admin, { page: 1, filter: { incomplete: true } });
    expect(onlyIncomplete.json().items.map((i: { id: number }) => i.id)).toEqual([incomplete.variantId]);
    expectNoSecret(res);
  });
});

describe('reference lists', () => {
  it.each(['/api/kim/parallels', '/api/kim/subjectexams', '/api/SubjectExams', '/api/subjectexams'])(
    '%s needs a session and answers any signed-in user',
    async (url) => {
      expect((await get(url, null)).statusCode).toBe(401);
      const res = await get(url, participant);
      expect(res.statusCode).toBe(200);
      expect(res.json().length).toBeGreaterThan(0);
    },
  );

  it('subject exams carry the subject and the kind', async () => {
    const res = await get('/api/kim/subjectexams', coordinator);
    expect(res.json()[0]).toMatchObject({ kind: 'diagnostic', subjectName: expect.any(String) });
  });
});

describe('GET /api/kim/htmlxmltext/{id}', () => {
  it('answers the source with the key to admins and experts', async () => {
    const res = await get(`/api/kim/htmlxmltext/${taskIds[0]}`, expert);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: taskIds[0],
      answerType: 'single_choice',
      reference: { correct: 'o2' },
    });
    expect(res.json().criteria[0].text).toContain(SECRET);
  });

  it('refuses everybody else, and checks the id', async () => {
    expect((await get(`/api/kim/htmlxmltext/${taskIds[0]}`, null)).statusCode).toBe(401);
    expect((await get(`/api/kim/htmlxmltext/${taskIds[0]}`, participant)).statusCode).toBe(403);
    expect((await get(`/api/kim/htmlxmltext/${taskIds[0]}`, coordinator)).statusCode).toBe(403);
    expect((await get('/api/kim/htmlxmltext/abc', admin)).statusCode).toBe(400);
    expect((await get('/api/kim/htmlxmltext/999999', admin)).statusCode).toBe(404);
  });
});

describe('GET /api/task/{variantId}/{taskNumber}', () => {
  it('answers the full task, with classifiers on request', async () => {
    const [spec] = await t.app.ctx.db.insert(specifications).values({ name: 'Кодификатор' }).returning();
    const [element] = await t.app.ctx.db
      .insert(specificationElements)
      .values({ specificationId: spec!.id, code: '1.2', name: 'Дроби' })
      .returning();
    await t.app.ctx.db.insert(taskElements).values({ taskId: taskIds[7]!, elementId: element!.id });

    const plain = await get(`/api/task/${variantId}/8`, admin);
    expect(plain.statusCode).toBe(200);
    expect(plain.json()).toMatchObject({ position: 8, answerType: 'cloze', taskId: taskIds[7] });
    expect(plain.json().classifiers).toBeUndefined();
    expect(plain.json().solutionHtml).toContain('solution-8');

    const withClassifiers = await get(`/api/task/${variantId}/8?withClassifiers=true`, expert);
    expect(withClassifiers.json().classifiers).toEqual([
      { id: element!.id, code: '1.2', name: 'Дроби', kind: 'content' },
    ]);
  });

  it('404 for a number the variant does not have; 403 for non-content staff; 400 for bad input', async () => {
    expect((await get(`/api/task/${variantId}/99`, admin)).statusCode).toBe(404);
    expect((await get(`/api/task/${variantId}/1`, coordinator)).statusCode).toBe(403);
    expect((await get(`/api/task/${variantId}/1`, participant)).statusCode).toBe(403);
    expect((await get(`/api/task/${variantId}/1?withClassifiers=maybe`, admin)).statusCode).toBe(400);
    expect((await get(`/api/task/${variantId}/0`, admin)).statusCode).toBe(400);
  });
});

describe('kim templates', () => {
  it('GET /api/kimtemplate/{id}: sanitized, staff only', async () => {
    const res = await get(`/api/kimtemplate/${templateId}`, admin);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: templateId, name: 'Бланк', css: '.head{}' });
    expect(res.json().html).not.toContain('<script');
    expect((await get(`/api/kimtemplate/${templateId}`, participant)).statusCode).toBe(403);
    expect((await get('/api/kimtemplate/999999', expert)).statusCode).toBe(404);
  });

  it('byvariantid: a participant gets the template of their own variant only', async () => {
    const own = await get(`/api/kimtemplate/byvariantid/${variantId}`, participant);
    expect(own.statusCode).toBe(200);
    expect(own.json().id).toBe(templateId);
    expectNoSecret(own);
    const other = await get(`/api/kimtemplate/byvariantid/${otherVariantId}`, participant);
    expect(other.statusCode).toBe(403);
    expect((await get(`/api/kimtemplate/byvariantid/${otherVariantId}`, expert)).statusCode).toBe(200);
    expect((await get(`/api/kimtemplate/byvariantid/${variantId}`, coordinator)).statusCode).toBe(403);
    expect((await get(`/api/kimtemplate/byvariantid/${variantId}`, null)).statusCode).toBe(401);
  });

  it('byvariantid: a deleted work gives no access; unknown or template-less variants are 404', async () => {
    const org = await createOrg(t.app);
    const pt = await createParticipantTest(t.app, org);
    const v = await createVariantWithTasks(t.app, pt.subjectTestId, [{ answerType: 'number' }]);
    await createExamWork(t.app, pt.participantTestId, v.variantId, { deleted: true });
    const { session } = await signedInParticipant(t.app, pt);
    expect((await get(`/api/kimtemplate/byvariantid/${v.variantId}`, session)).statusCode).toBe(403);
    expect((await get(`/api/kimtemplate/byvariantid/${v.variantId}`, admin)).statusCode).toBe(404);
    expect((await get('/api/kimtemplate/byvariantid/999999', admin)).statusCode).toBe(404);
  });
});

describe('GET /api/test/procedure/{id}', () => {
  it('answers the sanitized procedure to anybody signed in', async () => {
    const res = await get(`/api/test/procedure/${subjectTestId}`, participant);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ subjectTestId, html: '<p>Порядок <b>проведения</b></p>' });
    expect((await get(`/api/test/procedure/${subjectTestId}`, null)).statusCode).toBe(401);
    expect((await get('/api/test/procedure/999999', admin)).statusCode).toBe(404);
  });
});

describe('html containers', () => {
  const base = () => `/api/kim/htmlContainer/${containerId}/1`;

  it('metadata: a participant sees the containers of their own variant only', async () => {
    const res = await get(`/api/KimHtmlContainer/${containerId}`, participant);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      id: containerId,
      name: expect.any(String),
      version: 1,
      entry: 'index.html',
      resources: ['bundles/app.js', 'index.html', 'style.css'],
    });
    expect((await get(`/api/KimHtmlContainer/${otherContainerId}`, participant)).statusCode).toBe(403);
    expect((await get(`/api/KimHtmlContainer/${otherContainerId}`, expert)).statusCode).toBe(200);
    expect((await get(`/api/KimHtmlContainer/${containerId}`, coordinator)).statusCode).toBe(403);
    expect((await get('/api/KimHtmlContainer/999999', admin)).statusCode).toBe(404);
  });

  it('serves index, bundles and resources with their type and the sandboxing CSP', async () => {
    for (const [path, mime, text] of [
      ['index', 'text/html', '<script src="bundles/app.js">'],
      ['bundles/app.js', 'text/javascript', 'console.log(1)'],
      ['style.css', 'text/css', 'body{}'],
    ] as const) {
      const res = await get(`${base()}/${path}`, participant);
      expect(res.statusCode, path).toBe(200);
      expect(res.headers['content-type']).toContain(mime);
      expect(res.headers['content-security-policy']).toBe(CONTAINER_CSP);
      expect(res.headers['content-security-policy']).not.toContain('allow-same-origin');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.body).toContain(text);
      expectNoSecret(res);
    }
  });

  it('path traversal and unknown paths are 404', async () => {
    for (const path of [
      '..%2f..%2fetc%2fpasswd',
      '%2e%2e%2findex.html',
      'bundles/..%2findex.html',
      'nope.js',
    ]) {
      const res = await get(`${base()}/${path}`, admin);
      expect(res.statusCode, path).toBe(404);
    }
    expect((await get(`/api/kim/htmlContainer/${containerId}/2/index`, admin)).statusCode).toBe(404);
  });

  it('resources follow the same access rule', async () => {
    expect((await get(`${base()}/index`, null)).statusCode).toBe(401);
    expect((await get(`/api/kim/htmlContainer/${otherContainerId}/1/index`, participant)).statusCode).toBe(
      403,
    );
    expect((await get(`/api/kim/htmlContainer/${otherContainerId}/1/index`, admin)).statusCode).toBe(200);
    expect((await get(`${base()}/style.css`, organizator)).statusCode).toBe(403);
  });
});
