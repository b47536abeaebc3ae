import { useCallback, useRef, useState } from 'react';

/**
 * Tracks one running request for a button (spec §9: `is-loading`). `run` ignores calls while a
 * previous one is still running — the ref, unlike state, blocks a double click within one frame.
 */
export function useIsLoading() {
  const [isLoading, setIsLoading] = useState(false);
  const running = useRef(false);

  const run = useCallback(async <T>(task: () => Promise<T>): Promise<T | undefined> => {
    if (running.current) return undefined;
    running.current = true;
    setIsLoading(true);
    try {
      return await task();
    } finally {
      running.current = false;
      setIsLoading(false);
    }
  }, []);

  return { isLoading, run };
}
