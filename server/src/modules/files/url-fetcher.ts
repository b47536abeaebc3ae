import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpsRequest } from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { AppError, badRequest, forbidden } from '../../lib/errors.js';

/*
 * POST /api/files/upload_url fetches a file on the server's behalf, which is a classic SSRF hole.
 * The fetcher only goes to allowlisted host names over https on port 443, resolves the name itself,
 * refuses if any address is private/loopback/link-local/reserved, and then connects to exactly the
 * address it checked (so a second DNS answer cannot swap in 127.0.0.1). Redirects are followed only
 * to the same host and are checked again; size and time are capped.
 */

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}
export type Resolver = (host: string) => Promise<ResolvedAddress[]>;

export interface TransportResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: AsyncIterable<Buffer>;
}
/** Makes one GET to `url`, connecting to `address` (already checked), honouring `signal`. */
export type Transport = (
  url: URL,
  address: ResolvedAddress,
  signal: AbortSignal,
) => Promise<TransportResponse>;

export interface UrlFetcherOptions {
  /** Host names (lower case) that may be fetched from; empty turns the feature off. */
  allowlist: readonly string[];
  maxBytes: number;
  timeoutMs?: number;
  maxRedirects?: number;
  resolve?: Resolver;
  transport?: Transport;
}

export interface FetchedFile {
  name: string;
  data: Buffer;
}
export type UrlFetcher = (url: string) => Promise<FetchedFile>;

// Two lists: a BlockList matches IPv4 addresses against IPv6 rules too (as v4-mapped addresses).
const BLOCKED_V4 = new BlockList();
const BLOCKED_V6 = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  BLOCKED_V4.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001::', 32],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  BLOCKED_V6.addSubnet(net, prefix, 'ipv6');

/** The IPv4 address inside an IPv4-mapped IPv6 address (`::ffff:1.2.3.4` or `::ffff:102:304`). */
function unmapped(address: string): string | null {
  const dotted = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (dotted) return dotted[1]!;
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex) return null;
  const [hi, lo] = [parseInt(hex[1]!, 16), parseInt(hex[2]!, 16)];
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** Loopback, private, link-local, shared, documentation, multicast and reserved addresses. */
export function isPrivateAddress(address: string): boolean {
  const v4 = unmapped(address) ?? (isIP(address) === 4 ? address : null);
  if (v4) return BLOCKED_V4.check(v4, 'ipv4');
  if (isIP(address) !== 6) return true;
  return BLOCKED_V6.check(address, 'ipv6');
}

const notAllowed = (message: string) => forbidden(message, 'not_allowed');
const upstreamFailed = (message: string) => new AppError(502, 'upstream_failed', message);

export const systemResolver: Resolver = async (host) =>
  (await dnsLookup(host, { all: true, verbatim: true })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4,
  }));

/** Node's https client, pinned to the checked address: its DNS lookup answers only that address. */
export const httpsTransport: Transport = (url, address, signal) =>
  new Promise((resolve, reject) => {
    const pinned: LookupFunction = (_host, options, callback) => {
      if (options.all) callback(null, [{ address: address.address, family: address.family }]);
      else callback(null, address.address, address.family);
    };
    const req = httpsRequest(
      url,
      {
        method: 'GET',
        agent: false,
        lookup: pinned,
        signal,
        headers: { accept: '*/*', 'user-agent': 'Attesta' },
      },
      (res) => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: res }),
    );
    req.on('error', reject);
    req.end();
  });

function parseUrl(raw: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    throw badRequest('invalid_url', 'Not a valid URL');
  }
  if (url.protocol !== 'https:') throw badRequest('https_required', 'Only https URLs can be fetched');
  if (url.username || url.password) throw badRequest('invalid_url', 'URLs with credentials are not accepted');
  if (url.port && url.port !== '443') throw notAllowed('Only the standard https port is allowed');
  return url;
}

const hostOf = (url: URL) =>
  url.hostname
    .toLowerCase()
    .replace(/\.$/, '')
    .replace(/^\[|\]$/g, '');

async function checkedAddress(host: string, resolve: Resolver): Promise<ResolvedAddress> {
  let addresses: ResolvedAddress[];
  try {
    addresses = isIP(host) ? [{ address: host, family: isIP(host) === 6 ? 6 : 4 }] : await resolve(host);
  } catch {
    throw upstreamFailed(`${host} cannot be resolved`);
  }
  if (addresses.length === 0) throw upstreamFailed(`${host} cannot be resolved`);
  // Any private answer refuses the host: a mixed answer is a rebinding attempt, not a mirror.
  if (addresses.some((a) => isPrivateAddress(a.address)))
    throw notAllowed(`${host} resolves to a private or local address`);
  return addresses[0]!;
}

async function readCapped(body: AsyncIterable<Buffer>, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > maxBytes) throw new AppError(413, 'payload_too_large', 'The remote file is too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function nameFromUrl(url: URL): string {
  const last = url.pathname.split('/').filter(Boolean).pop() ?? '';
  try {
    return decodeURIComponent(last) || url.hostname;
  } catch {
    return last || url.hostname;
  }
}

export function createUrlFetcher(options: UrlFetcherOptions): UrlFetcher {
  const allowlist = new Set(options.allowlist.map((h) => h.toLowerCase()));
  const resolve = options.resolve ?? systemResolver;
  const transport = options.transport ?? httpsTransport;
  const maxRedirects = options.maxRedirects ?? 3;
  const timeoutMs = options.timeoutMs ?? 15_000;

  async function fetchOnce(
    url: URL,
    signal: AbortSignal,
    redirectsLeft: number,
    host: string,
  ): Promise<FetchedFile> {
    if (hostOf(url) !== host) throw notAllowed('Redirects to another host are not followed');
    const address = await checkedAddress(host, resolve);
    const res = await transport(url, address, signal);
    if (res.status >= 300 && res.status < 400 && res.headers.location) {
      if (redirectsLeft === 0) throw upstreamFailed('Too many redirects');
      return fetchOnce(parseUrl(res.headers.location, url), signal, redirectsLeft - 1, host);
    }
    if (res.status !== 200) throw upstreamFailed(`The remote server answered ${res.status}`);
    const declared = Number(res.headers['content-length']);
    if (Number.isFinite(declared) && declared > options.maxBytes)
      throw new AppError(413, 'payload_too_large', 'The remote file is too large');
    return { name: nameFromUrl(url), data: await readCapped(res.body, options.maxBytes) };
  }

  return async (raw) => {
    if (allowlist.size === 0)
      throw notAllowed('Fetching files from URLs is turned off (UPLOAD_URL_ALLOWLIST)');
    const url = parseUrl(raw);
    const host = hostOf(url);
    if (!allowlist.has(host))
      throw notAllowed(`${host} is not on the list of hosts files may be fetched from`);
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      return await fetchOnce(url, controller.signal, maxRedirects, host);
    } catch (err) {
      if (controller.signal.aborted)
        throw new AppError(504, 'upstream_timeout', 'The remote server is too slow');
      if (err instanceof AppError) throw err;
      throw upstreamFailed('The file could not be fetched');
    } finally {
      clearTimeout(timer);
    }
  };
}
