import { Writable } from 'node:stream';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp, loggerOptions } from '../app.js';
import type { Database } from '../db/client.js';
import { redactUrl } from '../lib/log-safety.js';
import { mailOutbox } from '../db/schema/index.js';
import { createTestDatabase, testConfig } from '../../test/helpers.js';
import { createRoom, startWork, T, type Room } from '../modules/exam-test/test-support.js';

// Logs never carry SQL parameters, request bodies, answer text, file bytes, activation or
// verification codes, or e-mailed tokens: every line the server writes while doing those things
// is captured and searched for them.

const lines: string[] = [];
const capture = new Writable({
  write(chunk, _enc, done) {
    lines.push(...String(chunk).split('\n').filter(Boolean));
    done();
  },
});

let app: FastifyInstance;
let database: Database;
let room: Room;

beforeAll(async () => {
  database = await createTestDatabase();
  // Every request logged (LOG_REQUESTS=all), so that its URL too is searched for secrets.
  const config = testConfig({ LOG_LEVEL: 'info', LOG_REQUESTS: 'all' });
  app = await buildApp(config, {
    database,
    web: false,
    logger: { ...(loggerOptions(config) as object), level: 'info', stream: capture },
  });
  // A route that fails inside a statement, as a bug would: the 500 path logs the error. Outside
  // /api, where every route must be a call of the contract.
  app.get('/test-only/failing-statement', async () => {
    await app.ctx.db.execute(sql`select ${'ZZPARAMSECRETZZ'}::int`);
  });
  await app.ready();
  room = await createRoom(app);
});
afterAll(async () => {
  await app.close();
  await database.close();
});

const logText = () => lines.join('\n');

describe('logs', () => {
  it('carry no activation code, answer text, file bytes, SQL parameter or mailed token', async () => {
    const code = room.activationCode;
    const check = await app.inject({ method: 'GET', url: `/api/exam/test/checkActivationCode/${code}` });
    expect(check.statusCode).toBe(200);
    const login = await app.inject({
      method: 'POST',
      url: '/api/Account/login',
      payload: { activationCode: code },
    });
    expect(login.statusCode).toBe(200);

    const workId = await startWork(room);
    const answer = 'ZZANSWERTEXTZZ';
    const saved = await room.api.put('saveanswer', {
      examWorkId: workId,
      variantTaskId: room.variantTaskIds[T.short],
      value: answer,
      seq: 1,
    });
    expect(saved.statusCode).toBe(200);

    const boundary = 'zzboundary';
    const fileTask = room.variantTaskIds[T.file]!;
    const multipart =
      `--${boundary}\r\nContent-Disposition: form-data; name="answers"\r\n\r\n` +
      JSON.stringify({
        examWorkId: workId,
        answers: [{ variantTaskId: fileTask, value: { fileIds: [] }, seq: 1 }],
      }) +
      `\r\n--${boundary}\r\nContent-Disposition: form-data; name="file:${fileTask}"; filename="notes.txt"\r\n` +
      `Content-Type: text/plain\r\n\r\nZZFILEBYTESZZ\r\n--${boundary}--\r\n`;
    await app.inject({
      method: 'POST',
      url: '/api/exam/test/saveanswers_with_files',
      headers: { ...room.session.headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: multipart,
    });

    const email = `zz.log.${Date.now()}@example.org`;
    const registered = await app.inject({
      method: 'POST',
      url: '/api/Account/Register',
      payload: {
        email,
        password: 'long enough password',
        surname: 'Логов',
        name: 'Тест',
      },
    });
    expect(registered.statusCode).toBe(200);
    // The mail is sent after the answer (fire-and-forget): wait for its outbox row.
    const mail = await vi.waitFor(async () => {
      const [row] = await app.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.to, email));
      if (!row) throw new Error('no mail yet');
      return row;
    });
    const token = /[?&]token=([\w-]+)/.exec(mail.text)?.[1] ?? /([\w-]{20,})/.exec(mail.text)![1]!;

    const failed = await app.inject({ method: 'GET', url: '/test-only/failing-statement' });
    expect(failed.statusCode).toBe(500);
    expect(failed.json()).toEqual({ status: 500, code: 'internal_error', message: 'Internal error' });

    const text = logText();
    // Fastify's own two lines a request are off: one line of ours (LOG_REQUESTS=all) a request.
    expect(text).not.toMatch(/incoming request|request completed/);
    expect(lines.filter((l) => l.includes('"msg":"request"')).length).toBeGreaterThan(3);
    expect(lines.length).toBeGreaterThan(5);
    for (const secret of [code, code.replace('-', ''), answer, 'ZZFILEBYTESZZ', 'ZZPARAMSECRETZZ', token])
      expect(text, `a log line holds ${secret}`).not.toContain(secret);
    expect(text).not.toMatch(/select .*::int/i);

    // The failed statement is named by its SQLSTATE (22P02: invalid text for an int).
    const failure = lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'unhandled error');
    expect(failure?.err).toMatchObject({ sqlState: '22P02' });
    expect(failure?.err).toMatchObject({ message: 'database error', stack: '' });
    // The request lines are there, with the code masked.
    expect(text).toContain('/api/exam/test/checkActivationCode/***');
  });
});

describe('API keys in a query string', () => {
  it('are redacted from the request log line, whatever the name’s case', async () => {
    const names = ['access_token', 'api_key', 'apikey', 'key', 'ACCESS_TOKEN', 'Api_Key', 'APIKEY', 'Key'];
    for (const [i, name] of names.entries()) {
      const secret = `atk_0123456789ab_ZZKEYSECRET${i}ZZ`;
      const res = await app.inject({ method: 'GET', url: `/api/user?x=1&${name}=${secret}&y=2` });
      expect(res.statusCode).toBe(401);
      const line = lines.find((l) => l.includes(`"msg":"request"`) && l.includes(`&${name}=`));
      expect(line, name).toBeDefined();
      expect(line).toContain(`?x=1&${name}=***&y=2`);
      expect(logText()).not.toContain(secret);
    }
  });
});

describe('redactUrl', () => {
  it('masks codes in paths and secrets in query strings', () => {
    expect(redactUrl('/api/exam/test/checkActivationCode/AB2CD-EF3GH')).toBe(
      '/api/exam/test/checkActivationCode/***',
    );
    expect(redactUrl('/verify/X7Y8Z9?x=1')).toBe('/verify/***?x=1');
    expect(redactUrl('/api/results/verify/X7Y8Z9')).toBe('/api/results/verify/***');
    expect(redactUrl('/api/User?pwd=s3cret&x=1')).toBe('/api/User?pwd=***&x=1');
    expect(redactUrl('/api/Account/hashpassword?pass=abc')).toBe('/api/Account/hashpassword?pass=***');
    expect(redactUrl('/api/kim/htmlContainer/1/2/index?sig=abc.def')).toBe(
      '/api/kim/htmlContainer/1/2/index?sig=***',
    );
    expect(redactUrl('/api/exam/test/saveanswers?registrationCode=123456')).toBe(
      '/api/exam/test/saveanswers?registrationCode=***',
    );
    expect(redactUrl('/api/integration/report/all?apikey=k1&API_KEY=k2&Access_Token=k3&key=k4&keys=1')).toBe(
      '/api/integration/report/all?apikey=***&API_KEY=***&Access_Token=***&key=***&keys=1',
    );
    expect(redactUrl('/api/Account/ObtainLocalAccessToken?provider=oidc&externalAccessToken=t0k')).toBe(
      '/api/Account/ObtainLocalAccessToken?provider=oidc&externalAccessToken=***',
    );
  });
});
