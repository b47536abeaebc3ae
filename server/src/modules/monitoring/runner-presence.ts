/*
 * Whether a sitting's runner is connected, from its live streams on this instance, for the
 * connection log of the work (the room's sitting log, the protocol). The last runner stream of a
 * sitting closed by the client starts a grace period: a runner back within it (a reload, a page of
 * the runner handing over to another) lost nothing; one that is not is a lost connection, noted at
 * the moment it closed. A stream opened after a noted loss notes its return.
 */
import type { AppContext } from '../../context.js';
import { noteConnectionLost, noteConnectionRestored } from './monitoring.service.js';

/** How long a runner may be away before its absence is a lost connection. */
export const RUNNER_GRACE_MS = 10_000;

interface Pending {
  since: Date;
  timer: NodeJS.Timeout;
}

export class RunnerPresence {
  private readonly open = new Map<number, number>();
  private readonly pending = new Map<number, Pending>();
  private closed = false;

  constructor(
    private readonly ctx: AppContext,
    private readonly onError: (err: unknown) => void,
    private readonly graceMs = RUNNER_GRACE_MS,
  ) {}

  /** A runner stream of the sitting opened; resolves once a return after a noted loss is noted. */
  async opened(participantTestId: number): Promise<void> {
    const n = this.open.get(participantTestId) ?? 0;
    this.open.set(participantTestId, n + 1);
    const away = this.pending.get(participantTestId);
    if (away) {
      // Back within the grace period: nothing was lost.
      clearTimeout(away.timer);
      this.pending.delete(participantTestId);
      return;
    }
    if (n === 0) await noteConnectionRestored(this.ctx, participantTestId).catch(this.onError);
  }

  /** A runner stream of the sitting ended: by the client (gone) or by the server (nothing lost). */
  closedStream(participantTestId: number, byClient: boolean): void {
    const left = (this.open.get(participantTestId) ?? 1) - 1;
    if (left > 0) {
      this.open.set(participantTestId, left);
      return;
    }
    this.open.delete(participantTestId);
    if (!byClient || this.closed || this.pending.has(participantTestId)) return;
    const since = new Date();
    const timer = setTimeout(() => void this.settle(participantTestId), this.graceMs);
    timer.unref();
    this.pending.set(participantTestId, { since, timer });
  }

  /** The grace period of an absent runner ended (also called by tests instead of waiting). */
  async settle(participantTestId: number): Promise<void> {
    const away = this.pending.get(participantTestId);
    if (!away) return;
    clearTimeout(away.timer);
    this.pending.delete(participantTestId);
    if (this.closed) return;
    await noteConnectionLost(this.ctx, participantTestId, away.since).catch(this.onError);
  }

  /** Sittings whose runner is away within its grace period. */
  awaiting(): number[] {
    return [...this.pending.keys()];
  }

  /** The server closes: its own ending of streams is no lost connection. */
  close(): void {
    this.closed = true;
    for (const { timer } of this.pending.values()) clearTimeout(timer);
    this.pending.clear();
  }
}

const presences = new WeakMap<AppContext, RunnerPresence>();
export const attachPresence = (ctx: AppContext, presence: RunnerPresence) => presences.set(ctx, presence);
/** The instance's runner presence (tests settle grace periods through it). */
export const presenceOf = (ctx: AppContext) => presences.get(ctx);
