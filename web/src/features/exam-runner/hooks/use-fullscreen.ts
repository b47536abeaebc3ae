/**
 * Full screen on request (the Fullscreen API): whether this browser offers it, whether the page is
 * in it now, and a toggle. Leaving it (Esc, the browser's own control) is allowed: the state
 * follows the document's `fullscreenchange`, so the button always says what a press will do.
 */
import { useCallback, useEffect, useState } from 'react';

const isFullscreen = () => typeof document !== 'undefined' && document.fullscreenElement != null;

export function useFullscreen() {
  // iPhone Safari has no Fullscreen API for pages: no button there rather than one that does nothing.
  const supported =
    typeof document !== 'undefined' &&
    document.fullscreenEnabled === true &&
    typeof document.documentElement.requestFullscreen === 'function';
  const [active, setActive] = useState(isFullscreen);

  useEffect(() => {
    const sync = () => setActive(isFullscreen());
    document.addEventListener('fullscreenchange', sync);
    return () => document.removeEventListener('fullscreenchange', sync);
  }, []);

  const toggle = useCallback(async () => {
    try {
      if (isFullscreen()) await document.exitFullscreen();
      else await document.documentElement.requestFullscreen({ navigationUI: 'hide' });
    } catch {
      // Refused by the browser (no user gesture, a policy): the page simply stays as it is.
    }
    setActive(isFullscreen());
  }, []);

  return { supported, active, toggle };
}
