import { describe, expect, it } from 'vitest';
import type { IncomingHttpHeaders } from 'node:http';
import { sniffFile } from '../../lib/file-sniff.js';
import { PNG } from './test-support.js';
import {
  createUrlFetcher,
  isPrivateAddress,
  type ResolvedAddress,
  type Resolver,
  type Transport,
} from './url-fetcher.js';

/* No real network: a fake resolver answers DNS, a fake transport answers HTTP and records calls. */

const PUBLIC: ResolvedAddress = { address: '93.184.216.34', family: 4 };

function fakeResolver(answers: Record<string, ResolvedAddress[]>): Resolver {
  return async (host) => {
    const hit = answers[host];
    if (!hit) throw new Error('ENOTFOUND');
    return hit;
  };
}

interface Reply {
  status?: number;
  headers?: IncomingHttpHeaders;
  body?: Buffer[];
}
function fakeTransport(replies: Record<string, Reply>) {
  const calls: { url: string; address: string }[] = [];
  const transport: Transport = async (url, address) => {
    calls.push({ url: url.toString(), address: address.address });
    const reply = replies[url.toString()] ?? { status: 404 };
    return {
      status: reply.status ?? 200,
      headers: reply.headers ?? {},
      body: (async function* () {
        yield* reply.body ?? [];
      })(),
    };
  };
  return { transport, calls };
}

const fetcherWith = (
  replies: Record<string, Reply>,
  answers: Record<string, ResolvedAddress[]>,
  maxBytes = 1000,
) => {
  const fake = fakeTransport(replies);
  const fetch = createUrlFetcher({
    allowlist: ['files.example.org', 'rebind.example.org', '127.0.0.1'],
    maxBytes,
    resolve: fakeResolver(answers),
    transport: fake.transport,
  });
  return { fetch, calls: fake.calls };
};

describe('createUrlFetcher', () => {
  it('fetches from an allowlisted host, connecting to the address it checked', async () => {
    const { fetch, calls } = fetcherWith(
      { 'https://files.example.org/img/%D1%80%D0%B8%D1%81.png': { body: [PNG] } },
      { 'files.example.org': [PUBLIC] },
    );
    const file = await fetch('https://files.example.org/img/%D1%80%D0%B8%D1%81.png');
    expect(file.name).toBe('рис.png');
    expect(file.data.equals(PNG)).toBe(true);
    expect(calls).toEqual([
      { url: 'https://files.example.org/img/%D1%80%D0%B8%D1%81.png', address: PUBLIC.address },
    ]);
    expect(sniffFile(file.data, file.name)?.mime).toBe('image/png');
  });

  it('is off with an empty allowlist', async () => {
    const fetch = createUrlFetcher({ allowlist: [], maxBytes: 10 });
    await expect(fetch('https://files.example.org/a')).rejects.toMatchObject({
      status: 403,
      code: 'not_allowed',
    });
  });

  it('refuses http, other ports, credentials, and hosts off the allowlist before any lookup', async () => {
    const { fetch, calls } = fetcherWith({}, {});
    await expect(fetch('http://files.example.org/a')).rejects.toMatchObject({
      status: 400,
      code: 'https_required',
    });
    await expect(fetch('ftp://files.example.org/a')).rejects.toMatchObject({ code: 'https_required' });
    await expect(fetch('https://files.example.org:8443/a')).rejects.toMatchObject({ code: 'not_allowed' });
    await expect(fetch('https://u:p@files.example.org/a')).rejects.toMatchObject({ code: 'invalid_url' });
    await expect(fetch('https://evil.example.com/a')).rejects.toMatchObject({
      status: 403,
      code: 'not_allowed',
    });
    await expect(fetch('https://files.example.org.evil.com/a')).rejects.toMatchObject({
      code: 'not_allowed',
    });
    await expect(fetch('not a url')).rejects.toMatchObject({ code: 'invalid_url' });
    expect(calls).toEqual([]);
  });

  it('never connects to a host that resolves to loopback or a private address', async () => {
    const { fetch, calls } = fetcherWith(
      {},
      {
        'files.example.org': [{ address: '127.0.0.1', family: 4 }],
        'rebind.example.org': [PUBLIC, { address: '10.0.0.5', family: 4 }],
      },
    );
    await expect(fetch('https://files.example.org/a')).rejects.toMatchObject({
      status: 403,
      code: 'not_allowed',
    });
    await expect(fetch('https://rebind.example.org/a')).rejects.toMatchObject({ code: 'not_allowed' });
    await expect(fetch('https://127.0.0.1/a')).rejects.toMatchObject({ code: 'not_allowed' });
    expect(calls).toEqual([]);
  });

  it('follows redirects only within the same host, checking each hop', async () => {
    const { fetch, calls } = fetcherWith(
      {
        'https://files.example.org/old': { status: 302, headers: { location: '/new' } },
        'https://files.example.org/new': { body: [PNG] },
        'https://files.example.org/away': {
          status: 301,
          headers: { location: 'https://evil.example.com/x' },
        },
        'https://files.example.org/http': {
          status: 301,
          headers: { location: 'http://files.example.org/x' },
        },
      },
      { 'files.example.org': [PUBLIC] },
    );
    expect((await fetch('https://files.example.org/old')).name).toBe('new');
    await expect(fetch('https://files.example.org/away')).rejects.toMatchObject({ code: 'not_allowed' });
    await expect(fetch('https://files.example.org/http')).rejects.toMatchObject({ code: 'https_required' });
    expect(calls.map((c) => c.url)).not.toContain('https://evil.example.com/x');
  });

  it('caps the size (declared or streamed) and reports upstream errors', async () => {
    const { fetch } = fetcherWith(
      {
        'https://files.example.org/declared': { headers: { 'content-length': '5000' }, body: [PNG] },
        'https://files.example.org/streamed': { body: [Buffer.alloc(600), Buffer.alloc(600)] },
        'https://files.example.org/gone': { status: 500 },
      },
      { 'files.example.org': [PUBLIC] },
    );
    await expect(fetch('https://files.example.org/declared')).rejects.toMatchObject({ status: 413 });
    await expect(fetch('https://files.example.org/streamed')).rejects.toMatchObject({ status: 413 });
    await expect(fetch('https://files.example.org/gone')).rejects.toMatchObject({ status: 502 });
    await expect(fetch('https://files.example.org/missing')).rejects.toMatchObject({
      code: 'upstream_failed',
    });
  });

  it('gives up after the timeout', async () => {
    const fetch = createUrlFetcher({
      allowlist: ['files.example.org'],
      maxBytes: 10,
      timeoutMs: 30,
      resolve: fakeResolver({ 'files.example.org': [PUBLIC] }),
      transport: (_url, _address, signal) =>
        new Promise((_resolve, reject) =>
          signal.addEventListener('abort', () => reject(new Error('aborted'))),
        ),
    });
    await expect(fetch('https://files.example.org/slow')).rejects.toMatchObject({
      status: 504,
      code: 'upstream_timeout',
    });
  });
});

describe('isPrivateAddress', () => {
  it.each([
    ['127.0.0.1', true],
    ['10.1.2.3', true],
    ['172.20.0.1', true],
    ['192.168.1.1', true],
    ['169.254.169.254', true],
    ['100.64.0.1', true],
    ['0.0.0.0', true],
    ['::1', true],
    ['::ffff:127.0.0.1', true],
    ['::ffff:7f00:1', true],
    ['::ffff:5db8:d822', false],
    ['fe80::1', true],
    ['fd00::1', true],
    ['not-an-ip', true],
    ['93.184.216.34', false],
    ['2a00:1450:4010:c05::64', false],
  ])('%s → %s', (address, expected) => {
    expect(isPrivateAddress(address)).toBe(expected);
  });
});
