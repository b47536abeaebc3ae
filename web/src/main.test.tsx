import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeServer } from './test/test-app';

describe('startup', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('marks the device on <html>, starts the browser router and lands a visitor on the login page', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    fakeServer({ 'GET /api/user': () => apiError(401, 'unauthorized') });
    document.body.innerHTML = '<div id="root"></div>';
    const { root } = await import('./main');
    expect(await screen.findByTestId('login-title', {}, { timeout: 5000 })).toHaveTextContent('Вход');
    expect(window.location.pathname).toBe('/login');
    // jsdom exposes `ontouchstart`, so it counts as a touch device (not a tablet).
    expect([...document.documentElement.classList]).toEqual(['mf-touch']);
    expect(document.documentElement.lang).toBe('ru');
    // Unmounted before the page goes: a component timer firing after it would find no window.
    act(() => root.unmount());
  });
});
