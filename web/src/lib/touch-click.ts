/**
 * Fast-click style helper (spec §9): on touch devices some WebViews still wait before turning a tap
 * into a click (double-tap-to-zoom detection). This turns a clean tap into an immediate click.
 */
import type { DeviceInfo } from './device';

/** A second tap sooner than this after a synthesized click is a phantom (double-tap) and is ignored. */
export const TAP_DELAY_MS = 200;
/** A touch held longer than this is a long press, not a tap; the browser handles it. */
export const TAP_TIMEOUT_MS = 700;
/** Moving a finger further than this (in CSS px, on either axis) turns the tap into a scroll. */
export const TOUCH_BOUNDARY_PX = 10;

interface Tracking {
  target: Element;
  x: number;
  y: number;
  startedAt: number;
}

const NATIVE_CLICK_TAGS = new Set(['SELECT', 'VIDEO', 'IFRAME', 'LABEL', 'AUDIO']);
const NATIVE_CLICK_INPUTS = new Set(['file', 'range', 'color']);
const NON_TEXT_INPUTS = new Set([
  'button',
  'checkbox',
  'radio',
  'submit',
  'reset',
  'image',
  'hidden',
  ...NATIVE_CLICK_INPUTS,
]);

/** Controls whose own touch behaviour (pickers, sliders, media) a synthetic click would break. */
function needsNativeClick(el: Element): boolean {
  if (el.closest('.needsclick')) return true;
  if ((el as HTMLButtonElement).disabled) return true;
  if (NATIVE_CLICK_TAGS.has(el.tagName)) return true;
  return el.tagName === 'INPUT' && NATIVE_CLICK_INPUTS.has((el as HTMLInputElement).type);
}

/** Text fields must get focus (and the keyboard) from the tap itself, since its default is prevented. */
function needsFocus(el: Element): el is HTMLElement {
  if (el.tagName === 'TEXTAREA') return true;
  if (el.tagName === 'INPUT') return !NON_TEXT_INPUTS.has((el as HTMLInputElement).type);
  return (el as HTMLElement).isContentEditable === true;
}

export interface TouchClickOptions {
  /** Clock in ms; injectable for tests. */
  now?: () => number;
}

/** Attaches the helper to `root`; returns a function that detaches it. */
export function attachTouchClick(root: Document | HTMLElement = document, options: TouchClickOptions = {}) {
  const now = options.now ?? (() => Date.now());
  const synthetic = new WeakSet<Event>();
  let tracking: Tracking | null = null;
  let lastClickAt = Number.NEGATIVE_INFINITY;
  let cancelNextClick = false;

  const onTouchStart = (event: Event) => {
    const touchEvent = event as TouchEvent;
    const touch = touchEvent.touches[0];
    const target = event.target instanceof Element ? event.target : null;
    if (touchEvent.touches.length !== 1 || !touch || !target || needsNativeClick(target)) {
      tracking = null;
      return;
    }
    if (now() - lastClickAt < TAP_DELAY_MS) event.preventDefault();
    tracking = { target, x: touch.clientX, y: touch.clientY, startedAt: now() };
  };

  const onTouchMove = (event: Event) => {
    const touch = (event as TouchEvent).changedTouches[0];
    if (!tracking || !touch) return;
    const moved =
      Math.abs(touch.clientX - tracking.x) > TOUCH_BOUNDARY_PX ||
      Math.abs(touch.clientY - tracking.y) > TOUCH_BOUNDARY_PX;
    if (moved) tracking = null;
  };

  const onTouchCancel = () => {
    tracking = null;
  };

  const onTouchEnd = (event: Event) => {
    const started = tracking;
    tracking = null;
    if (!started) return;
    const at = now();
    if (at - lastClickAt < TAP_DELAY_MS) {
      // The native click of this phantom tap must not get through either.
      cancelNextClick = true;
      return;
    }
    if (at - started.startedAt > TAP_TIMEOUT_MS) return;

    const touch = (event as TouchEvent).changedTouches[0];
    event.preventDefault();
    if (needsFocus(started.target)) started.target.focus();
    const click = new MouseEvent('click', {
      bubbles: true,
      cancelable: true,
      clientX: touch?.clientX ?? started.x,
      clientY: touch?.clientY ?? started.y,
    });
    synthetic.add(click);
    lastClickAt = at;
    cancelNextClick = false;
    started.target.dispatchEvent(click);
  };

  /** Capture phase: drops the browser's own late "ghost" click after one we already sent. */
  const onClick = (event: Event) => {
    if (synthetic.has(event)) return;
    if (cancelNextClick || now() - lastClickAt < TAP_DELAY_MS) {
      cancelNextClick = false;
      event.preventDefault();
      event.stopPropagation();
    }
  };

  const listeners: [string, (e: Event) => void, AddEventListenerOptions][] = [
    ['touchstart', onTouchStart, { passive: false }],
    ['touchmove', onTouchMove, { passive: true }],
    ['touchend', onTouchEnd, { passive: false }],
    ['touchcancel', onTouchCancel, { passive: true }],
    ['click', onClick, { capture: true }],
  ];
  for (const [type, handler, opts] of listeners) root.addEventListener(type, handler, opts);
  return () => {
    for (const [type, handler, opts] of listeners) root.removeEventListener(type, handler, opts);
  };
}

/** Only wide tablets get the helper (spec §9: tablets wider than 768 px). */
export function shouldUseTouchClick(info: Pick<DeviceInfo, 'wideTablet'>): boolean {
  return info.wideTablet;
}
