import type { Redis } from 'ioredis';
import pg from 'pg';

/** How a publish ended: how many live instances had to handle it, and how many said they did. */
export interface Delivery {
  expected: number;
  acknowledged: number;
}

/**
 * A channel shared by every instance of the server: a message published here reaches the other
 * instances (never this one: each message carries its origin). Each receiver acknowledges a
 * message once its listeners have run, and `publish` can wait for the acknowledgements of every
 * instance that was listening when it was sent (bounded: an instance that does not answer in time
 * is not waited for longer). An instance that is not listening says so (`listening`), so what it
 * keeps because of these messages must not be trusted until it listens again.
 */
export interface Broadcast {
  /** Resolves once every live instance handled the message, or after `waitMs` (0: at once). */
  publish(message: string, options?: { waitMs?: number }): Promise<Delivery>;
  /** Sends a message nobody acknowledges (live fan-out: many small messages, nothing waits). */
  notify(message: string): void;
  /** The largest message the channel carries (PostgreSQL's NOTIFY payload is under 8,000 bytes). */
  readonly maxMessageBytes: number;
  onMessage(fn: (message: string) => void): void;
  /** True while this instance hears the channel. */
  readonly listening: boolean;
  /** Called when `listening` changes; `true` after a (re)subscription that may have missed messages. */
  onListening(fn: (listening: boolean) => void): void;
  /** Resolves once this instance listens (tests; a start that must not miss messages). */
  ready(): Promise<void>;
  close(): void;
}

let sequence = 0;

/** Shared by both channels: framing, origins, acknowledgements, listeners. */
abstract class BaseBroadcast implements Broadcast {
  protected readonly origin = `${process.pid}-${Math.random().toString(36).slice(2, 12)}`;
  private readonly listeners: ((message: string) => void)[] = [];
  private readonly listeningListeners: ((listening: boolean) => void)[] = [];
  private isListening = false;
  private readonly pending = new Map<
    string,
    { from: Set<string>; expected: number | Set<string> | null; settle: () => void }
  >();

  get listening(): boolean {
    return this.isListening;
  }

  /**
   * Sends a raw frame and answers who should acknowledge it: a count of receivers (Redis says
   * how many connections got it) or the origins of the live listeners (PostgreSQL).
   */
  protected abstract send(frame: string): Promise<number | string[]>;
  abstract readonly maxMessageBytes: number;
  /** Sends a frame without waiting (acknowledgements). */
  protected abstract sendQuietly(frame: string): void;
  abstract ready(): Promise<void>;
  abstract close(): void;

  onMessage(fn: (message: string) => void): void {
    this.listeners.push(fn);
  }

  notify(message: string): void {
    this.sendQuietly(`N|${this.origin}|${this.origin}.${++sequence}|${message}`);
  }

  onListening(fn: (listening: boolean) => void): void {
    this.listeningListeners.push(fn);
  }

  protected setListening(value: boolean): void {
    if (value === this.isListening) return;
    this.isListening = value;
    for (const fn of this.listeningListeners) fn(value);
  }

  async publish(message: string, options: { waitMs?: number } = {}): Promise<Delivery> {
    const waitMs = options.waitMs ?? 0;
    const id = `${this.origin}.${++sequence}`;
    let settle = () => {};
    const done = new Promise<void>((resolve) => (settle = resolve));
    const entry = { from: new Set<string>(), expected: null as number | Set<string> | null, settle };
    if (waitMs > 0) this.pending.set(id, entry);
    try {
      const receivers = await this.send(`M|${this.origin}|${id}|${message}`);
      if (waitMs <= 0) return { expected: 0, acknowledged: 0 };
      entry.expected =
        typeof receivers === 'number'
          ? // Redis counts this instance's own subscription among the receivers.
            Math.max(0, receivers - (this.isListening ? 1 : 0))
          : new Set(receivers.filter((o) => o !== this.origin));
      if (this.complete(entry)) settle();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([done, new Promise<void>((r) => (timer = setTimeout(r, waitMs)))]);
      clearTimeout(timer);
      return { expected: sizeOf(entry.expected), acknowledged: entry.from.size };
    } catch {
      return { expected: -1, acknowledged: entry.from.size };
    } finally {
      this.pending.delete(id);
    }
  }

  private complete(entry: { from: Set<string>; expected: number | Set<string> | null }): boolean {
    const { expected, from } = entry;
    if (expected === null) return false;
    if (typeof expected === 'number') return from.size >= expected;
    for (const origin of expected) if (!from.has(origin)) return false;
    return true;
  }

  /**
   * A frame from the channel: `M|origin|id|message` (acknowledged), `N|origin|id|message` (not) or
   * `A|origin|id` (an acknowledgement).
   */
  protected received(raw: string): void {
    const [kind, origin, id] = raw.split('|', 3);
    if (!origin || !id || origin === this.origin) return;
    if (kind === 'A') {
      const entry = this.pending.get(id);
      if (!entry) return;
      entry.from.add(origin);
      if (this.complete(entry)) entry.settle();
      return;
    }
    if (kind !== 'M' && kind !== 'N') return;
    const message = raw.slice(kind.length + origin.length + id.length + 3);
    for (const fn of this.listeners) fn(message);
    // Only for its sender (others ignore ids they did not send).
    if (kind === 'M') this.sendQuietly(`A|${this.origin}|${id}`);
  }
}

const sizeOf = (expected: number | Set<string> | null) =>
  expected === null ? 0 : typeof expected === 'number' ? expected : expected.size;

/** Redis pub/sub: a dedicated subscriber connection listens to one channel. */
export class RedisBroadcast extends BaseBroadcast {
  private readonly subscriber: Redis;
  readonly maxMessageBytes = 4 * 1024 * 1024;

  constructor(
    private readonly redis: Redis,
    private readonly channel: string,
    private readonly onError: (err: unknown) => void = () => {},
  ) {
    super();
    this.subscriber = redis.duplicate({ autoResubscribe: false });
    this.subscriber.on('error', onError);
    // The connection queues nothing while it is not connected: subscribe once it is (and again
    // after a reconnect); until then this instance is not listening.
    this.subscriber.on('ready', () => {
      this.subscriber
        .subscribe(channel)
        .then(() => this.setListening(true))
        .catch(onError);
    });
    for (const event of ['close', 'end', 'reconnecting'])
      this.subscriber.on(event, () => this.setListening(false));
    // This connection listens to this one channel only (its name may carry the key prefix).
    this.subscriber.on('message', (_channel: string, raw: string) => this.received(raw));
  }

  protected async send(frame: string): Promise<number> {
    return this.redis.publish(this.channel, frame);
  }

  protected sendQuietly(frame: string): void {
    this.redis.publish(this.channel, frame).catch(this.onError);
  }

  async ready(): Promise<void> {
    if (this.listening) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 5000);
      this.onListening((on) => {
        if (on) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
  }

  close(): void {
    this.setListening(false);
    this.subscriber.disconnect();
  }
}

/**
 * PostgreSQL LISTEN/NOTIFY, for installations with several instances and no Redis: one dedicated
 * connection listens (and reconnects after a failure); messages go out with pg_notify through the
 * pool. The listening connections name themselves (`application_name`), so a sender reads who is
 * listening in the same statement that notifies. A payload stays under PostgreSQL's 8,000
 * bytes: the caller sends short messages.
 */
export class PgBroadcast extends BaseBroadcast {
  private client: pg.Client | null = null;
  private listening$: Promise<void>;
  // The frame's own header and JSON escaping stay within PostgreSQL's 8,000-byte payload.
  readonly maxMessageBytes = 7000;
  private closed = false;
  private readonly prefix: string;

  constructor(
    private readonly url: string,
    private readonly pool: { query<T>(text: string, params: unknown[]): Promise<T[]> },
    private readonly channel: string,
    private readonly onError: (err: unknown) => void = () => {},
  ) {
    super();
    if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`bad channel name ${channel}`);
    this.prefix = `${channel}:`;
    this.listening$ = this.listen();
  }

  private async listen(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client({ connectionString: this.url });
    client.on('notification', (n) => {
      if (n.channel === this.channel && n.payload) this.received(n.payload);
    });
    const lost = (err?: unknown) => {
      if (err) this.onError(err);
      if (this.client !== client) return;
      this.client = null;
      this.setListening(false);
      client.end().catch(() => undefined);
      if (!this.closed) setTimeout(() => void (this.listening$ = this.listen()), 1000).unref();
    };
    client.on('error', lost);
    client.on('end', () => lost());
    try {
      await client.connect();
      await client.query(`LISTEN ${this.channel}`);
      // Named only once listening: a sender then never waits for an instance that cannot hear it.
      await client.query(`SET application_name = '${this.prefix}${this.origin}'`);
      if (this.closed) {
        await client.end();
        return;
      }
      this.client = client;
      this.setListening(true);
    } catch (err) {
      this.onError(err);
      await client.end().catch(() => undefined);
      if (!this.closed) setTimeout(() => void (this.listening$ = this.listen()), 1000).unref();
    }
  }

  protected async send(frame: string): Promise<string[]> {
    const [row] = await this.pool.query<{ listeners: string[] }>(
      `select pg_notify($1, $2), array(select substr(application_name, $4) from pg_stat_activity
         where datname = current_database() and starts_with(application_name, $3)) as listeners`,
      [this.channel, frame, this.prefix, this.prefix.length + 1],
    );
    return row?.listeners ?? [];
  }

  protected sendQuietly(frame: string): void {
    this.pool.query('select pg_notify($1, $2)', [this.channel, frame]).catch(this.onError);
  }

  async ready(): Promise<void> {
    await this.listening$;
  }

  close(): void {
    this.closed = true;
    this.setListening(false);
    const client = this.client;
    this.client = null;
    client?.end().catch(() => undefined);
  }
}
