import { createHash, randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { ErrorCode } from '@attesta/contract';
import fp from 'fastify-plugin';
import type { Db } from '../db/client.js';
import { publish } from '../events/domain-events.js';
import { files } from '../db/schema/index.js';
import { AppError } from '../lib/errors.js';
import { fileStorageOf } from '../lib/file-storage/index.js';
import { metrics } from '../lib/metrics.js';
import * as queue from './queue.js';
import type { JobFailure, QueueItemRow } from './queue.js';

/*
 * Runs queue items. Modules add handlers with registerJobHandler(type, handler); every server
 * instance polls the queue (claiming only types it has handlers for), so any of them may run a
 * job and each attempt runs on exactly one. A handler's thrown error is a failed attempt, retried
 * with backoff (queue.fail); a result file is stored in the files table, owned by the queue item.
 * Users see why an item failed by its error code only: a PermanentJobError or an AppError keeps
 * its code and English text; any other error (a bug, a database failure) is stored as
 * `job_failed` with a generic text, its own message going to the log alone.
 */

export interface JobContext {
  db: Db;
  item: QueueItemRow;
  /** Reports progress (0–100, with a short text for users); throws JobLockLost if the item was taken away. */
  progress(percent: number, text?: string | null): Promise<void>;
  log: FastifyBaseLogger;
}

export interface JobFile {
  name: string;
  mime: string;
  data: Buffer;
}

export interface JobOutcome {
  result?: Record<string, unknown> | null;
  file?: JobFile;
}

export type JobHandler = (ctx: JobContext) => Promise<JobOutcome | void>;

/**
 * Runs many claimed items of one type together (e.g. one transaction scoring many works).
 * Answers each item it took: its outcome, or the error that failed it (retried or not as a
 * handler's thrown error is). Items it leaves out of the map run one by one through the type's
 * handler. If it throws, every item runs one by one through the handler instead, so one bad item
 * never holds the others back.
 */
export type BatchJobHandler = (ctx: {
  db: Db;
  items: readonly QueueItemRow[];
  log: FastifyBaseLogger;
}) => Promise<Map<number, BatchItemOutcome | Error>>;

/** What a batch answers of one item: its result (an item with a result file runs alone). */
export type BatchItemOutcome = Pick<JobOutcome, 'result'>;

interface BatchOption {
  /** Items claimed and handed over at once, at most. */
  size: number;
  run: BatchJobHandler;
}

/**
 * A failure retrying cannot fix (the record is gone, the input is wrong): no further attempts.
 * Its message is stored for developers (write it in English, without values users must not see);
 * users see the text of its `code`.
 */
export class PermanentJobError extends Error {
  constructor(
    message: string,
    public readonly code: ErrorCode = 'job_failed',
  ) {
    super(message);
    this.name = 'PermanentJobError';
  }
}

/** The text stored for a failure whose own message is not for users (a bug, a database error). */
export const GENERIC_JOB_FAILURE = 'The job failed; the server log has the details';

/** What the queue item records of a failed attempt (never an unexpected error's own message). */
export function jobFailureOf(err: unknown): JobFailure {
  if (err instanceof PermanentJobError || err instanceof AppError)
    return { code: err.code, message: err.message };
  return { code: 'job_failed', message: GENERIC_JOB_FAILURE };
}

/** The item's lock went to another worker (stale-lock recovery): this attempt must stop. */
export class JobLockLost extends Error {
  constructor(id: number) {
    super(`queue item ${id}: lock lost`);
    this.name = 'JobLockLost';
  }
}

const registry = new Map<string, JobHandler>();
/** Types whose jobs are short (one work's scoring): the runner's quick lanes run only these. */
const quickTypes = new Set<string>();
/** Types whose due items are claimed many at a time and run together (batch scoring). */
const batchTypes = new Map<string, BatchOption>();

/**
 * Adds (or replaces) the handler of a job type. Call at module load or plugin registration.
 * `quick`: each job is short and light (it scores one work), so besides the main lane the
 * runner's quick lanes may run them side by side — 5,000 works finished at once are scored in
 * seconds, while long jobs (reports, imports) still run one at a time per instance.
 */
export function registerJobHandler(
  type: string,
  handler: JobHandler,
  options: { quick?: boolean; batch?: BatchOption } = {},
): void {
  registry.set(type, handler);
  if (options.quick) quickTypes.add(type);
  else quickTypes.delete(type);
  if (options.batch) batchTypes.set(type, options.batch);
  else batchTypes.delete(type);
}

/** The job types with a handler (what the queue may hold; the contract names each for staff). */
export function registeredJobTypes(): string[] {
  return [...registry.keys()].sort();
}

export interface JobRunnerOptions {
  /** Names this worker in lockedBy (default host:pid:random). */
  workerId?: string;
  /** Handlers by type; default the global registry (read at each claim, so late registrations count). */
  handlers?: Map<string, JobHandler>;
  /** Batch handlers by type; default the global registry's (registerJobHandler's `batch`). */
  batches?: Map<string, BatchOption>;
  /** Check for orphaned running items at most this often (default 60 s). */
  recoverEveryMs?: number;
  staleLockMs?: number;
}

export class JobRunner {
  readonly workerId: string;
  private readonly handlers: Map<string, JobHandler>;
  private readonly batches: Map<string, BatchOption>;
  private readonly recoverEveryMs: number;
  private readonly staleLockMs: number;
  private lastRecovery = 0;
  private readonly timers = new Set<NodeJS.Timeout>();
  private stopped = true;
  private readonly running = new Set<Promise<unknown>>();

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    options: JobRunnerOptions = {},
  ) {
    this.workerId = options.workerId ?? `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
    this.handlers = options.handlers ?? registry;
    this.batches = options.batches ?? (options.handlers ? new Map() : batchTypes);
    this.recoverEveryMs = options.recoverEveryMs ?? 60_000;
    this.staleLockMs = options.staleLockMs ?? queue.STALE_LOCK_MS;
  }

  /**
   * Claims one due item and runs it to its end (done, retry scheduled, or failed). Returns the
   * item as it is afterwards, or null when nothing was due.
   */
  async runOnce(lane: 'main' | 'quick' = 'main'): Promise<QueueItemRow | null> {
    if (Date.now() - this.lastRecovery >= this.recoverEveryMs) {
      this.lastRecovery = Date.now();
      const recovered = await this.db.transaction(async (tx) => {
        const items = await queue.recoverStaleItems(tx, this.staleLockMs);
        // An item whose worker died with its last attempt has failed for good: its creator is told.
        for (const item of items)
          if (item.status === 'failed') await publish('queueItemSettled', { db: tx, item, status: 'failed' });
        return items;
      });
      for (const item of recovered)
        metrics.jobItems(item.type, item.status === 'failed' ? 'failed' : 'retry');
      if (recovered.length)
        this.log.warn({ ids: recovered.map((item) => item.id) }, 'released stale queue items');
    }
    const types = [...this.handlers.keys()].filter((type) => lane === 'main' || quickTypes.has(type));
    const item = await queue.claim(this.db, this.workerId, types);
    if (!item) return null;
    const batch = this.batches.get(item.type);
    const more = batch ? await queue.claimMany(this.db, this.workerId, item.type, batch.size - 1) : [];
    if (batch && more.length) await this.executeBatch(batch, [item, ...more]);
    else await this.execute(item);
    return queue.findQueueItem(this.db, item.id);
  }

  /**
   * Runs claimed items of one type through its batch handler; the items done are settled in one
   * statement, the failed ones as execute() settles them, the ones it left (or all, if it threw)
   * run one by one.
   */
  private async executeBatch(batch: BatchOption, items: QueueItemRow[]): Promise<void> {
    const type = items[0]!.type;
    const log = this.log.child({ jobType: type, batch: items.length });
    let outcomes: Map<number, BatchItemOutcome | Error>;
    const began = performance.now();
    try {
      outcomes = await batch.run({ db: this.db, items, log });
    } catch (err) {
      log.warn({ err }, 'batch failed; its items run one by one');
      outcomes = new Map();
    }
    metrics.jobRan(type, (performance.now() - began) / 1000);
    const done = items.filter((i) => {
      const o = outcomes.get(i.id);
      return o !== undefined && !(o instanceof Error);
    });
    const settled = done.length
      ? await this.db.transaction(async (tx) => {
          const ids = new Set(
            await queue.completeMany(
              tx,
              this.workerId,
              done.map((i) => ({
                id: i.id,
                result: (outcomes.get(i.id) as BatchItemOutcome).result ?? null,
              })),
            ),
          );
          for (const item of done)
            if (ids.has(item.id))
              await publish('queueItemSettled', {
                db: tx,
                item: { ...item, errorCode: null },
                status: 'done',
              });
          return ids;
        })
      : new Set<number>();
    metrics.jobItems(type, 'done', settled.size);
    for (const item of items) {
      const o = outcomes.get(item.id);
      if (o instanceof Error) await this.settleFailure(item, o, log);
      else if (o === undefined) await this.execute(item);
    }
    // The ids settled here, as 'job done' names its one: a log says who ran which item.
    log.info({ done: done.length, queueItemIds: [...settled] }, 'batch done');
  }

  /** The job types this runner claims (the queue's kinds /metrics reports, even when empty). */
  types(): string[] {
    return [...this.handlers.keys()];
  }

  /** Runs due items until none is left (or `max` ran). Returns how many ran. */
  async drain(max = 1000): Promise<number> {
    let n = 0;
    while (n < max && (await this.runOnce())) n++;
    return n;
  }

  private async execute(item: QueueItemRow): Promise<void> {
    const log = this.log.child({ queueItemId: item.id, jobType: item.type, attempt: item.attempts });
    const handler = this.handlers.get(item.type);
    const began = performance.now();
    try {
      if (!handler) throw new PermanentJobError(`No handler for jobs of type ${item.type}`);
      const outcome =
        (await handler({
          db: this.db,
          item,
          log,
          progress: async (percent, text) => {
            if (!(await queue.progress(this.db, item.id, this.workerId, percent, text)))
              throw new JobLockLost(item.id);
          },
        })) ?? {};
      // A report's bytes go to the file storage (never through the embedded database).
      await fileStorageOf(this.db).staged((put) =>
        this.db.transaction(async (tx) => {
          let fileId: number | null = null;
          if (outcome.file) {
            const { name, mime, data } = outcome.file;
            const [stored] = await tx
              .insert(files)
              .values({
                ownerType: 'queue_item',
                ownerId: item.id,
                name,
                mime,
                size: data.length,
                sha256: createHash('sha256').update(data).digest('hex'),
                ...(await put(data)),
                createdBy: item.createdBy,
              })
              .returning({ id: files.id });
            fileId = stored!.id;
          }
          if (!(await queue.complete(tx, item.id, this.workerId, outcome.result ?? null, fileId)))
            throw new JobLockLost(item.id);
          await publish('queueItemSettled', { db: tx, item: { ...item, errorCode: null }, status: 'done' });
        }),
      );
      metrics.jobRan(item.type, (performance.now() - began) / 1000);
      metrics.jobItems(item.type, 'done');
      log.info('job done');
    } catch (err) {
      if (handler) metrics.jobRan(item.type, (performance.now() - began) / 1000);
      if (err instanceof JobLockLost) {
        log.warn('job lost its lock; another worker owns it now');
        return;
      }
      await this.settleFailure(item, err, log);
    }
  }

  /** Records a failed attempt: retried with backoff, or failed for good and its creator told. */
  private async settleFailure(item: QueueItemRow, err: unknown, log: FastifyBaseLogger): Promise<void> {
    const failure = jobFailureOf(err);
    const status = await this.db.transaction(async (tx) => {
      const after = await queue.fail(tx, item.id, this.workerId, failure, {
        retry: !(err instanceof PermanentJobError),
      });
      // Told once, when no attempt is left (a retry scheduled is not an end).
      if (after === 'failed')
        await publish('queueItemSettled', {
          db: tx,
          item: { ...item, errorCode: failure.code },
          status: 'failed',
        });
      return after;
    });
    if (status) metrics.jobItems(item.type, status === 'failed' ? 'failed' : 'retry');
    log.warn({ err, queueItemId: item.id, status }, 'job failed');
  }

  /**
   * Polls every `intervalMs` (at once again after a job ran, so a backlog drains quickly): one main
   * lane runs any job; `quickLanes` more run only quick jobs (registerJobHandler's `quick`), each
   * claiming its own item, so a backlog of scoring drains several at a time and never waits
   * behind a long report.
   */
  start(intervalMs: number, quickLanes = 0): void {
    if (!this.stopped) return;
    this.stopped = false;
    const lane = (kind: 'main' | 'quick') => {
      const tick = async () => {
        if (this.stopped) return;
        let ran = false;
        const run = this.runOnce(kind);
        this.running.add(run);
        try {
          ran = (await run) !== null;
        } catch (err) {
          this.log.warn({ err }, 'job poll failed');
        } finally {
          this.running.delete(run);
        }
        if (!this.stopped) this.timers.add(later(ran ? 0 : intervalMs));
      };
      const later = (ms: number) => {
        const timer: NodeJS.Timeout = setTimeout(() => {
          this.timers.delete(timer);
          void tick();
        }, ms);
        timer.unref();
        return timer;
      };
      this.timers.add(later(intervalMs));
    };
    lane('main');
    for (let i = 0; i < quickLanes; i++) lane('quick');
  }

  /** Stops polling and waits for the jobs in hand to end. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    await Promise.all([...this.running].map((run) => run.catch(() => undefined)));
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** This instance's job runner (tests drive it with runOnce / drain). */
    jobs: JobRunner;
  }
}

/**
 * The job runner of this server instance, polling every config.jobsPollIntervalMs
 * (JOBS_POLL_INTERVAL_MS, default 1 s; 0 = off, the default in tests, which call app.jobs.runOnce()),
 * with config.jobsQuickLanes (JOBS_QUICK_LANES, default 1) more lanes for quick jobs.
 */
export const jobsPlugin = fp(
  async (app) => {
    const runner = new JobRunner(app.ctx.db, app.log);
    app.decorate('jobs', runner);
    const intervalMs = app.ctx.config.jobsPollIntervalMs;
    app.addHook('onReady', async () => {
      if (Number.isFinite(intervalMs) && intervalMs > 0)
        runner.start(intervalMs, app.ctx.config.jobsQuickLanes);
    });
    app.addHook('onClose', async () => runner.stop());
  },
  { name: 'jobs' },
);
