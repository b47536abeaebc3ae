import { afterEach, describe, expect, it } from 'vitest';
import { clearAuthToken, getAuthToken, rememberTokenIfAppShell } from './auth-token';

describe('auth token storage', () => {
  afterEach(() => clearAuthToken());

  it('keeps nothing in an ordinary browser', () => {
    expect(rememberTokenIfAppShell('tok', 'Mozilla/5.0 (Windows NT 10.0) Chrome/126.0')).toBe(false);
    expect(getAuthToken()).toBeNull();
  });

  it('keeps the token inside the app shell and clears it', () => {
    expect(rememberTokenIfAppShell('tok', 'Mozilla/5.0 (Linux; Android 13) AttestaApp/2.0')).toBe(true);
    expect(getAuthToken()).toBe('tok');
    clearAuthToken();
    expect(getAuthToken()).toBeNull();
  });
});
