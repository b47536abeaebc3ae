import { Writable } from 'node:stream';
import Fastify, { LogController } from 'fastify';
import { describe, expect, it } from 'vitest';
import { requestLogPlugin } from './request-log.js';

/** A bare server with the plugin, its log lines captured (as buildApp: Fastify's own lines off). */
async function serverWith(mode: 'slow' | 'all' | 'none', slowMs: number) {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const app = Fastify({
    logger: { level: 'info', stream },
    logController: new LogController({ disableRequestLogging: true }),
  });
  await app.register(requestLogPlugin, { mode, slowMs });
  app.post('/api/exam/test/checkActivationCode/:code', async () => ({ ok: true }));
  app.get('/slow', async () => {
    await new Promise((r) => setTimeout(r, 300));
    return 'done';
  });
  await app.ready();
  return { app, lines };
}

const request = (lines: Record<string, unknown>[]) =>
  lines.filter((l) => l.msg === 'request' || l.msg === 'slow request');

describe('request log lines', () => {
  it('slow (the default): one warn line for a slow request only, without body or code', async () => {
    // The threshold well above what a fast request takes on a busy machine (one took 22 ms at load 10).
    const { app, lines } = await serverWith('slow', 200);
    await app.inject({
      method: 'POST',
      url: '/api/exam/test/checkActivationCode/SECRET-CODE',
      payload: { a: 'ANSWER' },
    });
    expect(request(lines)).toEqual([]);
    await app.inject({ method: 'GET', url: '/slow' });
    const [line, ...rest] = request(lines);
    expect(rest).toEqual([]);
    expect(line).toMatchObject({
      level: 40,
      msg: 'slow request',
      method: 'GET',
      url: '/slow',
      statusCode: 200,
    });
    expect(line!.ms).toBeGreaterThanOrEqual(200);
    expect(JSON.stringify(lines)).not.toMatch(/incoming request|request completed/);
    await app.close();
  });

  it('all: one info line a request, the URL redacted, no body', async () => {
    const { app, lines } = await serverWith('all', 1000);
    await app.inject({
      method: 'POST',
      url: '/api/exam/test/checkActivationCode/SECRET-CODE',
      payload: { a: 'ANSWER' },
    });
    const [line, ...rest] = request(lines);
    expect(rest).toEqual([]);
    expect(line).toMatchObject({ level: 30, msg: 'request', method: 'POST', statusCode: 200 });
    expect(JSON.stringify(lines)).not.toContain('SECRET-CODE');
    expect(JSON.stringify(lines)).not.toContain('ANSWER');
    await app.close();
  });

  it('none: no request line even for a slow one', async () => {
    const { app, lines } = await serverWith('none', 1);
    await app.inject({ method: 'GET', url: '/slow' });
    expect(request(lines)).toEqual([]);
    await app.close();
  });
});
