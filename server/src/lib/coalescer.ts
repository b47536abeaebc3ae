export interface CoalescerOptions<I> {
  /** The most calls one batch carries. */
  maxBatch?: number;
  /**
   * The most batches running at once. While they run, new calls gather into the next one: under
   * load the batches grow instead of the number of concurrent statements.
   */
  maxInFlight?: number;
  /**
   * Calls with the same key never share a batch (a write that may touch a row only once per
   * statement): the later one rides in the next batch.
   */
  conflictKey?: (input: I) => string;
}

interface Pending<I, O> {
  input: I;
  resolve: (output: O) => void;
  reject: (err: unknown) => void;
}

/**
 * Calls of one kind that arrive together run as ONE batch (one statement: one round trip, one
 * plan, one commit) at the end of the current turn of the event loop, or, while `maxInFlight`
 * batches run, as soon as one of them ends. A lone call waits for nothing but the end of the
 * turn; at 10:00 the batches grow with the load, which is what lets one process keep up (group
 * commit for saves, one read for many sign-ins). Every call is answered only after the batch
 * carrying it has ended, and never from a batch that was sent before the call was made, so a
 * read sees every write that was committed before it was asked for. `run` answers the outputs in
 * the order of its inputs; a batch that throws fails every call it carried.
 */
export class Coalescer<I, O> {
  private queue: Pending<I, O>[] = [];
  private scheduled = false;
  private inFlight = 0;
  private readonly maxBatch: number;
  private readonly maxInFlight: number;

  constructor(
    private readonly run: (inputs: I[]) => Promise<O[]>,
    private readonly options: CoalescerOptions<I> = {},
  ) {
    this.maxBatch = options.maxBatch ?? 500;
    this.maxInFlight = options.maxInFlight ?? 2;
  }

  call(input: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ input, resolve, reject });
      this.schedule();
    });
  }

  private schedule() {
    if (this.scheduled || this.inFlight >= this.maxInFlight || !this.queue.length) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  private flush() {
    this.scheduled = false;
    const conflictKey = this.options.conflictKey;
    while (this.queue.length && this.inFlight < this.maxInFlight) {
      let batch: Pending<I, O>[];
      if (conflictKey) {
        batch = [];
        const later: Pending<I, O>[] = [];
        const keys = new Set<string>();
        for (const p of this.queue) {
          const key = conflictKey(p.input);
          if (batch.length < this.maxBatch && !keys.has(key)) {
            keys.add(key);
            batch.push(p);
          } else later.push(p);
        }
        this.queue = later;
      } else batch = this.queue.splice(0, this.maxBatch);
      this.inFlight++;
      void this.settle(batch).finally(() => {
        this.inFlight--;
        this.schedule();
      });
    }
  }

  private async settle(batch: Pending<I, O>[]) {
    try {
      const outputs = await this.run(batch.map((p) => p.input));
      batch.forEach((p, i) => p.resolve(outputs[i] as O));
    } catch (err) {
      for (const p of batch) p.reject(err);
    }
  }
}
