/** Reading the page address: the site root, query and hash parameters (spec §2). */

type LocationLike = Pick<Location, 'origin' | 'pathname' | 'search' | 'hash'>;

/** Base path the app is served under (Vite `base`), always with a trailing slash. */
export function basePath(base: string = import.meta.env.BASE_URL): string {
  const withLeading = base.startsWith('/') ? base : `/${base}`;
  return withLeading.endsWith('/') ? withLeading : `${withLeading}/`;
}

/** Absolute root URL of the app, derived from where the page was loaded: origin + base path. */
export function getRootUrl(loc: LocationLike = window.location, base?: string): string {
  return `${loc.origin}${basePath(base)}`;
}

export function getQueryParams(loc: Pick<Location, 'search'> = window.location): URLSearchParams {
  return new URLSearchParams(loc.search);
}

export function getQueryParam(name: string, loc: Pick<Location, 'search'> = window.location): string | null {
  return getQueryParams(loc).get(name);
}

/**
 * Hash parameters: `#a=1&b=2`, and also `#/route?a=1` as older clients and mail links write them.
 */
export function getHashParams(loc: Pick<Location, 'hash'> = window.location): URLSearchParams {
  const hash = loc.hash.replace(/^#/, '');
  const queryStart = hash.indexOf('?');
  if (queryStart !== -1) return new URLSearchParams(hash.slice(queryStart + 1));
  return hash.includes('=') ? new URLSearchParams(hash) : new URLSearchParams();
}

export function getHashParam(name: string, loc: Pick<Location, 'hash'> = window.location): string | null {
  return getHashParams(loc).get(name);
}

/** Path of the current page inside the app (without the base path), with query and hash. */
export function currentAppPath(loc: LocationLike = window.location, base?: string): string {
  const prefix = basePath(base).replace(/\/$/, '');
  const path =
    prefix && loc.pathname.startsWith(prefix) ? loc.pathname.slice(prefix.length) || '/' : loc.pathname;
  return `${path}${loc.search}${loc.hash}`;
}

/**
 * A return address taken from the query string is only followed when it stays inside the app:
 * `//evil.example`, `/\evil.example` and absolute URLs would make the login page an open redirect.
 */
export function safeReturnUrl(value: string | null | undefined): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  // Control characters (tab, newline) are dropped by URL parsers and can smuggle a second slash in.
  if ([...value].some((ch) => ch.charCodeAt(0) < 0x20)) return null;
  return value;
}
