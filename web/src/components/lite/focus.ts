/**
 * Focus helpers of the lite overlays (components/lite): what can take focus inside a box, and the
 * stack of open modal dialogs, of which only the top one traps focus and answers Escape.
 */

const FOCUSABLE = [
  'a[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  'iframe',
  '[tabindex]:not([tabindex="-1"])',
  '[contenteditable="true"]',
].join(',');

/** The elements inside `root` that Tab reaches, in document order (hidden ones left out). */
export function focusables(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (el) => !el.closest('[inert]') && !el.hidden && el.getAttribute('aria-hidden') !== 'true',
  );
}

/** Open modal dialogs, the last one on top. */
const stack: object[] = [];

export const modalStack = {
  push(token: object) {
    stack.push(token);
  },
  remove(token: object) {
    const i = stack.lastIndexOf(token);
    if (i >= 0) stack.splice(i, 1);
  },
  isTop(token: object) {
    return stack[stack.length - 1] === token;
  },
  get size() {
    return stack.length;
  },
};

let locks = 0;
let saved: { overflow: string; paddingRight: string } | null = null;

/** The page behind a modal dialog does not scroll; the scroll bar's room is kept, so nothing shifts. */
export function lockScroll(): () => void {
  if (locks++ === 0) {
    const body = document.body;
    const bar = window.innerWidth - document.documentElement.clientWidth;
    saved = { overflow: body.style.overflow, paddingRight: body.style.paddingRight };
    body.style.overflow = 'hidden';
    if (bar > 0) body.style.paddingRight = `${bar}px`;
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (--locks === 0 && saved) {
      document.body.style.overflow = saved.overflow;
      document.body.style.paddingRight = saved.paddingRight;
      saved = null;
    }
  };
}
