import { describe, expect, it, vi } from 'vitest';
import { ApiError, createApiClient } from './api-client';
import { call, callPath } from './call';

// The typed client: the path comes from the contract row with its params filled in, the answer is
// parsed by the row's response schema, and a call or a param the contract does not have does not
// compile.

function client(answer: unknown) {
  const fetch = vi.fn(
    async (_input: RequestInfo | URL, _init?: RequestInit) =>
      new Response(JSON.stringify(answer), { status: 200, headers: { 'content-type': 'application/json' } }),
  );
  return {
    fetch,
    api: createApiClient({ fetch: fetch as unknown as typeof globalThis.fetch, navigate: vi.fn() }),
  };
}

const left = {
  examWorkId: 7,
  secondsLeft: 60,
  deadlineAt: '2030-01-01T10:00:00.000Z',
  status: 'in_progress',
  paused: false,
  serverTime: '2030-01-01T09:59:00.000Z',
};

describe('call', () => {
  it('fills the path from the row, sends the body and parses the answer', async () => {
    const { fetch, api } = client({ examWorkId: 7, flags: [3] });
    const result = await call(
      'PUT /api/exam/test/examwork/{examWorkId}/{variantTaskId}/flag',
      { params: { examWorkId: 7, variantTaskId: 3 }, body: { flagged: true } },
      {},
      api,
    );
    expect(result.flags).toEqual([3]);
    const [url, init] = fetch.mock.calls[0]!;
    expect(String(url)).toBe('/api/exam/test/examwork/7/3/flag');
    expect(init?.method).toBe('PUT');
    expect(JSON.parse(String(init?.body))).toEqual({ flagged: true });
  });

  it('sends the query and no body on a GET', async () => {
    const { fetch, api } = client(left);
    const result = await call('GET /api/exam/test/examwork/left/{id}', { params: { id: 7 } }, {}, api);
    expect(result.secondsLeft).toBe(60);
    expect(fetch.mock.calls[0]![1]?.body).toBeUndefined();
  });

  it('an answer of another shape is a failure, not data', async () => {
    const { api } = client({ nonsense: true });
    const failed = await call('GET /api/exam/test/examwork/left/{id}', { params: { id: 7 } }, {}, api).catch(
      (e: unknown) => e,
    );
    expect(failed).toBeInstanceOf(ApiError);
    expect((failed as ApiError).code).toBe('invalid_response');
  });

  it('sends a raw body as is with its content type and still parses the answer by the row', async () => {
    const imported = { created: 1, existing: 0, studentsCreated: 1, items: [] };
    const { fetch, api } = client(imported);
    const xml = '<participantTests diagnosticCode="D1"/>';
    const importXml = 'POST /api/ParticipantTest/participantTestImportFromXml' as const;
    const result = await call(importXml, { body: xml }, { raw: { contentType: 'application/xml' } }, api);
    expect(result.created).toBe(1);
    const [url, init] = fetch.mock.calls[0]!;
    expect(String(url)).toBe('/api/ParticipantTest/participantTestImportFromXml');
    expect(init?.method).toBe('POST');
    expect(init?.body).toBe(xml);
    expect((init?.headers as Record<string, string>)['Content-Type']).toBe('application/xml');

    const other = client({ nonsense: true });
    const failed = await call(
      importXml,
      { body: xml },
      { raw: { contentType: 'application/xml' } },
      other.api,
    ).catch((e: unknown) => e);
    expect((failed as ApiError).code).toBe('invalid_response');
  });

  it('escapes path params and refuses a missing one', () => {
    expect(callPath('GET /api/results/verify/{code}', { code: 'a/b?c' })).toBe(
      '/api/results/verify/a%2Fb%3Fc',
    );
    expect(() => callPath('GET /api/results/verify/{code}')).toThrow(/no value for \{code\}/);
  });

  it('types keys and params by the contract', () => {
    // The checks below are for the compiler (npm run typecheck); at run time they only build calls.
    const never = () => {
      // @ts-expect-error not a call of the contract
      void call('GET /api/no/such/call', {});
      const finish = 'PUT /api/exam/test/examwork/finish/{examWorkId}/{reason}' as const;
      // @ts-expect-error the row names its param `examWorkId`, not `id`
      void call(finish, { params: { id: 1, reason: 'manual' } });
      // @ts-expect-error `reason` is one of the contract's values
      void call(finish, { params: { examWorkId: 1, reason: 'x' } });
      const importXml = 'POST /api/ParticipantTest/participantTestImportFromXml' as const;
      const raw = { raw: { contentType: 'application/xml' } };
      // @ts-expect-error the XML import's body is the document (a string), whatever its content type
      void call(importXml, { body: { xml: '' } }, raw);
    };
    expect(typeof never).toBe('function');
  });
});
