/**
 * KaTeX (its code and its stylesheet, ~70 kB compressed) is loaded the first time a piece of html
 * holds TeX, not with the app: most tasks have none, and the participant's first visit stays light
 * (docs/BENCHMARKS.md, «The participant's path»). Until it is there TeX shows as its source; a
 * `RichHtml` re-renders once it arrives, and the runner waits for it before drawing a variant
 * that holds TeX (so every label is already spoken right).
 */
import type KatexModule from 'katex';
import { useSyncExternalStore } from 'react';

type Katex = typeof KatexModule;

let katex: Katex | null = null;
let loading: Promise<void> | null = null;
const listeners = new Set<() => void>();

/** Html (or any text) with TeX between \( \), \[ \] or $$ $$. */
export const hasTex = (text: string): boolean => /\$\$|\\\(|\\\[/.test(text);

/** KaTeX if it is loaded already. */
export const loadedKatex = (): Katex | null => katex;

/** Loads KaTeX once; a failed load (offline) may be tried again. */
export function loadKatex(): Promise<void> {
  loading ??= Promise.all([import('katex'), import('katex/dist/katex.min.css')]).then(
    ([module]) => {
      katex = module.default;
      for (const listener of listeners) listener();
    },
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Whether KaTeX is loaded; the component re-renders when it arrives. */
export function useKatexLoaded(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => katex !== null,
    () => katex !== null,
  );
}
