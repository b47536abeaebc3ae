import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { crossedWarnings, formatClock, secondsLeftAt, syncClock } from '../lib/countdown';
import { RESYNC_MS, useCountdown } from './use-countdown';

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date('2030-01-01T10:00:00.000Z'));
});
afterEach(() => vi.useRealTimers());

describe('server clock', () => {
  it('counts on the server clock: a wrong local clock changes nothing', () => {
    // The local clock is 10 minutes fast; the server says it is 10:00 and the deadline 10:30.
    const localNow = Date.parse('2030-01-01T10:10:00.000Z');
    const clock = syncClock('2030-01-01T10:30:00.000Z', '2030-01-01T10:00:00.000Z', localNow);
    expect(secondsLeftAt(clock, localNow)).toBe(1800);
    expect(secondsLeftAt(clock, localNow + 61_000)).toBe(1739);
    expect(secondsLeftAt(clock, localNow + 3_600_000)).toBe(0);
  });

  it('reports each warning threshold once when crossed', () => {
    expect(crossedWarnings(601, 600)).toEqual([600]);
    expect(crossedWarnings(600, 599)).toEqual([]);
    expect(crossedWarnings(700, 30)).toEqual([600, 300, 60]);
    expect(formatClock(3725)).toBe('1:02:05');
    expect(formatClock(65)).toBe('01:05');
  });
});

describe('useCountdown', () => {
  const base = () => ({
    deadlineAt: new Date(Date.now() + 601_000).toISOString(),
    serverTime: new Date().toISOString(),
    paused: false,
    fetchLeft: vi.fn(async () => ({
      examWorkId: 1,
      secondsLeft: 0,
      deadlineAt: new Date().toISOString(),
      status: 'in_progress' as const,
      paused: false,
      serverTime: new Date().toISOString(),
    })),
    onWarning: vi.fn(),
    onExpire: vi.fn(),
  });

  it('warns at 10, 5 and 1 minutes — once each — and expires once at zero', async () => {
    const options = base();
    options.fetchLeft.mockImplementation(async () => ({
      examWorkId: 1,
      secondsLeft: 0,
      deadlineAt: options.deadlineAt,
      status: 'in_progress' as const,
      paused: false,
      serverTime: new Date().toISOString(),
    }));
    const { result } = renderHook(() => useCountdown(options));
    expect(result.current.secondsLeft).toBe(601);
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(options.onWarning).toHaveBeenCalledTimes(1);
    expect(options.onWarning).toHaveBeenLastCalledWith(600);
    await act(() => vi.advanceTimersByTimeAsync(5000));
    expect(options.onWarning).toHaveBeenCalledTimes(1); // not every second
    await act(() => vi.advanceTimersByTimeAsync(295_000));
    expect(options.onWarning).toHaveBeenLastCalledWith(300);
    await act(() => vi.advanceTimersByTimeAsync(240_000));
    expect(options.onWarning).toHaveBeenLastCalledWith(60);
    expect(options.onWarning).toHaveBeenCalledTimes(3);
    expect(options.onExpire).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(60_000));
    expect(result.current.secondsLeft).toBe(0);
    expect(options.onExpire).toHaveBeenCalledTimes(1);
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(options.onExpire).toHaveBeenCalledTimes(1);
    // Re-synced with the server every minute meanwhile.
    expect(options.fetchLeft.mock.calls.length).toBeGreaterThanOrEqual(Math.floor(601_000 / RESYNC_MS));
  });

  it('warns once, with the true time left, when a resync jumps past a threshold', async () => {
    // 6:40 left; staff cut the time: the server now says 1:44. The 5-minute warning was passed
    // in the jump; what is announced is the 104 s left, once.
    const options = { ...base(), deadlineAt: new Date(Date.now() + 400_000).toISOString() };
    let deadline = options.deadlineAt;
    options.fetchLeft.mockImplementation(async () => ({
      examWorkId: 1,
      secondsLeft: 0,
      deadlineAt: deadline,
      status: 'in_progress' as const,
      paused: false,
      serverTime: new Date().toISOString(),
    }));
    const { result } = renderHook(() => useCountdown(options));
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(options.onWarning).not.toHaveBeenCalled();
    deadline = new Date(Date.now() + 104_000).toISOString();
    await act(async () => {
      window.dispatchEvent(new Event('focus'));
    });
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(options.onWarning).toHaveBeenCalledTimes(1);
    expect(options.onWarning.mock.calls[0]![0]).toBeGreaterThanOrEqual(102);
    expect(options.onWarning.mock.calls[0]![0]).toBeLessThanOrEqual(104);
    expect(result.current.secondsLeft).toBeLessThan(105);
  });

  it('stands still while paused and re-syncs on focus', async () => {
    const options = { ...base(), paused: true, pausedSecondsLeft: 1234 };
    const { result } = renderHook(() => useCountdown(options));
    await act(() => vi.advanceTimersByTimeAsync(5000));
    expect(result.current.secondsLeft).toBe(1234);
    expect(options.onWarning).not.toHaveBeenCalled();
    await act(async () => {
      window.dispatchEvent(new Event('focus'));
    });
    expect(options.fetchLeft).toHaveBeenCalled();
  });
});
