/**
 * Leaving a running work asks first (docs/design.md, "Locked delivery"): a reload, closing the tab
 * or typing another address meets the browser's own question (`beforeunload`), and a move inside
 * the app (the back button, a link) is held by the router's blocker until the participant answers
 * the runner's dialog. Answers are never lost either way: what is unsent stays in the outbox.
 */
import { useCallback, useEffect, useRef } from 'react';
import { useBlocker, type BlockerFunction } from 'react-router';

/** Pages a lost session or a failure moves to: never held, the runner could not go on anyway. */
const ALWAYS_ALLOWED = ['/unauthorized', '/login', '/error'];

export function useLeaveGuard(active: boolean) {
  // Set once the participant agreed to leave: the page load that follows (logging out) is not held.
  const released = useRef(false);
  useEffect(() => {
    if (!active) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (released.current) return;
      event.preventDefault();
      // Older browsers ask only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [active]);

  const shouldBlock: BlockerFunction = ({ currentLocation, nextLocation }) =>
    active &&
    !released.current &&
    currentLocation.pathname !== nextLocation.pathname &&
    !ALWAYS_ALLOWED.some((path) => nextLocation.pathname.startsWith(path));
  const blocker = useBlocker(shouldBlock);
  const release = useCallback(() => {
    released.current = true;
  }, []);
  return { blocker, release };
}
