import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import {
  examWorks,
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
import { containerLinkSigner } from './container-links.js';
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
let workId: number;

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
  workId = await createExamWork(t.app, pt.participantTestId, variantId);
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
      url: expect.stringMatching(
        new RegExp(`^/api/kim/htmlContainer/${containerId}/1/index\\?sig=[\\w.-]+$`),
      ),
      urlExpiresAt: expect.any(String),
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

describe('signed container links (a sandboxed frame sends no cookie)', () => {
  const PNG = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
    'base64',
  );
  let linked: number;
  let other: Session;
  const signer = () => containerLinkSigner(t.config.sessionSecret);
  const anon = (url: string) => get(url, null);
  const urlOf = async (session: Session, id = linked) => {
    const res = await get(`/api/KimHtmlContainer/${id}`, session);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { url: string; urlExpiresAt: string };
  };
  const tokenOf = (url: string) => new URL(url, 'http://x').searchParams.get('sig')!;

  beforeAll(async () => {
    linked = await createHtmlContainer(t.app, {
      'index.html': [
        'text/html',
        '<html><head><link rel="stylesheet" href="style.css"><script src="bundles/app.js"></script></head>' +
          '<body><img src=\'img.png#x\' srcset="img.png 1x, img.png 2x"><a href="https://example.org/">out</a>' +
          '<a href="#top">top</a><img src="data:image/png;base64,AA=="></body></html>',
      ],
      'bundles/app.js': ['text/javascript', 'parent.postMessage({type:"attesta:ready"},"*")'],
      'style.css': ['text/css', 'body{background:url("img.png")} .a{background:url(/abs.png)}'],
      'img.png': ['image/png', PNG],
    });
    await t.app.ctx.db.update(tasks).set({ htmlContainerId: linked }).where(eq(tasks.id, taskIds[1]!));
    const org = await createOrg(t.app);
    const pt = await createParticipantTest(t.app, org);
    await createExamWork(t.app, pt.participantTestId, otherVariantId);
    other = (await signedInParticipant(t.app, pt)).session;
  });

  it('metadata signs the entry page for the caller, valid for 30 minutes', async () => {
    const { url, urlExpiresAt } = await urlOf(participant);
    expect(url).toMatch(new RegExp(`^/api/kim/htmlContainer/${linked}/1/index\\?sig=`));
    const left = Date.parse(urlExpiresAt) - Date.now();
    expect(left).toBeGreaterThan(29 * 60_000);
    expect(left).toBeLessThanOrEqual(30 * 60_000);
  });

  it('a valid signature opens the page and its files without a session, under the sandbox CSP', async () => {
    const { url } = await urlOf(participant);
    const sig = tokenOf(url);
    const index = await anon(url);
    expect(index.statusCode, index.body).toBe(200);
    expect(index.headers['content-type']).toContain('text/html');
    expect(index.headers['content-security-policy']).toBe(CONTAINER_CSP);
    expect(index.headers['x-content-type-options']).toBe('nosniff');
    // Relative links carry the same signature; absolute, fragment and data links are left alone.
    expect(index.body).toContain(`href="style.css?sig=${sig}"`);
    expect(index.body).toContain(`src="bundles/app.js?sig=${sig}"`);
    expect(index.body).toContain(`src='img.png?sig=${sig}#x'`);
    expect(index.body).toContain(`srcset="img.png?sig=${sig} 1x, img.png?sig=${sig} 2x"`);
    expect(index.body).toContain('href="https://example.org/"');
    expect(index.body).toContain('href="#top"');
    expect(index.body).toContain('src="data:image/png;base64,AA=="');

    const base = `/api/kim/htmlContainer/${linked}/1`;
    const css = await anon(`${base}/style.css?sig=${sig}`);
    expect(css.statusCode).toBe(200);
    expect(css.body).toBe(`body{background:url("img.png?sig=${sig}")} .a{background:url(/abs.png)}`);
    const js = await anon(`${base}/bundles/app.js?sig=${sig}`);
    expect(js.statusCode).toBe(200);
    expect(js.headers['content-type']).toContain('text/javascript');
    expect(js.headers['content-security-policy']).toBe(CONTAINER_CSP);
    const png = await anon(`${base}/img.png?sig=${sig}`);
    expect(png.statusCode).toBe(200);
    expect(png.rawPayload.equals(PNG)).toBe(true);
    for (const res of [index, css, js]) expectNoSecret(res);

    // Without a signature the session rule still applies; served that way nothing is rewritten.
    expect((await anon(`${base}/index`)).statusCode).toBe(401);
    expect((await get(`${base}/index`, participant)).body).toContain('href="style.css"');
  });

  it('staff links work for any container while the holder is still content staff', async () => {
    const { url } = await urlOf(admin, otherContainerId);
    expect((await anon(url)).statusCode).toBe(200);
    const coordinatorUser = await signedIn(t.app, ['coordinator']);
    const forged = signer().sign(otherContainerId, 1, {
      userId: coordinatorUser.user.id,
      participantTestId: null,
    }).token;
    const res = await anon(`/api/kim/htmlContainer/${otherContainerId}/1/index?sig=${forged}`);
    expect(res.statusCode).toBe(403);
  });

  it('expired, tampered or misapplied signatures are 403 bad_signature', async () => {
    const { url } = await urlOf(participant);
    const sig = tokenOf(url);
    const [user, pt, exp, mac] = sig.split('.') as [string, string, string, string];
    const base = `/api/kim/htmlContainer/${linked}/1`;
    const subject = { userId: Number(user), participantTestId: Number(pt) };
    const expired = signer().sign(linked, 1, subject, new Date(Date.now() - 31 * 60_000)).token;
    const flip = (c: string) => (c === 'A' ? 'B' : 'A');
    const cases: Record<string, string> = {
      expired: `${base}/index?sig=${expired}`,
      'tampered mac': `${base}/index?sig=${user}.${pt}.${exp}.${flip(mac[0]!)}${mac.slice(1)}`,
      'longer life': `${base}/index?sig=${user}.${pt}.${Number(exp) + 3600}.${mac}`,
      'another user': `${base}/index?sig=${Number(user) + 1}.${pt}.${exp}.${mac}`,
      'another container': `/api/kim/htmlContainer/${otherContainerId}/1/index?sig=${sig}`,
      'another version': `/api/kim/htmlContainer/${linked}/2/index?sig=${sig}`,
      garbage: `${base}/bundles/app.js?sig=nonsense`,
      empty: `${base}/img.png?sig=`,
      'signed by another secret': `${base}/index?sig=${
        containerLinkSigner('another-secret'.padEnd(40, 'y')).sign(linked, 1, subject).token
      }`,
    };
    for (const [name, target] of Object.entries(cases)) {
      const res = await anon(target);
      expect(res.statusCode, name).toBe(403);
      expect(res.json(), name).toMatchObject({ code: 'bad_signature' });
      expect(res.body, name).not.toContain('attesta:ready');
    }
  });

  it("another participant's container stays closed, with or without a session", async () => {
    // The other participant's variant has no container: a link made out to them opens nothing…
    const otherPt = (
      await t.app.inject({
        method: 'GET',
        url: '/api/exam/test/currentParticipantTest',
        headers: other.headers,
      })
    ).json().id as number;
    const otherUser = (await get('/api/user', other)).json().id as number;
    const forged = signer().sign(linked, 1, { userId: otherUser, participantTestId: otherPt }).token;
    expect((await anon(`/api/kim/htmlContainer/${linked}/1/index?sig=${forged}`)).statusCode).toBe(403);
    expect((await get(`/api/KimHtmlContainer/${linked}`, other)).statusCode).toBe(403);
    // …and the first participant's link does not work with another participant's session.
    const { url } = await urlOf(participant);
    const res = await get(url, other);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'bad_signature' });
    expect((await get(url, participant)).statusCode).toBe(200);
  });

  it('a link stops working once its work is gone', async () => {
    const { url } = await urlOf(participant);
    await t.app.ctx.db.update(examWorks).set({ deletedAt: new Date() }).where(eq(examWorks.id, workId));
    try {
      expect((await anon(url)).statusCode).toBe(403);
    } finally {
      await t.app.ctx.db.update(examWorks).set({ deletedAt: null }).where(eq(examWorks.id, workId));
    }
    expect((await anon(url)).statusCode).toBe(200);
  });
});
