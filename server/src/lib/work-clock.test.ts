import { describe, expect, it } from 'vitest';
import {
  accommodatedExtraSeconds,
  changeTime,
  computeDeadline,
  effectiveDeadline,
  isPastDeadline,
  isPaused,
  parseTimeSpan,
  resumeClock,
  secondsLeft,
  secondsUntil,
} from './work-clock.js';

const t0 = new Date('2025-03-03T07:00:00Z');
const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000);
const clock = (over: Partial<Parameters<typeof effectiveDeadline>[0]> = {}) => ({
  startedAt: t0,
  timeLimitSeconds: 2700,
  extraSeconds: 0,
  pausedSeconds: 0,
  pausedAt: null,
  windowEndsAt: at(10 * 3600),
  ...over,
});

describe('an own pause with an end', () => {
  // Paused at 600 s for at most 300 s: from 900 s on the clock runs again.
  const own = clock({ pausedAt: at(600), pausedUntil: at(900) });

  it('stops the clock only until its end', () => {
    expect(isPaused(own, at(899))).toBe(true);
    expect(isPaused(own, at(900))).toBe(false);
    expect(effectiveDeadline(own, at(800))).toEqual(at(2700 + 200));
    expect(effectiveDeadline(own, at(5000))).toEqual(at(2700 + 300));
    expect(secondsLeft(own, at(1900))).toBe(2700 + 300 - 1900);
  });

  it('credits at most its allowance when it is closed late', () => {
    expect(resumeClock(own, at(4000))).toEqual({ pausedSeconds: 300, deadlineAt: at(3000) });
    expect(resumeClock(own, at(700))).toEqual({ pausedSeconds: 100, deadlineAt: at(2800) });
  });

  it('a staff pause (no end) stops the clock as long as it lasts', () => {
    const staff = clock({ pausedAt: at(600), pausedUntil: null });
    expect(isPaused(staff, at(100_000))).toBe(true);
    expect(effectiveDeadline(staff, at(4000))).toEqual(at(2700 + 3400));
  });
});

describe('deadline math', () => {
  it('is start + limit when nothing else applies', () => {
    expect(computeDeadline(clock())).toEqual(at(2700));
    expect(secondsLeft(clock(), at(700))).toBe(2000);
  });

  it('adds extra time and closed pauses', () => {
    expect(computeDeadline(clock({ extraSeconds: 600, pausedSeconds: 120 }))).toEqual(at(3420));
  });

  it('subtracts a cut', () => {
    expect(computeDeadline(clock({ extraSeconds: -300 }))).toEqual(at(2400));
  });

  it('never goes past the diagnostic window', () => {
    const c = clock({ windowEndsAt: at(1800), extraSeconds: 3600 });
    expect(computeDeadline(c)).toEqual(at(1800));
    expect(secondsLeft(c, at(1700))).toBe(100);
  });

  it('stops the clock while paused: seconds left stay put', () => {
    const c = clock({ pausedAt: at(1000) });
    expect(secondsLeft(c, at(1000))).toBe(1700);
    expect(secondsLeft(c, at(2500))).toBe(1700);
    expect(effectiveDeadline(c, at(2500))).toEqual(at(4200));
    expect(isPastDeadline(c, at(3000))).toBe(false);
  });

  it('lets the window end a pause all the same', () => {
    const c = clock({ pausedAt: at(1000), windowEndsAt: at(3000) });
    expect(secondsLeft(c, at(2900))).toBe(100);
    expect(isPastDeadline(c, at(3000))).toBe(true);
  });

  it('moves the deadline on by the pause at resume', () => {
    const r = resumeClock(clock({ pausedAt: at(1000), pausedSeconds: 60 }), at(1300));
    expect(r.pausedSeconds).toBe(360);
    expect(r.deadlineAt).toEqual(at(3060));
  });

  it('is past at the deadline itself and gives no negative seconds', () => {
    expect(isPastDeadline(clock(), at(2699))).toBe(false);
    expect(isPastDeadline(clock(), at(2700))).toBe(true);
    expect(secondsLeft(clock(), at(9999))).toBe(0);
  });

  it('changes time with the cap and never below the start', () => {
    expect(changeTime(clock(), 900)).toEqual({ extraSeconds: 900, deadlineAt: at(3600) });
    expect(changeTime(clock({ windowEndsAt: at(3000) }), 900).deadlineAt).toEqual(at(3000));
    expect(changeTime(clock(), -999_999)).toEqual({ extraSeconds: -2700, deadlineAt: t0 });
  });

  it('counts seconds until the window opens', () => {
    expect(secondsUntil(at(90), t0)).toBe(90);
    expect(secondsUntil(at(-5), t0)).toBe(0);
  });
});

describe('parseTimeSpan', () => {
  it.each([
    ['00:15:00', 900],
    ['-00:05:00', -300],
    ['+01:00:30', 3630],
    ['1.02:00:00', 93_600],
    ['-0.00:00:10', -10],
    ['00:00:00', 0],
    ['-00:00:00', 0],
  ])('%s → %i', (input, seconds) => expect(parseTimeSpan(input)).toBe(seconds));

  it.each(['15', '00:60:00', '00:00:60', '1.24:00:00', 'abc', '', '10:00', '8.00:00:00', '1:2:3'])(
    'rejects %s',
    (input) => expect(parseTimeSpan(input)).toBeNull(),
  );
});

describe('accommodated extra time', () => {
  it('is limit × percent / 100 in whole seconds, none without a profile', () => {
    expect(accommodatedExtraSeconds(2700, 50)).toBe(1350);
    expect(accommodatedExtraSeconds(2700, 33)).toBe(891);
    expect(accommodatedExtraSeconds(2700, 0)).toBe(0);
    expect(accommodatedExtraSeconds(2700, null)).toBe(0);
    expect(computeDeadline(clock({ extraSeconds: accommodatedExtraSeconds(2700, 50) }))).toEqual(at(4050));
  });
});
