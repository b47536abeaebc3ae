/**
 * Leaving a running work asks first (docs/design.md, "Locked delivery"): a reload, closing the tab
 * or typing another address meets the browser's own question (`beforeunload`), and a move inside
 * the app (the back button, a link) is held by the router's blocker until the participant answers
 * the runner's dialog. Answers are never lost either way: what is unsent stays in the outbox.
 */
import { useCallback, useEffect, useLayoutEffect, useRef } from 'react';
import { useBlocker, type BlockerFunction } from 'react-router';

/** Pages a lost session or a failure moves to: never held, the runner could not go on anyway. */
const ALWAYS_ALLOWED = ['/unauthorized', '/login', '/error'];

export function useLeaveGuard(active: boolean) {
  // Set once the participant agreed to leave: the page load that follows (logging out) is not held.
  const released = useRef(false);
  // The router reads the blocker function it was given in a passive effect of this component, which
  // runs after the passive effects of the children: a child's <Navigate> right after the work is
  // finished (a guest's attempt goes to its result) would meet the blocker of the render before and
  // be held — a blank page. A layout effect updates this before any passive effect runs.
  const activeNow = useRef(active);
  useLayoutEffect(() => {
    activeNow.current = active;
  }, [active]);
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
    activeNow.current &&
    !released.current &&
    currentLocation.pathname !== nextLocation.pathname &&
    !ALWAYS_ALLOWED.some((path) => nextLocation.pathname.startsWith(path));
  const blocker = useBlocker(shouldBlock);
  const release = useCallback(() => {
    released.current = true;
  }, []);
  return { blocker, release };
}
