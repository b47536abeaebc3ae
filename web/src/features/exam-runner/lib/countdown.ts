/**
 * The server owns the clock (docs/design.md §3, §6): the countdown runs on the server's time, estimated
 * as local time + offset, where offset = serverTime − local time when the answer arrived.
 */
export const WARNING_SECONDS = [600, 300, 60] as const;

export interface ServerClock {
  /** serverTime − local time at receipt, ms. */
  offsetMs: number;
  deadlineMs: number;
}

export function syncClock(deadlineAt: string, serverTime: string, receivedAtLocalMs: number): ServerClock {
  return { offsetMs: Date.parse(serverTime) - receivedAtLocalMs, deadlineMs: Date.parse(deadlineAt) };
}

export function secondsLeftAt(clock: ServerClock, localNowMs: number): number {
  return Math.max(0, Math.ceil((clock.deadlineMs - (localNowMs + clock.offsetMs)) / 1000));
}

/**
 * Warnings to announce once each: the thresholds crossed since the last check. Those already
 * behind when the runner opened are not announced (the participant sees the time anyway).
 */
export function crossedWarnings(previousSeconds: number, nextSeconds: number): number[] {
  return WARNING_SECONDS.filter((w) => previousSeconds > w && nextSeconds <= w);
}

/** `1:05:09`, `05:09`. */
export function formatClock(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const seconds = s % 60;
  const mm = String(minutes).padStart(2, '0');
  const ss = String(seconds).padStart(2, '0');
  return hours ? `${hours}:${mm}:${ss}` : `${mm}:${ss}`;
}
