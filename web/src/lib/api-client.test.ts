import { describe, expect, it, vi } from 'vitest';
import { errorBodySchema } from '@attesta/contract';
import {
  ApiError,
  createApiClient,
  errorBodyOf,
  errorPagePath,
  isSyncStyleCall,
  unauthorizedPath,
} from './api-client';

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    statusText:
      {
        200: 'OK',
        401: 'Unauthorized',
        404: 'Not Found',
        429: 'Too Many Requests',
        500: 'Internal Server Error',
        501: 'Not Implemented',
      }[status] ?? '',
    headers: { 'content-type': 'application/json', ...headers },
  });

function setup(
  respond: (url: string, init: RequestInit) => Response | Promise<Response>,
  token: string | null = null,
) {
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) =>
    respond(String(input), init ?? {}),
  );
  const navigate = vi.fn();
  const logger = { error: vi.fn() };
  const client = createApiClient({
    fetch: fetch as unknown as typeof globalThis.fetch,
    navigate,
    logger,
    getToken: () => token,
    currentPath: () => '/coordinator?tab=2',
  });
  return { client, fetch, navigate, logger };
}

const errorBody = (status: number, code: string, message = code, errors?: unknown) => ({
  status,
  code,
  message,
  errors,
});

describe('api client: requests', () => {
  it('sends JSON with credentials, the anti-CSRF header, and returns the parsed answer', async () => {
    const { client, fetch } = setup(() => json(200, { ok: true }));
    await expect(client.post('/api/Account/Register', { email: 'a@b.ru' })).resolves.toEqual({ ok: true });
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('/api/Account/Register');
    expect(init).toMatchObject({ method: 'POST', credentials: 'same-origin', body: '{"email":"a@b.ru"}' });
    expect(init!.headers).toMatchObject({
      'X-Requested-With': 'XMLHttpRequest',
      'Content-Type': 'application/json',
      Accept: 'application/json',
    });
    expect(init!.headers).not.toHaveProperty('Authorization');
  });

  it('sends the anti-CSRF header on GETs too, the bearer token when one is stored, and the query', async () => {
    const { client, fetch } = setup(() => json(200, []), 'tok-1');
    await client.get('/api/exam/test/parallels', { query: { TestId: 7, skip: undefined, flag: false } });
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('/api/exam/test/parallels?TestId=7&flag=false');
    expect(init!.headers).toMatchObject({
      'X-Requested-With': 'XMLHttpRequest',
      Authorization: 'Bearer tok-1',
    });
    expect(init!.body).toBeUndefined();
  });

  it('returns undefined for an empty answer and text for non-JSON answers', async () => {
    const { client } = setup((url) =>
      url.endsWith('empty')
        ? new Response(null, { status: 204 })
        : new Response('2025-01-01T10:00:00Z', { status: 200, headers: { 'content-type': 'text/plain' } }),
    );
    await expect(client.post('/api/x/empty')).resolves.toBeUndefined();
    await expect(client.get('/api/x/text')).resolves.toBe('2025-01-01T10:00:00Z');
  });
});

describe('api client: failure rules', () => {
  it('401 → unauthorized page with the current page as return address, and throws ApiError', async () => {
    const { client, navigate } = setup(() => json(401, errorBody(401, 'session_expired', 'Session expired')));
    const error = await client.get('/api/coordinator/student/5').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 401, code: 'session_expired', message: 'Session expired' });
    expect(navigate).toHaveBeenCalledWith('/unauthorized?returnUrl=%2Fcoordinator%3Ftab%3D2');
  });

  it.each([403, 404, 409, 429, 500, 501])('%i → general error page with status and code', async (status) => {
    const { client, navigate } = setup(() => json(status, errorBody(status, 'some_code', 'Что-то не так')));
    await expect(client.post('/api/ugnik/diagnostic/list', {})).rejects.toMatchObject({
      status,
      code: 'some_code',
    });
    expect(navigate).toHaveBeenCalledTimes(1);
    const target = new URL(navigate.mock.calls[0]![0] as string, 'http://x');
    expect(target.pathname).toBe('/error');
    expect(target.searchParams.get('status')).toBe(String(status));
    expect(target.searchParams.get('code')).toBe('some_code');
    expect(target.searchParams.get('message')).toBe('Что-то не так');
  });

  it('a non-JSON failure (proxy page) still goes to the error page', async () => {
    const { client, navigate } = setup(
      () => new Response('<html>Bad gateway</html>', { status: 502, statusText: 'Bad Gateway' }),
    );
    await expect(client.get('/api/kim/parallels')).rejects.toMatchObject({
      status: 502,
      code: 'http_502',
      message: 'Bad Gateway',
    });
    expect(navigate).toHaveBeenCalledWith('/error?status=502&code=http_502&message=Bad+Gateway');
  });

  it('a failure while sending → error page with the error serialized into the query', async () => {
    const { client, navigate } = setup(() => {
      throw new TypeError('Failed to fetch');
    });
    const error = await client.get('/api/kim/parallels').catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 0, code: 'network_error', isNetworkError: true });
    const target = new URL(navigate.mock.calls[0]![0] as string, 'http://x');
    expect(target.pathname).toBe('/error');
    expect(JSON.parse(target.searchParams.get('error')!)).toEqual({
      name: 'TypeError',
      message: 'Failed to fetch',
    });
  });

  it('suppressRedirect leaves every failure to the caller but a gone session', async () => {
    const { client, navigate } = setup((url) => {
      if (url.includes('net')) throw new TypeError('offline');
      return json(401, errorBody(401, 'invalid_credentials', 'bad'));
    });
    await expect(client.post('/api/Account/login', {}, { suppressRedirect: true })).rejects.toMatchObject({
      code: 'invalid_credentials',
    });
    await expect(client.get('/api/net', { suppressRedirect: true })).rejects.toMatchObject({
      code: 'network_error',
    });
    expect(navigate).not.toHaveBeenCalled();
  });

  it.each(['unauthorized', 'session_expired'])(
    'a gone session (401 %s) leaves for the unauthorized page even when the caller suppressed redirects',
    async (code) => {
      const { client, navigate } = setup(() => json(401, errorBody(401, code)));
      await expect(client.get('/api/kim/parallels', { suppressRedirect: true })).rejects.toMatchObject({
        code,
      });
      expect(navigate).toHaveBeenCalledTimes(1);
      expect(navigate).toHaveBeenCalledWith(expect.stringMatching(/^\/unauthorized/));
    },
  );

  it.each([
    ['GET', '/api/user'],
    ['GET', '/api/user/hasSession'],
    ['GET', '/api/User/SessionTime'],
    ['POST', '/api/Account/LogOff'],
  ] as const)('%s %s only logs status and status text', async (method, path) => {
    const { client, navigate, logger } = setup(() => json(401, errorBody(401, 'unauthorized')));
    await expect(client.request(path, { method })).rejects.toBeInstanceOf(ApiError);
    expect(navigate).not.toHaveBeenCalled();
    expect(logger.error).toHaveBeenCalledWith(`${method} ${path}: 401 Unauthorized`);
  });

  it('synchronous-style calls also only log a failure while sending', async () => {
    const { client, navigate, logger } = setup(() => {
      throw new TypeError('Failed to fetch');
    });
    await expect(client.get('/api/user')).rejects.toMatchObject({ code: 'network_error' });
    expect(navigate).not.toHaveBeenCalled();
    expect(logger.error).toHaveBeenCalledWith('GET /api/user: Failed to fetch');
  });

  it('carries field errors and Retry-After', async () => {
    const { client } = setup(() =>
      json(
        429,
        errorBody(429, 'too_many_requests', 'slow down', [{ path: 'body.email', message: 'taken' }]),
        { 'Retry-After': '90' },
      ),
    );
    const error = (await client
      .post('/api/Account/login', {}, { suppressRedirect: true })
      .catch((e: unknown) => e)) as ApiError;
    expect(error.retryAfterSeconds).toBe(90);
    expect(error.fieldErrors).toEqual([{ path: 'body.email', message: 'taken' }]);
  });

  it('treats an answer of the wrong shape as a failure', async () => {
    const { client, navigate } = setup(() => json(200, { nope: 1 }));
    const parse = (data: unknown) => {
      if (!data || typeof data !== 'object' || !('id' in data)) throw new Error('bad shape');
      return data;
    };
    await expect(client.get('/api/thing', { parse })).rejects.toMatchObject({ code: 'invalid_response' });
    expect(navigate.mock.calls[0]![0]).toMatch(/^\/error\?status=200&code=invalid_response/);
  });

  it('does not redirect when its owner cancels the request', async () => {
    const controller = new AbortController();
    const { client, navigate } = setup(() => {
      controller.abort();
      throw new DOMException('aborted', 'AbortError');
    });
    await expect(client.get('/api/kim/parallels', { signal: controller.signal })).rejects.toThrow('aborted');
    expect(navigate).not.toHaveBeenCalled();
  });

  it('redirectFor applies the default rule to an error the caller could not handle', () => {
    const { client, navigate } = setup(() => json(200, {}));
    client.redirectFor(new ApiError({ status: 500, code: 'internal_error', message: 'x' }));
    expect(navigate).toHaveBeenCalledWith('/error?status=500&code=internal_error&message=x');
  });
});

describe('api client helpers', () => {
  it('recognises synchronous-style calls case-insensitively', () => {
    expect(isSyncStyleCall('GET', '/API/USER')).toBe(true);
    expect(isSyncStyleCall('GET', '/api/user/5')).toBe(false);
    expect(isSyncStyleCall('POST', '/api/user')).toBe(false);
  });

  it('does not use login or error pages as return address', () => {
    expect(unauthorizedPath('/login?returnUrl=%2Fadmin')).toBe('/unauthorized');
    expect(unauthorizedPath('/')).toBe('/unauthorized');
    expect(unauthorizedPath('/admin')).toBe('/unauthorized?returnUrl=%2Fadmin');
  });

  it('serializes send errors as {name,message}', () => {
    const error = new ApiError({
      status: 0,
      code: 'network_error',
      message: 'x',
      cause: new TypeError('Load failed'),
    });
    expect(errorPagePath(error)).toBe(
      `/error?error=${encodeURIComponent('{"name":"TypeError","message":"Load failed"}')}`,
    );
  });
});

describe('errorBodyOf', () => {
  // The error body is read without zod (the first chunks carry none): it must say what the
  // contract's schema says, for good bodies and bad ones.
  const bodies: unknown[] = [
    { status: 400, code: 'validation', message: 'bad' },
    { status: 400, code: 'validation', message: 'bad', extra: 1 },
    {
      status: 400,
      code: 'validation',
      message: 'bad',
      errors: [
        { path: 'body.login', message: 'too short', code: 'too_small', params: { minimum: 1, name: 'x' } },
      ],
    },
    { status: 400, code: 'validation', message: 'bad', errors: [{ path: 'a', message: 'b', other: true }] },
    { status: 400, code: 'validation', message: 'bad', errors: [{ path: 'a' }] },
    {
      status: 400,
      code: 'validation',
      message: 'bad',
      errors: [{ path: 'a', message: 'b', params: { n: true } }],
    },
    {
      status: 400,
      code: 'validation',
      message: 'bad',
      errors: [{ path: 'a', message: 'b', params: { n: Infinity } }],
    },
    { status: 400, code: 'validation', message: 'bad', errors: [{ path: 'a', message: 'b', code: 3 }] },
    { status: 400, code: 'validation', message: 'bad', errors: 'no' },
    { status: 400, code: 'validation', message: 'bad', errors: null },
    { status: 400.5, code: 'x', message: 'y' },
    { status: '400', code: 'x', message: 'y' },
    { status: 400, code: 'x' },
    { status: 400, message: 'y' },
    [],
    null,
    'text',
    42,
  ];
  it.each(bodies.map((body) => [JSON.stringify(body) ?? String(body), body]))(
    'agrees with errorBodySchema: %s',
    (_, body) => {
      const parsed = errorBodySchema.safeParse(body);
      expect(errorBodyOf(body)).toEqual(parsed.success ? parsed.data : null);
    },
  );
});
