import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import {
  attachTouchClick,
  shouldUseTouchClick,
  TAP_DELAY_MS,
  TAP_TIMEOUT_MS,
  TOUCH_BOUNDARY_PX,
} from './touch-click';

type Point = { x: number; y: number };

function touch(target: Element, type: string, point: Point, active = true) {
  const event = new Event(type, { bubbles: true, cancelable: true });
  const list = [{ clientX: point.x, clientY: point.y, target }];
  Object.defineProperty(event, 'touches', { value: active ? list : [] });
  Object.defineProperty(event, 'changedTouches', { value: list });
  target.dispatchEvent(event);
  return event;
}

describe('touch click helper', () => {
  let detach: () => void;
  let button: HTMLButtonElement;
  let onClick: Mock<(event: Event) => void>;

  beforeEach(() => {
    vi.useFakeTimers();
    document.body.innerHTML = '<button type="button">Ответить</button><input aria-label="ответ" />';
    button = document.querySelector('button')!;
    onClick = vi.fn<(event: Event) => void>();
    button.addEventListener('click', onClick);
    detach = attachTouchClick(document);
  });

  afterEach(() => {
    detach();
    vi.useRealTimers();
    document.body.innerHTML = '';
  });

  const tap = (target: Element, holdMs = 50, move: Point = { x: 0, y: 0 }) => {
    touch(target, 'touchstart', { x: 100, y: 100 });
    vi.advanceTimersByTime(holdMs);
    if (move.x || move.y) touch(target, 'touchmove', { x: 100 + move.x, y: 100 + move.y });
    return touch(target, 'touchend', { x: 100 + move.x, y: 100 + move.y }, false);
  };

  it('exports the constants of the specification', () => {
    expect([TAP_DELAY_MS, TAP_TIMEOUT_MS, TOUCH_BOUNDARY_PX]).toEqual([200, 700, 10]);
  });

  it('turns a quick tap into an immediate click and prevents the native one', () => {
    const end = tap(button);
    expect(onClick).toHaveBeenCalledTimes(1);
    expect(end.defaultPrevented).toBe(true);
    // The browser's late click for the same tap is swallowed.
    vi.advanceTimersByTime(50);
    button.click();
    expect(onClick).toHaveBeenCalledTimes(1);
  });

  it('does not treat a touch longer than the tap timeout as a tap', () => {
    const end = tap(button, TAP_TIMEOUT_MS + 1);
    expect(onClick).not.toHaveBeenCalled();
    expect(end.defaultPrevented).toBe(false);
    expect(tap(button, TAP_TIMEOUT_MS).defaultPrevented).toBe(true);
  });

  it('cancels the tap when the finger moves beyond the boundary', () => {
    tap(button, 50, { x: TOUCH_BOUNDARY_PX + 1, y: 0 });
    expect(onClick).not.toHaveBeenCalled();
    tap(button, 50, { x: TOUCH_BOUNDARY_PX, y: -TOUCH_BOUNDARY_PX });
    expect(onClick).toHaveBeenCalledTimes(1);
  });

  it('ignores a second tap within the tap delay, and accepts one after it', () => {
    tap(button, 50);
    vi.advanceTimersByTime(TAP_DELAY_MS - 100);
    tap(button, 50);
    expect(onClick).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(TAP_DELAY_MS);
    tap(button, 50);
    expect(onClick).toHaveBeenCalledTimes(2);
  });

  it('ignores multi-touch gestures', () => {
    const start = new Event('touchstart', { bubbles: true, cancelable: true });
    Object.defineProperty(start, 'touches', {
      value: [
        { clientX: 1, clientY: 1 },
        { clientX: 50, clientY: 50 },
      ],
    });
    button.dispatchEvent(start);
    touch(button, 'touchend', { x: 1, y: 1 }, false);
    expect(onClick).not.toHaveBeenCalled();
  });

  it('focuses text fields it taps', () => {
    const input = document.querySelector('input')!;
    tap(input);
    expect(document.activeElement).toBe(input);
  });

  it('stops working once detached', () => {
    detach();
    tap(button);
    expect(onClick).not.toHaveBeenCalled();
  });

  it('applies only to tablets wider than 768 px', () => {
    expect(shouldUseTouchClick({ wideTablet: true })).toBe(true);
    expect(shouldUseTouchClick({ wideTablet: false })).toBe(false);
  });
});
