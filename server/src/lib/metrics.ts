import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry, type Metric } from 'prom-client';

/*
 * The process's metrics (prom-client), counted where things happen: a module calls the small
 * functions below and knows nothing of Prometheus, of the /metrics route (plugins/metrics.ts) or
 * of the other modules. The instruments are the process's, not an app's: one server process runs
 * one app (tests build many in one process and read differences). Gauges that are read when
 * scraped (the database pool, the queue, Redis) belong to the app and live in plugins/metrics.ts.
 *
 * Labels carry only bounded names — a route's pattern, a status, a job type, a reason — never an
 * id, a code, an answer or a URL as sent. What the hot path calls (a request, a save, a start, a
 * finish) adds to a number in place and allocates nothing; prom-client reads the numbers when
 * scraped.
 */

/** The registry /metrics reads (with the app's own, plugins/metrics.ts). */
export const processRegistry = new Registry();
const registers = [processRegistry];

/** Seconds, from 5 ms to 10 s: a save, a start or a page of a list; a slow report. */
const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * One series of the request histogram (a method, a route pattern, a status), counted in place: an
 * observation is a bucket's increment, no label object or series key is built for it.
 */
export class RequestSeries {
  /** Observations per bucket (not cumulative; the export adds them up). */
  readonly inBucket = new Float64Array(SECONDS.length);
  sum = 0;
  count = 0;
  constructor(
    readonly method: string,
    readonly route: string,
    readonly status: string,
  ) {}

  observe(seconds: number): void {
    let i = 0;
    while (i < SECONDS.length && seconds > SECONDS[i]!) i++;
    if (i < SECONDS.length) this.inBucket[i]!++;
    this.sum += seconds;
    this.count++;
  }
}

/**
 * `attesta_http_request_duration_seconds`: the request histogram, exported by prom-client like
 * its own (the registry renders what `get()` answers) but observed through RequestSeries, which
 * allocates nothing per request: prom-client's `observe` builds a label object and a series key
 * each time, about 2 µs, which every request of the save path would pay.
 */
class RequestHistogram {
  readonly name = 'attesta_http_request_duration_seconds';
  readonly help = 'Time from the request to its answer, by method, route pattern and status';
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly all: RequestSeries[] = [];

  series(method: string, route: string, status: number): RequestSeries {
    const series = new RequestSeries(method, route, String(status));
    this.all.push(series);
    return series;
  }

  get() {
    const values: { metricName: string; labels: Record<string, string | number>; value: number }[] = [];
    for (const s of this.all) {
      const labels = { method: s.method, route: s.route, status: s.status };
      let cumulative = 0;
      SECONDS.forEach((le, i) => {
        cumulative += s.inBucket[i]!;
        values.push({ metricName: `${this.name}_bucket`, labels: { le, ...labels }, value: cumulative });
      });
      values.push({ metricName: `${this.name}_bucket`, labels: { le: '+Inf', ...labels }, value: s.count });
      values.push({ metricName: `${this.name}_sum`, labels, value: s.sum });
      values.push({ metricName: `${this.name}_count`, labels, value: s.count });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }
}

export const httpDuration = new RequestHistogram();
processRegistry.registerMetric(httpDuration as unknown as Metric);

/*
 * The counters of the hot path (saves, starts, finishes) are plain numbers added to in place and
 * handed to prom-client when scraped (its `collect`): prom-client's own `inc` with labels builds a
 * series key and an answer object on every call.
 */
const FINISH_REASONS = ['manual', 'timeout', 'swept', 'paper', 'scan'] as const;
export type FinishReason = (typeof FINISH_REASONS)[number];
const counted = {
  batched: 0,
  checked: 0,
  starts: 0,
  finishes: { manual: 0, timeout: 0, swept: 0, paper: 0, scan: 0 } satisfies Record<FinishReason, number>,
};

new Counter({
  name: 'attesta_answer_saves_total',
  help: "A participant's answer saves acknowledged (PUT saveanswer), by path: batched (the group commit) or checked (the full transaction)",
  labelNames: ['path'] as const,
  registers,
  collect() {
    this.reset();
    this.inc({ path: 'batched' }, counted.batched);
    this.inc({ path: 'checked' }, counted.checked);
  },
});

const saveBatchSize = new Histogram({
  name: 'attesta_save_batch_size',
  help: 'Saves carried by one group-commit statement',
  buckets: [1, 2, 5, 10, 20, 50, 100, 200, 500],
  registers,
});
const saveBatchDuration = new Histogram({
  name: 'attesta_save_batch_duration_seconds',
  help: 'Time of one group-commit statement of saves, to its commit',
  buckets: SECONDS,
  registers,
});

new Counter({
  name: 'attesta_work_starts_total',
  help: 'Exam works started (a new work; reopening one is not counted)',
  registers,
  collect() {
    this.reset();
    this.inc(counted.starts);
  },
});

new Counter({
  name: 'attesta_work_finishes_total',
  help: 'Exam works finished, by reason: manual and timeout (the participant), swept (the server at the deadline), paper (keyed in from a form), scan (read from a scanned form)',
  labelNames: ['reason'] as const,
  registers,
  collect() {
    this.reset();
    for (const reason of FINISH_REASONS) this.inc({ reason }, counted.finishes[reason]);
  },
});

const sse = new Gauge({
  name: 'attesta_sse_connections',
  help: 'Server-sent event streams open on this instance, by stream: room (staff) or participant (the runner)',
  labelNames: ['stream'] as const,
  registers,
});

const jobDuration = new Histogram({
  name: 'attesta_job_duration_seconds',
  help: 'Time of one run of a job handler, by job type (a batch of items is one run)',
  labelNames: ['type'] as const,
  buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
  registers,
});
const jobItems = new Counter({
  name: 'attesta_job_items_total',
  help: 'Queue items whose attempt ended, by job type and outcome: done, retry (failed, tried again later) or failed (for good)',
  labelNames: ['type', 'outcome'] as const,
  registers,
});

export type SseStream = 'room' | 'participant';
export type JobOutcome = 'done' | 'retry' | 'failed';

/** What modules tell the metrics. */
export const metrics = {
  /** A participant's save was acknowledged. */
  answerSaved(path: 'batched' | 'checked'): void {
    counted[path]++;
  },
  /** A group-commit statement of `size` saves ended after `seconds`. */
  saveBatch(size: number, seconds: number): void {
    saveBatchSize.observe(size);
    saveBatchDuration.observe(seconds);
  },
  workStarted(): void {
    counted.starts++;
  },
  worksFinished(reason: FinishReason, count = 1): void {
    counted.finishes[reason] += count;
  },
  /** A stream opened; call what it answers once when it ends. */
  streamOpened(stream: SseStream): () => void {
    sse.inc({ stream });
    let open = true;
    return () => {
      if (!open) return;
      open = false;
      sse.dec({ stream });
    };
  },
  /** A job handler ran for `seconds` (one item or one batch). */
  jobRan(type: string, seconds: number): void {
    jobDuration.observe({ type }, seconds);
  },
  /** Items of a job type whose attempt ended so. */
  jobItems(type: string, outcome: JobOutcome, count = 1): void {
    if (count > 0) jobItems.inc({ type, outcome }, count);
  },
};

let processMetrics = false;

/**
 * prom-client's own metrics of the process (event-loop delay, heap and resident memory, garbage
 * collection, handles, CPU), started once per process when /metrics is on: the event-loop monitor
 * samples every 10 ms.
 */
export function startProcessMetrics(): void {
  if (processMetrics) return;
  processMetrics = true;
  collectDefaultMetrics({ register: processRegistry, eventLoopMonitoringPrecision: 10 });
}
