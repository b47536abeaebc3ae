import { describe, expect, it } from 'vitest';
import {
  basePath,
  currentAppPath,
  getHashParam,
  getHashParams,
  getQueryParam,
  getRootUrl,
  safeReturnUrl,
} from './location';

const loc = (href: string) => {
  const url = new URL(href);
  return { origin: url.origin, pathname: url.pathname, search: url.search, hash: url.hash };
};

describe('location', () => {
  it('derives the root URL from origin and base path', () => {
    expect(getRootUrl(loc('https://exam.example.org/coordinator?x=1'), '/')).toBe(
      'https://exam.example.org/',
    );
    expect(getRootUrl(loc('https://exam.example.org/app/login'), '/app')).toBe(
      'https://exam.example.org/app/',
    );
    expect(basePath('app/')).toBe('/app/');
  });

  it('reads query parameters', () => {
    const l = loc('https://x.org/account/reset?token=abc%2Bdef&empty=');
    expect(getQueryParam('token', l)).toBe('abc+def');
    expect(getQueryParam('empty', l)).toBe('');
    expect(getQueryParam('missing', l)).toBeNull();
  });

  it('reads hash parameters in both #a=1 and #/route?a=1 forms', () => {
    expect(getHashParam('access_token', loc('https://x.org/#access_token=t1&state=s'))).toBe('t1');
    expect(getHashParam('code', loc('https://x.org/#/login?code=AB-12'))).toBe('AB-12');
    expect([...getHashParams(loc('https://x.org/#section')).keys()]).toEqual([]);
    expect(getHashParam('a', loc('https://x.org/'))).toBeNull();
  });

  it('gives the app path without the base path', () => {
    expect(currentAppPath(loc('https://x.org/app/admin?a=1#h'), '/app/')).toBe('/admin?a=1#h');
    expect(currentAppPath(loc('https://x.org/admin'), '/')).toBe('/admin');
  });

  it('accepts only in-app return addresses', () => {
    expect(safeReturnUrl('/coordinator?x=1')).toBe('/coordinator?x=1');
    expect(safeReturnUrl('//evil.example')).toBeNull();
    expect(safeReturnUrl('/\\evil.example')).toBeNull();
    expect(safeReturnUrl('https://evil.example')).toBeNull();
    expect(safeReturnUrl('javascript:alert(1)')).toBeNull();
    expect(safeReturnUrl(null)).toBeNull();
  });
});
