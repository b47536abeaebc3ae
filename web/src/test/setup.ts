import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { setI18n } from 'react-i18next';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { loadKatex } from '../components/answers/katex-loader';
import { notifications } from '../components/lite/notify';
import { DEFAULT_LANGUAGE, i18n, loadLanguage } from '../lib/i18n';

// findBy… and waitFor wait for what the screen should show up to 10 s, not Testing Library's 1 s: on
// a busy two-core machine a page with its queries took longer than 1 s to draw (role homes), and a
// page loaded as its own chunk (lazyPage) took over 5 s the first time at load average 15
// (specifications, subjects, the admin's queue). A passing test does not wait longer; only a
// failing one does.
configure({ asyncUtilTimeout: 10_000 });

// jsdom lacks the layout APIs Mantine reads; these stand-ins answer "desktop, no motion".
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: vi.fn((query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: vi.fn(),
    removeListener: vi.fn(),
    addEventListener: vi.fn(),
    removeEventListener: vi.fn(),
    dispatchEvent: vi.fn(),
  })),
});

class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver ??= ResizeObserverStub as unknown as typeof ResizeObserver;
window.HTMLElement.prototype.scrollIntoView ??= () => {};

afterEach(() => {
  cleanup();
});

/** Where jsdom's window starts, kept across the files a worker runs (this file runs once a file). */
const start = ((globalThis as { __attestaTestStart?: string }).__attestaTestStart ??= window.location.href);

/**
 * Empties every object store of every database (fake-indexeddb, which a runner test brings and
 * which then stays): the app's modules keep their open connections, as a reload would not, but
 * read nothing a file before wrote.
 */
async function emptyIndexedDb() {
  if (typeof indexedDB === 'undefined') return;
  for (const { name } of await indexedDB.databases()) {
    if (!name) continue;
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open(name);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const stores = [...db.objectStoreNames];
    if (stores.length > 0) {
      await new Promise<void>((resolve, reject) => {
        const tx = db.transaction(stores, 'readwrite');
        for (const store of stores) tx.objectStore(store).clear();
        tx.oncomplete = () => resolve();
        tx.onerror = () => reject(tx.error);
      });
    }
    db.close();
  }
}

/**
 * Test files share a worker and its window (`isolate: false` in vite.config.ts), so each starts
 * from what a fresh window would show: no DOM (portals included), no focus, empty storage, no
 * cookies, an empty IndexedDB, the app's i18n instance in Russian, no toasts, real timers, no
 * stubbed globals, the first URL.
 */
async function freshWindow() {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  notifications.clean();
  document.body.innerHTML = '';
  document.body.removeAttribute('style');
  document.body.removeAttribute('class');
  document.documentElement.removeAttribute('style');
  (document.activeElement as HTMLElement | null)?.blur?.();
  localStorage.clear();
  sessionStorage.clear();
  for (const cookie of document.cookie.split(';')) {
    const name = cookie.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  }
  await emptyIndexedDb();
  if (window.location.href !== start) window.history.replaceState(null, '', start);
  // Each createI18n() makes its instance the one react-i18next uses without a provider; a fresh
  // worker's is the app's own.
  setI18n(i18n);
  if (i18n.language !== DEFAULT_LANGUAGE) await i18n.changeLanguage(DEFAULT_LANGUAGE);
  document.documentElement.lang = DEFAULT_LANGUAGE;
}

beforeAll(freshWindow);
afterAll(freshWindow);

// KaTeX loads on first need in the app (components/answers/katex-loader.ts); tests draw TeX at once.
await loadKatex();

// English is a chunk the app loads when chosen (lib/i18n.ts); tests create instances in either
// language at once.
await loadLanguage('en');
