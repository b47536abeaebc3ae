import { afterEach, describe, expect, it } from 'vitest';
import { getCookie, removeCookie, serializeCookie, setCookie } from './cookies';

describe('cookies', () => {
  afterEach(() => removeCookie('lang'));

  it('serializes an expiry in days, path, SameSite and Secure', () => {
    const now = new Date(Date.UTC(2025, 0, 1, 12, 0, 0));
    expect(serializeCookie('lang', 'en', { days: 365, secure: true }, now)).toBe(
      'lang=en; expires=Thu, 01 Jan 2026 12:00:00 GMT; path=/; SameSite=Lax; Secure',
    );
    expect(serializeCookie('a b', 'x;y', { secure: false }, now)).toBe('a%20b=x%3By; path=/; SameSite=Lax');
  });

  it('sets, reads and removes a cookie in the document', () => {
    expect(getCookie('lang')).toBeNull();
    setCookie('lang', 'en', { days: 30 });
    setCookie('other', 'значение', { days: 1 });
    expect(getCookie('lang')).toBe('en');
    expect(getCookie('other')).toBe('значение');
    removeCookie('lang');
    removeCookie('other');
    expect(getCookie('lang')).toBeNull();
    expect(getCookie('other')).toBeNull();
  });

  it('does not confuse cookies whose names share a prefix', () => {
    setCookie('langx', '1', { days: 1 });
    expect(getCookie('lang')).toBeNull();
    removeCookie('langx');
  });
});
