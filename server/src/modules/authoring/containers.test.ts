import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminHtmlContainer, ContainerPreview } from '@attesta/contract';
import {
  auditEvents,
  htmlContainerResources,
  htmlContainers,
  htmlContainerVersions,
} from '../../db/schema/index.js';
import {
  createExamWork,
  createOrg,
  createParticipantTest,
  createTestApp,
  createVariantWithTasks,
  signedIn,
  signedInParticipant,
  type Session,
  type TestApp,
} from '../../../test/helpers.js';
import { rawZip, type RawEntry } from '../content-import/test-support.js';
import { multipartBody, PNG, type Part } from '../files/test-support.js';
import { CONTAINER_CSP } from '../kim/kim.service.js';

// Issue 11: the admin's html containers — upload (a zip through the safety layer), new versions,
// the signed preview link, and the participant's runner still served the version its work began with.

let t: TestApp;
let admin: Session;
let expert: Session;
let coordinator: Session;

const LIST = '/api/admin/content/containers';
const entry = (name: string, text: string | Buffer): RawEntry => ({
  name,
  data: Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8'),
});
const zipOf = (files: Record<string, string | Buffer>) =>
  rawZip(Object.entries(files).map(([name, data]) => entry(name, data)));

const INDEX =
  '<!doctype html><link rel="stylesheet" href="style.css"><script src="bundles/app.js"></script><img src="pic.png"><p>v1</p>';
const SOUND = {
  'lamp/index.html': INDEX,
  'lamp/style.css': 'body { background: url(pic.png) }',
  'lamp/bundles/app.js': 'parent.postMessage({ type: "attesta:ready" }, "*");',
  'lamp/pic.png': PNG,
  'lamp/icon.svg':
    '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script><rect width="4" height="4"/></svg>',
  'lamp/.DS_Store': Buffer.from([0, 0, 0, 1]),
  '__MACOSX/lamp/._index.html': Buffer.from([0, 5, 22, 7]),
};

function upload(
  url: string,
  session: Session | null,
  fields: Record<string, string>,
  file: Buffer | null,
  headers?: Record<string, string>,
) {
  const parts: Part[] = Object.entries(fields).map(([name, value]) => ({ name, value }));
  if (file) parts.push({ name: 'file', filename: 'container.zip', type: 'application/zip', data: file });
  const body = multipartBody(parts);
  return t.app.inject({
    method: 'POST',
    url,
    headers: { ...(headers ?? session?.headers ?? {}), 'content-type': body.contentType },
    payload: body.payload,
  });
}
const get = (url: string, session: Session | null) =>
  t.app.inject({ method: 'GET', url, headers: session?.headers ?? {} });
const containerCount = async () => (await t.app.ctx.db.select().from(htmlContainers)).length;
const resourceCount = async () => (await t.app.ctx.db.select().from(htmlContainerResources)).length;

async function create(
  name: string,
  files: Record<string, string | Buffer>,
  fields: Record<string, string> = {},
) {
  const res = await upload(LIST, admin, { name, ...fields }, zipOf(files));
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as AdminHtmlContainer;
}

beforeAll(async () => {
  t = await createTestApp();
  const org = await createOrg(t.app);
  admin = (await signedIn(t.app, ['admin'])).session;
  expert = (await signedIn(t.app, ['expert'])).session;
  coordinator = (await signedIn(t.app, ['coordinator'], { schoolId: org.schoolId })).session;
});
afterAll(async () => t.close());

describe('access', () => {
  it('401 without a session, 403 to other roles, 403 csrf for the uploads', async () => {
    const id = (await create('Доступ', { 'index.html': '<p>x</p>' })).id;
    const zip = zipOf({ 'index.html': '<p>y</p>' });
    expect((await get(LIST, null)).statusCode).toBe(401);
    expect((await get(`${LIST}/${id}/preview`, null)).statusCode).toBe(401);
    expect((await upload(LIST, null, { name: 'x' }, zip)).statusCode).toBe(401);
    expect((await upload(`${LIST}/${id}/versions`, null, {}, zip)).statusCode).toBe(401);
    for (const session of [expert, coordinator]) {
      expect((await get(LIST, session)).statusCode).toBe(403);
      expect((await get(`${LIST}/${id}/preview`, session)).statusCode).toBe(403);
      expect((await upload(LIST, session, { name: 'x' }, zip)).statusCode).toBe(403);
      expect((await upload(`${LIST}/${id}/versions`, session, {}, zip)).statusCode).toBe(403);
    }
    const before = await containerCount();
    for (const url of [LIST, `${LIST}/${id}/versions`]) {
      const csrf = await upload(url, null, { name: 'x' }, zip, { cookie: admin.cookie });
      expect(csrf.statusCode).toBe(403);
      expect(csrf.json()).toMatchObject({ code: 'csrf' });
    }
    expect(await containerCount()).toBe(before);
    expect((await get(`${LIST}/999999/preview`, admin)).statusCode).toBe(404);
    expect((await upload(`${LIST}/999999/versions`, admin, {}, zip)).statusCode).toBe(404);
  });
});

describe('refused uploads: 400 with their code, nothing stored', () => {
  const cases: [string, Record<string, string>, Buffer | null, string][] = [
    [
      'no entry page',
      { name: 'x' },
      zipOf({ 'a.html': '<p>a</p>', 'b.html': '<p>b</p>' }),
      'container_no_entry',
    ],
    ['only scripts', { name: 'x' }, zipOf({ 'bundles/app.js': '1' }), 'container_no_entry'],
    [
      'a named entry that is not there',
      { name: 'x', entry: 'start.html' },
      zipOf({ 'index.html': '<p/>' }),
      'container_no_entry',
    ],
    [
      'a named entry in a folder',
      { name: 'x', entry: 'bundles/p.html' },
      zipOf({ 'index.html': '<p/>', 'bundles/p.html': '<p/>' }),
      'container_no_entry',
    ],
    [
      'path traversal',
      { name: 'x' },
      rawZip([entry('index.html', '<p/>'), entry('../evil.js', '1')]),
      'package_unsafe',
    ],
    [
      'an absolute name',
      { name: 'x' },
      rawZip([entry('index.html', '<p/>'), entry('/etc/passwd', '1')]),
      'package_unsafe',
    ],
    [
      'a symbolic link',
      { name: 'x' },
      rawZip([
        entry('index.html', '<p/>'),
        { name: 'l.js', data: Buffer.from('/etc/passwd'), method: 0, unixMode: 0o120777 },
      ]),
      'package_unsafe',
    ],
    [
      'a zip bomb',
      { name: 'x' },
      rawZip([entry('index.html', '<p/>'), { name: 'bomb.js', data: Buffer.alloc(30 * 1024 * 1024) }]),
      'package_too_large',
    ],
    [
      'a header that lies about its size',
      { name: 'x' },
      rawZip([
        entry('index.html', '<p/>'),
        { name: 'lie.js', data: Buffer.alloc(5 * 1024 * 1024), declaredSize: 10 },
      ]),
      'package_too_large',
    ],
    [
      'a file in a nested folder',
      { name: 'x' },
      zipOf({ 'index.html': '<p/>', 'img/a.png': PNG }),
      'container_file_refused',
    ],
    [
      'an executable',
      { name: 'x' },
      zipOf({ 'index.html': '<p/>', 'setup.exe': Buffer.from('MZ\u0090\u0000') }),
      'container_file_refused',
    ],
    [
      'a png that is not one',
      { name: 'x' },
      zipOf({ 'index.html': '<p/>', 'a.png': '<script>alert(1)</script>' }),
      'container_file_refused',
    ],
    [
      'a script that is not UTF-8',
      { name: 'x' },
      zipOf({ 'index.html': '<p/>', 'a.js': Buffer.from([0xff, 0xfe, 0xfd]) }),
      'container_file_refused',
    ],
    [
      'a file named index',
      { name: 'x' },
      zipOf({ 'index.html': '<p/>', index: '<p/>' }),
      'container_file_refused',
    ],
    ['not a zip', { name: 'x' }, Buffer.from('<html></html>'), 'unsupported_format'],
    ['no name', {}, zipOf({ 'index.html': '<p/>' }), 'validation_failed'],
    ['no file', { name: 'x' }, null, 'no_file'],
  ];
  it.each(cases)('%s', async (_what, fields, file, code) => {
    const [containers, resources] = [await containerCount(), await resourceCount()];
    const res = await upload(LIST, admin, fields, file);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ code });
    expect([await containerCount(), await resourceCount()]).toEqual([containers, resources]);
  });

  it('names the refused file', async () => {
    const res = await upload(LIST, admin, { name: 'x' }, zipOf({ 'index.html': '<p/>', 'css/a.css': 'p{}' }));
    expect(res.json().errors).toEqual([
      expect.objectContaining({ code: 'folder', params: { name: 'css/a.css' } }),
    ]);
  });

  it('a new version is refused the same way and leaves the container as it was', async () => {
    const c = await create('Без изменений', { 'index.html': '<p>1</p>' });
    const res = await upload(`${LIST}/${c.id}/versions`, admin, {}, rawZip([entry('../x.html', '<p/>')]));
    expect(res.json()).toMatchObject({ status: 400, code: 'package_unsafe' });
    const [row] = await t.app.ctx.db.select().from(htmlContainers).where(eq(htmlContainers.id, c.id));
    expect(row!.currentVersion).toBe(1);
  });
});

describe('upload, versions and preview', () => {
  let container: AdminHtmlContainer;

  it('stores a container from its folder, sniffs and cleans its files, audits it', async () => {
    container = await create('Лампочки', SOUND);
    expect(container).toMatchObject({
      name: 'Лампочки',
      currentVersion: 1,
      entry: 'index.html',
      taskCount: 0,
      versions: [{ version: 1, entry: 'index.html', fileCount: 5 }],
    });
    const rows = await t.app.ctx.db
      .select()
      .from(htmlContainerResources)
      .where(eq(htmlContainerResources.containerId, container.id));
    expect(Object.fromEntries(rows.map((r) => [r.path, r.mime]))).toEqual({
      'index.html': 'text/html; charset=utf-8',
      'style.css': 'text/css; charset=utf-8',
      'bundles/app.js': 'text/javascript; charset=utf-8',
      'pic.png': 'image/png',
      'icon.svg': 'image/svg+xml',
    });
    const svg = rows.find((r) => r.path === 'icon.svg')!.data.toString();
    expect(svg).toContain('<rect');
    expect(svg).not.toContain('script');
    const [audit] = await t.app.ctx.db
      .select()
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.action, 'content.container.create'),
          eq(auditEvents.entityId, String(container.id)),
        ),
      );
    expect(audit!.details).toMatchObject({ name: 'Лампочки', entry: 'index.html', fileCount: 5 });
    expect((await get(LIST, admin)).json()).toContainEqual(container);
  });

  it('the preview link opens the entry page sandboxed, without a session, and signs its links', async () => {
    const res = await get(`${LIST}/${container.id}/preview`, admin);
    expect(res.statusCode, res.body).toBe(200);
    const preview = res.json() as ContainerPreview;
    expect(preview).toMatchObject({ containerId: container.id, version: 1, entry: 'index.html' });
    expect(preview.resources).toContain('bundles/app.js');
    expect(preview.url).toMatch(new RegExp(`^/api/kim/htmlContainer/${container.id}/1/index\\?sig=`));
    const page = await get(preview.url, null);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-security-policy']).toBe(CONTAINER_CSP);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const sig = preview.url.split('?')[1]!;
    expect(page.body).toContain(`src="bundles/app.js?${sig}"`);
    expect(page.body).toContain(`href="style.css?${sig}"`);
    const script = await get(`/api/kim/htmlContainer/${container.id}/1/bundles/app.js?${sig}`, null);
    expect(script.statusCode).toBe(200);
    expect(script.body).toContain('attesta:ready');
    const picture = await get(`/api/kim/htmlContainer/${container.id}/1/pic.png?${sig}`, null);
    expect(picture.headers['content-type']).toBe('image/png');
    // A forged signature opens nothing.
    expect(
      (await get(`/api/kim/htmlContainer/${container.id}/1/index?sig=1.0.9999999999.${'A'.repeat(43)}`, null))
        .statusCode,
    ).toBe(403);
  });

  it('a new version with another entry page is currentVersion + 1; the old one stays as it was', async () => {
    const res = await upload(
      `${LIST}/${container.id}/versions`,
      admin,
      { entry: 'start.html', name: 'Лампочки 2' },
      zipOf({ 'start.html': '<p>v2</p>', 'index.html': '<p>not the entry</p>' }),
    );
    expect(res.statusCode, res.body).toBe(200);
    const updated = res.json() as AdminHtmlContainer;
    expect(updated).toMatchObject({
      name: 'Лампочки 2',
      currentVersion: 2,
      entry: 'start.html',
      versions: [
        { version: 2, entry: 'start.html', fileCount: 2 },
        { version: 1, entry: 'index.html', fileCount: 5 },
      ],
    });
    const current = (await get(`${LIST}/${container.id}/preview`, admin)).json() as ContainerPreview;
    expect(current.version).toBe(2);
    expect((await get(current.url, null)).body).toBe('<p>v2</p>');
    const old = (await get(`${LIST}/${container.id}/preview?version=1`, admin)).json() as ContainerPreview;
    expect(old).toMatchObject({ version: 1, entry: 'index.html' });
    expect((await get(old.url, null)).body).toContain('<p>v1</p>');
    expect((await get(`${LIST}/${container.id}/preview?version=3`, admin)).statusCode).toBe(404);
    expect((await get(`${LIST}/${container.id}/preview?version=x`, admin)).statusCode).toBe(400);
    const audits = await t.app.ctx.db
      .select()
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.action, 'content.container.version'),
          eq(auditEvents.entityId, String(container.id)),
        ),
      );
    expect(audits.map((a) => a.details)).toEqual([
      { version: 2, entry: 'start.html', fileCount: 2, name: 'Лампочки 2' },
    ]);
  });

  it('an entry named in the form wins over index.html; the only html file at the root is found', async () => {
    expect((await create('Один файл', { 'task.html': '<p/>', 'bundles/a.js': '1' })).entry).toBe('task.html');
    expect(
      (await create('Названный', { 'index.html': '<p/>', 'b.html': '<p/>' }, { entry: 'b.html' })).entry,
    ).toBe('b.html');
  });
});

describe('a task with the container in the participant’s runner', () => {
  it('is attached through the task call and served by a signed link of the version the work began with', async () => {
    const c = await create('Для задания', { 'index.html': '<p>first</p>' });
    const org = await createOrg(t.app);
    const pt = await createParticipantTest(t.app, org);
    const variant = await createVariantWithTasks(t.app, pt.subjectTestId, [
      { answerType: 'short_text', content: { maxLength: 10 }, reference: { accepted: ['1'] } },
    ]);
    const taskId = variant.taskIds[0]!;
    const task = (await get(`/api/admin/content/tasks/${taskId}`, admin)).json();
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/content/tasks/${taskId}`,
      headers: admin.headers,
      payload: {
        html: task.html,
        answerType: task.answerType,
        content: task.content,
        reference: task.reference,
        scoring: task.scoring,
        maxScore: task.maxScore,
        htmlContainerId: c.id,
      },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().htmlContainerId).toBe(c.id);
    expect((await get(LIST, admin)).json().find((x: AdminHtmlContainer) => x.id === c.id).taskCount).toBe(1);

    // Version 1 was there an hour before the work began; version 2 comes during the work.
    await t.app.ctx.db
      .update(htmlContainerVersions)
      .set({ createdAt: new Date(Date.now() - 3_600_000) })
      .where(eq(htmlContainerVersions.containerId, c.id));
    await createExamWork(t.app, pt.participantTestId, variant.variantId, {
      startedAt: new Date(Date.now() - 60_000),
    });
    const participant = (await signedInParticipant(t.app, pt)).session;
    const v2 = await upload(`${LIST}/${c.id}/versions`, admin, {}, zipOf({ 'index.html': '<p>second</p>' }));
    expect(v2.json().currentVersion).toBe(2);

    const meta = await get(`/api/KimHtmlContainer/${c.id}`, participant);
    expect(meta.statusCode, meta.body).toBe(200);
    expect(meta.json()).toMatchObject({ id: c.id, version: 1, entry: 'index.html' });
    expect(meta.json().url).toMatch(new RegExp(`^/api/kim/htmlContainer/${c.id}/1/index\\?sig=`));
    const page = await get(meta.json().url, null);
    expect(page.statusCode).toBe(200);
    expect(page.body).toBe('<p>first</p>');
    // Staff see the current version.
    expect((await get(`/api/KimHtmlContainer/${c.id}`, admin)).json().version).toBe(2);
    // A container of no task of the participant's variant stays closed to them.
    const other = await create('Чужой', { 'index.html': '<p/>' });
    expect((await get(`/api/KimHtmlContainer/${other.id}`, participant)).statusCode).toBe(403);
  });
});
