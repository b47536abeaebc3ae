import { useEffect } from 'react';

const DIALOG = '[role="dialog"]';

/**
 * Focus goes back to a dialog's opener when the dialog closes (WCAG 2.4.3). Mantine's `Modal`
 * does it when its `opened` turns false, but a screen that renders a dialog only while it is open
 * (`{editing && <EditModal …/>}`) removes it at once, and focus falls to the page's body: a
 * keyboard user starts again from the top. This remembers the last element focused outside any
 * dialog and, when a dialog leaves the page with focus nowhere, focuses it again — once, for
 * every screen.
 */
export function useDialogFocusReturn(): void {
  useEffect(() => {
    let last: HTMLElement | null = null;
    const onFocusIn = (event: FocusEvent) => {
      if (event.target instanceof HTMLElement && !event.target.closest(DIALOG)) last = event.target;
    };
    // Dialogs live in portals under <body>; most changes leave focus where it is and cost one check.
    const observer = new MutationObserver((records) => {
      if (document.activeElement && document.activeElement !== document.body) return;
      const dialogGone = records.some((r) =>
        [...r.removedNodes].some(
          (node) => node instanceof Element && (node.matches(DIALOG) || node.querySelector(DIALOG)),
        ),
      );
      if (dialogGone && last?.isConnected) last.focus({ preventScroll: true });
    });
    document.addEventListener('focusin', onFocusIn);
    observer.observe(document.body, { childList: true, subtree: true });
    return () => {
      document.removeEventListener('focusin', onFocusIn);
      observer.disconnect();
    };
  }, []);
}
