/**
 * Bearer token storage for the app shell only. In a browser the httpOnly session cookie does the
 * work and nothing is stored; the app shell's WebView may lose cookies, so there we keep the token.
 */
import { isAppShell } from './device';

export const TOKEN_STORAGE_KEY = 'attesta.authToken';

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    // Private modes and locked-down WebViews throw on access.
    return null;
  }
}

export function getAuthToken(): string | null {
  return storage()?.getItem(TOKEN_STORAGE_KEY) ?? null;
}

/** Keeps the token only inside the app shell; returns whether it was kept. */
export function rememberTokenIfAppShell(token: string, userAgent: string = navigator.userAgent): boolean {
  if (!isAppShell(userAgent)) return false;
  storage()?.setItem(TOKEN_STORAGE_KEY, token);
  return true;
}

export function clearAuthToken() {
  storage()?.removeItem(TOKEN_STORAGE_KEY);
}
