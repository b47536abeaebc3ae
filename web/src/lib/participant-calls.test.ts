import { PARTICIPANT_CALL_SCHEMAS } from '@attesta/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApiClient } from './api-client';
import { call } from './call';
import { PARTICIPANT_CALLS } from './participant-calls';

// The participant's calls by key (lib/participant-calls.ts) are the contract's participant rows,
// no more and no fewer: a row added to the contract and not here would load every call's schemas
// on the exam's path; a key here the contract does not have would skip a staff call's parse.

describe('PARTICIPANT_CALLS', () => {
  it("lists exactly the contract's participant rows", () => {
    expect([...PARTICIPANT_CALLS].sort()).toEqual(Object.keys(PARTICIPANT_CALL_SCHEMAS).sort());
  });
});

function client(answer: unknown) {
  const fetch = vi.fn(
    async () =>
      new Response(JSON.stringify(answer), { status: 200, headers: { 'content-type': 'application/json' } }),
  );
  return createApiClient({ fetch: fetch as unknown as typeof globalThis.fetch, navigate: vi.fn() });
}

describe('call in a production build', () => {
  afterEach(() => vi.unstubAllEnvs());

  it("hands a participant call's answer over as the server sent it (the server's serializer checked it)", async () => {
    vi.stubEnv('PROD', true);
    const odd = { secondsLeft: 'not checked here' };
    await expect(
      call('GET /api/exam/test/examwork/left/{id}', { params: { id: 7 } }, {}, client(odd)),
    ).resolves.toEqual(odd);
  });

  it("still parses a staff call's answer", async () => {
    vi.stubEnv('PROD', true);
    const failed = await call('GET /api/admin/audit/actions', {}, {}, client({ nonsense: true })).catch(
      (e: unknown) => e,
    );
    expect(failed).toMatchObject({ code: 'invalid_response' });
  });

  it("parses a participant call's answer outside a production build", async () => {
    const failed = await call(
      'GET /api/exam/test/examwork/left/{id}',
      { params: { id: 7 } },
      {},
      client({ nonsense: true }),
    ).catch((e: unknown) => e);
    expect(failed).toMatchObject({ code: 'invalid_response' });
  });
});
