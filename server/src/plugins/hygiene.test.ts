import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS, ROLES, type Role } from '@attesta/contract';
import {
  countRows,
  createOrg,
  createTestApp,
  signedIn,
  signedInScoped,
  type Session,
  type TestApp,
} from '../../test/helpers.js';
import { createRoom, startWork, T, type Room } from '../modules/exam-test/test-support.js';

// Text that is not valid Unicode answers 400 `invalid_text` from one place (plugins/hygiene.ts)
// wherever it appears — never a 500, never a change. Every API response is `no-store`, and every
// error, also those Fastify and Node answer themselves, has the `{status, code, message}` body.

const NUL = '\u0000';
const LONE = '\uD800';
const BAD = [
  ['NUL', NUL],
  ['a lone surrogate', LONE],
] as const;

let t: TestApp;
let admin: Session;
let room: Room;
let workId: number;
const sessionsByRole = new Map<Role, Session>();

beforeAll(async () => {
  t = await createTestApp();
  admin = (await signedIn(t.app, ['admin'])).session;
  room = await createRoom(t.app);
  workId = await startWork(room);
  for (const role of ROLES) sessionsByRole.set(role, (await signedIn(t.app, [role])).session);
});
afterAll(async () => t.close());

const expectInvalidText = (res: { statusCode: number; json(): unknown }) => {
  expect(res.statusCode).toBe(400);
  expect(res.json()).toMatchObject({ status: 400, code: 'invalid_text' });
};

describe('invalid text is refused with 400 invalid_text and changes nothing', () => {
  it.each(BAD)('saveanswer with %s in the answer', async (_name, bad) => {
    const variantTaskId = room.variantTaskIds[T.short]!;
    const res = await room.api.put('saveanswer', {
      examWorkId: workId,
      variantTaskId,
      value: `x${bad}y`,
      seq: 1,
    });
    expectInvalidText(res);
    expect(await countRows(t.database, 'answers', `exam_work_id = ${workId}`)).toBe(0);
  });

  it.each(BAD)('login with %s in the login or the code', async (_name, bad) => {
    for (const payload of [{ login: `admin${bad}`, password: 'x' }, { activationCode: `AB${bad}CD` }]) {
      const res = await t.app.inject({ method: 'POST', url: '/api/Account/login', payload });
      expectInvalidText(res);
    }
  });

  it('login with an escaped lone surrogate in raw JSON', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/Account/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"login":"a\\ud800b","password":"x"}',
    });
    expectInvalidText(res);
  });

  it.each(BAD)('a student name with %s', async (_name, bad) => {
    const org = await createOrg(t.app);
    const { session: coordinator } = await signedInScoped(t.app, ['coordinator'], { schoolId: org.schoolId });
    const before = await countRows(t.database, 'students');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/coordinator/student',
      headers: coordinator.headers,
      payload: { surname: `Ив${bad}анов`, name: 'Иван', birthDate: '2010-01-01', classId: org.classId },
    });
    expectInvalidText(res);
    expect(await countRows(t.database, 'students')).toBe(before);
  });

  it.each(BAD)('a list search with %s', async (_name, bad) => {
    const org = await createOrg(t.app);
    const { session: coordinator } = await signedInScoped(t.app, ['coordinator'], { schoolId: org.schoolId });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/coordinator/student/list',
      headers: coordinator.headers,
      payload: { page: 1, pageSize: 10, filter: { search: `Ив${bad}` } },
    });
    expectInvalidText(res);
  });

  it.each(BAD)('feedback with %s', async (_name, bad) => {
    const before = await countRows(t.database, 'feedback');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/feedback/1',
      headers: sessionsByRole.get('guest')!.headers,
      payload: { subject: 'Вопрос', text: `текст${bad}` },
    });
    expectInvalidText(res);
    expect(await countRows(t.database, 'feedback')).toBe(before);
  });

  it.each(BAD)('a guest profile with %s', async (_name, bad) => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/Profile/guest/saveProfile',
      headers: sessionsByRole.get('guest')!.headers,
      payload: { surname: `Пет${bad}ров`, name: 'Пётр' },
    });
    expectInvalidText(res);
  });

  it('a container path with an encoded NUL or an encoded lone surrogate', async () => {
    for (const resource of ['a%00b.html', 'a%ED%A0%80b.html', 'a%ED%B0%80b.html']) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/kim/htmlContainer/1/1/${resource}`,
        headers: room.session.headers,
      });
      expectInvalidText(res);
    }
  });

  it('a query string with an encoded NUL, even where the value would be used as is', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/Account/hashpassword?pass=a%00b',
      headers: admin.headers,
    });
    expectInvalidText(res);
  });

  it('every call of the contract: NUL in the query (any caller) and in a JSON body (an allowed role)', async () => {
    const concrete = (path: string) =>
      path.replace(/\{(\w+)\}/g, (_m, name: string) => (name === 'publish' ? 'true' : '1'));
    const problems: string[] = [];
    for (const e of ENDPOINTS) {
      const url = concrete(e.path);
      const role = e.roles === 'anon' || e.roles === 'any' ? 'admin' : (e.roles[0] as Role);
      const headers = sessionsByRole.get(role)!.headers;
      const byQuery = await t.app.inject({ method: e.method, url: `${url}?x=%00`, headers });
      if (byQuery.statusCode !== 400 || byQuery.json().code !== 'invalid_text')
        problems.push(`${e.method} ${e.path} query: ${byQuery.statusCode} ${byQuery.body.slice(0, 80)}`);
      if (e.method === 'GET' || e.method === 'DELETE') continue;
      const byBody = await t.app.inject({
        method: e.method,
        url,
        headers,
        payload: { x: NUL, items: [LONE] },
      });
      if (byBody.statusCode >= 500) problems.push(`${e.method} ${e.path} body: ${byBody.statusCode}`);
      else if (byBody.statusCode === 400 && byBody.json().code !== 'invalid_text')
        problems.push(`${e.method} ${e.path} body: 400 ${byBody.json().code}`);
    }
    expect(problems).toEqual([]);
  });
});

describe('responses', () => {
  it('API responses, errors included, are never cached', async () => {
    for (const [url, headers] of [
      ['/api/user', admin.headers],
      ['/api/user', {}],
      ['/api/nope', admin.headers],
      ['/api/exam/test/variant/current', room.session.headers],
    ] as const) {
      const res = await t.app.inject({ method: 'GET', url, headers });
      expect(res.headers['cache-control'], url).toBe('no-store');
    }
  });

  it('a URL the router cannot decode answers in the error body', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/user/%E0%A4%A', headers: admin.headers });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ status: 400, code: 'invalid_text', message: expect.any(String) });
  });

  it('Fastify’s own errors answer in the error body', async () => {
    const cases = [
      { payload: '{', type: 'application/json', status: 400, code: 'malformed_json' },
      { payload: 'x'.repeat(2_000_000), type: 'application/json', status: 413, code: 'payload_too_large' },
      { payload: '<a/>', type: 'application/x-unknown', status: 415, code: 'unsupported_media_type' },
    ];
    for (const c of cases) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/Account/login',
        headers: { 'content-type': c.type },
        payload: c.payload,
      });
      expect(res.statusCode, c.code).toBe(c.status);
      expect(res.json()).toEqual({ status: c.status, code: c.code, message: expect.any(String) });
    }
    const missing = await t.app.inject({ method: 'PATCH', url: '/api/user', headers: admin.headers });
    expect(missing.json()).toMatchObject({ status: 404, code: 'not_found' });
  });

  it('a request whose headers are too large gets 431 in the error body (Node answers it)', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const answer = await new Promise<{ status: number; body: string; type: string }>((resolve, reject) => {
      const req = httpRequest(
        { host: '127.0.0.1', port, path: '/api/user', headers: { 'x-big': 'a'.repeat(100_000) } },
        (res) => {
          let body = '';
          res.on('data', (chunk) => (body += chunk));
          res.on('end', () =>
            resolve({ status: res.statusCode!, body, type: String(res.headers['content-type']) }),
          );
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(answer.status).toBe(431);
    expect(answer.type).toContain('application/json');
    expect(JSON.parse(answer.body)).toEqual({
      status: 431,
      code: 'request_header_too_large',
      message: expect.any(String),
    });
  });
});
