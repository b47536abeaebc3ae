import { createHmac, timingSafeEqual } from 'node:crypto';
import { CONTAINER_SIGNATURE_PARAM } from '@attesta/contract';

/*
 * Signed links to html container resources (docs/html-containers.md). A container runs in an
 * `<iframe sandbox="allow-scripts">`: its document has an opaque origin, so the browser treats
 * the frame's own requests (scripts, styles, images) as cross-site and leaves out our SameSite
 * session cookie. The runner therefore opens the entry page with `?sig=<token>`, a short-lived
 * HMAC over (container, version, user, participant test, expiry) under a key derived from the
 * server secret, and the entry page (and any html/css resource fetched with a signature) is served
 * with its relative links rewritten to carry the same token.
 */

/** Query parameter carrying the token (the contract's, which the resource routes' query schema names). */
export const SIGNATURE_PARAM = CONTAINER_SIGNATURE_PARAM;
/** How long a signed link works. The runner asks for a fresh one whenever it opens a task. */
export const CONTAINER_LINK_TTL_MS = 30 * 60_000;

/** Whom a link was made for: participants are bound to their participant test; staff have none. */
export interface ContainerLinkSubject {
  userId: number;
  participantTestId: number | null;
}

export interface ContainerLinkSigner {
  /** A token for this container version and subject, valid until `expiresAt`. */
  sign(
    containerId: number,
    version: number,
    subject: ContainerLinkSubject,
    now?: Date,
  ): { token: string; expiresAt: Date };
  /** The subject of a token that is genuine, for this container version, and not expired; else null. */
  verify(token: string, containerId: number, version: number, now?: Date): ContainerLinkSubject | null;
}

const TOKEN = /^(\d{1,10})\.(\d{1,10})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

/** `secret`: the server secret (config.sessionSecret); a separate key is derived for links. */
export function containerLinkSigner(secret: string): ContainerLinkSigner {
  const key = createHmac('sha256', secret).update('attesta/html-container-link/v1').digest();
  const mac = (containerId: number, version: number, userId: number, pt: number, exp: number) =>
    createHmac('sha256', key).update(`${containerId}|${version}|${userId}|${pt}|${exp}`).digest();

  return {
    sign(containerId, version, subject, now = new Date()) {
      const exp = Math.floor((now.getTime() + CONTAINER_LINK_TTL_MS) / 1000);
      const pt = subject.participantTestId ?? 0;
      const sig = mac(containerId, version, subject.userId, pt, exp).toString('base64url');
      return { token: `${subject.userId}.${pt}.${exp}.${sig}`, expiresAt: new Date(exp * 1000) };
    },
    verify(token, containerId, version, now = new Date()) {
      const match = TOKEN.exec(token);
      if (!match) return null;
      const [, user, pt, exp, sig] = match;
      const expected = mac(containerId, version, Number(user), Number(pt), Number(exp));
      const given = Buffer.from(sig!, 'base64url');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      if (Number(exp) * 1000 <= now.getTime()) return null;
      return { userId: Number(user), participantTestId: Number(pt) || null };
    },
  };
}

// ---------------------------------------------------------------- relative links carry the token

/** A link the browser resolves against the resource's own folder (no scheme, host, root or fragment-only). */
const isRelative = (url: string) => url !== '' && !/^([a-z][a-z0-9+.-]*:|[/\\#?])/i.test(url);

function signedLink(url: string, token: string): string {
  const raw = url.trim();
  if (!isRelative(raw)) return url;
  const hash = raw.indexOf('#');
  const [path, fragment] = hash === -1 ? [raw, ''] : [raw.slice(0, hash), raw.slice(hash)];
  return `${path}${path.includes('?') ? '&' : '?'}${SIGNATURE_PARAM}=${token}${fragment}`;
}

const ATTRIBUTE = /(\s(?:src|href|xlink:href|poster)\s*=\s*)("([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/gi;
const SRCSET = /(\ssrcset\s*=\s*)("([^"]*)"|'([^']*)')/gi;
const CSS_URL = /url\(\s*(["']?)([^"')\s]+)\1\s*\)/gi;

function rewriteCss(css: string, token: string): string {
  return css.replace(
    CSS_URL,
    (_all, quote: string, url: string) => `url(${quote}${signedLink(url, token)}${quote})`,
  );
}

function rewriteHtml(html: string, token: string): string {
  return rewriteCss(
    html
      .replace(ATTRIBUTE, (_all, head: string, _value, dq?: string, sq?: string, bare?: string) => {
        const quote = dq !== undefined ? '"' : sq !== undefined ? "'" : '';
        return `${head}${quote}${signedLink(dq ?? sq ?? bare ?? '', token)}${quote}`;
      })
      .replace(SRCSET, (_all, head: string, _value, dq?: string, sq?: string) => {
        const quote = dq !== undefined ? '"' : "'";
        const list = (dq ?? sq ?? '')
          .split(',')
          .map((candidate) => candidate.trim().replace(/^\S+/, (url) => signedLink(url, token)))
          .join(', ');
        return `${head}${quote}${list}${quote}`;
      }),
    token,
  );
}

/**
 * A resource as served under a signed link: html and css get their relative links signed with the
 * same token, so the pages and styles of a container keep loading their own files. Scripts are
 * left alone: a script building a URL at run time appends `location.search` itself.
 */
export function withSignedLinks(resource: { mime: string; data: Buffer }, token: string) {
  const mime = resource.mime.toLowerCase();
  const rewrite = mime.startsWith('text/html')
    ? rewriteHtml
    : mime.startsWith('text/css')
      ? rewriteCss
      : null;
  if (!rewrite) return resource;
  return { mime: resource.mime, data: Buffer.from(rewrite(resource.data.toString('utf8'), token), 'utf8') };
}
