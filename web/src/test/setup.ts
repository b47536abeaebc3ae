import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { loadKatex } from '../components/answers/katex-loader';
import { loadLanguage } from '../lib/i18n';

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

// KaTeX loads on first need in the app (components/answers/katex-loader.ts); tests draw TeX at once.
await loadKatex();

// English is a chunk the app loads when chosen (lib/i18n.ts); tests create instances in either
// language at once.
await loadLanguage('en');
