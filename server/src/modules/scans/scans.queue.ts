/*
 * The scans' background queue: in-process, one batch at a time per server process, in arrival
 * order. A batch's files wait in their upload spool (temporary files on this machine), so a batch
 * is read by the process that took it; when that process closes, what it had not finished is
 * marked failed (its files are gone) — upload those again. Reading runs on the main thread between
 * requests, yielding after every page.
 */
export class ScanQueue {
  private tail: Promise<void> = Promise.resolve();
  private readonly pending = new Set<number>();
  private closed = false;

  constructor(private readonly onError: (batchId: number, error: unknown) => Promise<void>) {}

  /** Runs `job` after every batch queued before it; `drop` when the queue closes first. */
  add(batchId: number, job: () => Promise<void>, drop: () => Promise<void>): void {
    this.pending.add(batchId);
    this.tail = this.tail.then(async () => {
      try {
        if (this.closed) await drop();
        else await job();
      } catch (error) {
        await this.onError(batchId, error);
      } finally {
        this.pending.delete(batchId);
      }
    });
  }

  /** Whether `closing` was asked: a job stops between pages. */
  get stopping(): boolean {
    return this.closed;
  }

  /** Stops taking up batches and waits for the one being read to stop. */
  async close(): Promise<void> {
    this.closed = true;
    await this.tail;
  }
}
