/** Cookies written by the client itself (language choice); the session cookie is httpOnly and not ours. */

export interface CookieOptions {
  /** Lifetime in days; without it the cookie lives for the browser session. */
  days?: number;
  /** Defaults to the page protocol: a cookie set over https must never travel over http. */
  secure?: boolean;
}

const DAY_MS = 24 * 60 * 60 * 1000;

export function serializeCookie(
  name: string,
  value: string,
  options: CookieOptions = {},
  now: Date = new Date(),
): string {
  const parts = [`${encodeURIComponent(name)}=${encodeURIComponent(value)}`];
  if (options.days !== undefined) {
    parts.push(`expires=${new Date(now.getTime() + options.days * DAY_MS).toUTCString()}`);
  }
  parts.push('path=/', 'SameSite=Lax');
  const secure = options.secure ?? globalThis.location?.protocol === 'https:';
  if (secure) parts.push('Secure');
  return parts.join('; ');
}

export function getCookie(name: string, doc: Document = document): string | null {
  const wanted = encodeURIComponent(name);
  for (const pair of doc.cookie ? doc.cookie.split('; ') : []) {
    const eq = pair.indexOf('=');
    const key = eq === -1 ? pair : pair.slice(0, eq);
    if (key !== wanted) continue;
    const raw = eq === -1 ? '' : pair.slice(eq + 1);
    try {
      return decodeURIComponent(raw);
    } catch {
      // A cookie written by someone else with a stray '%' is still readable as-is.
      return raw;
    }
  }
  return null;
}

export function setCookie(
  name: string,
  value: string,
  options: CookieOptions = {},
  doc: Document = document,
) {
  doc.cookie = serializeCookie(name, value, options);
}

export function removeCookie(name: string, doc: Document = document) {
  // An expiry in the past is the only portable way to delete; path must match the one used to set it.
  doc.cookie = serializeCookie(name, '', { days: -1 });
}
