import type { Redis } from 'ioredis';
import pg from 'pg';

/**
 * A channel shared by every instance of the server: a message published here reaches the other
 * instances (never this one: each message carries its origin). Best effort: a message lost while
 * the channel is down is covered by the short lifetime of what it invalidates.
 */
export interface Broadcast {
  publish(message: string): void;
  onMessage(fn: (message: string) => void): void;
  /** Resolves once this instance listens (tests; a start that must not miss messages). */
  ready(): Promise<void>;
  close(): void;
}

/** Shared by both channels: origin stamping, listeners. */
abstract class BaseBroadcast implements Broadcast {
  protected readonly origin = `${process.pid}:${Math.random().toString(36).slice(2)}`;
  private readonly listeners: ((message: string) => void)[] = [];

  abstract publish(message: string): void;
  abstract ready(): Promise<void>;
  abstract close(): void;

  onMessage(fn: (message: string) => void): void {
    this.listeners.push(fn);
  }

  protected stamp(message: string): string {
    return `${this.origin}|${message}`;
  }

  protected received(raw: string): void {
    const cut = raw.indexOf('|');
    if (cut < 0 || raw.slice(0, cut) === this.origin) return;
    const message = raw.slice(cut + 1);
    for (const fn of this.listeners) fn(message);
  }
}

/** Redis pub/sub: a dedicated subscriber connection listens to one channel. */
export class RedisBroadcast extends BaseBroadcast {
  private readonly subscriber: Redis;

  constructor(
    private readonly redis: Redis,
    private readonly channel: string,
    onError: (err: unknown) => void = () => {},
  ) {
    super();
    this.subscriber = redis.duplicate();
    this.subscriber.on('error', onError);
    // The connection queues nothing while it is not connected: subscribe once it is (and again
    // after a reconnect).
    this.subscriber.on('ready', () => {
      this.subscriber.subscribe(channel).catch(onError);
    });
    // This connection listens to this one channel only (its name may carry the key prefix).
    this.subscriber.on('message', (_channel: string, raw: string) => this.received(raw));
  }

  publish(message: string): void {
    this.redis.publish(this.channel, this.stamp(message)).catch(() => undefined);
  }

  async ready(): Promise<void> {
    // Commands on one connection run in order: a PING answered means the SUBSCRIBE is done.
    await this.subscriber.ping().catch(() => undefined);
  }

  close(): void {
    this.subscriber.disconnect();
  }
}

/**
 * PostgreSQL LISTEN/NOTIFY, for installations with several instances and no Redis: one dedicated
 * connection listens (and reconnects after a failure); messages go out with pg_notify through the
 * pool. A payload stays under PostgreSQL's 8,000 bytes: the caller sends short messages.
 */
export class PgBroadcast extends BaseBroadcast {
  private client: pg.Client | null = null;
  private listening: Promise<void>;
  private closed = false;

  constructor(
    private readonly url: string,
    private readonly pool: { query(text: string, params: unknown[]): Promise<unknown> },
    private readonly channel: string,
    private readonly onError: (err: unknown) => void = () => {},
  ) {
    super();
    if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`bad channel name ${channel}`);
    this.listening = this.listen();
  }

  private async listen(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client({ connectionString: this.url });
    client.on('notification', (n) => {
      if (n.channel === this.channel && n.payload) this.received(n.payload);
    });
    client.on('error', (err) => {
      this.onError(err);
      if (this.client === client) this.client = null;
      client.end().catch(() => undefined);
      if (!this.closed) setTimeout(() => void (this.listening = this.listen()), 1000).unref();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${this.channel}`);
      this.client = client;
      if (this.closed) await client.end();
    } catch (err) {
      this.onError(err);
      await client.end().catch(() => undefined);
      if (!this.closed) setTimeout(() => void (this.listening = this.listen()), 1000).unref();
    }
  }

  publish(message: string): void {
    this.pool.query('select pg_notify($1, $2)', [this.channel, this.stamp(message)]).catch(this.onError);
  }

  async ready(): Promise<void> {
    await this.listening;
  }

  close(): void {
    this.closed = true;
    this.client?.end().catch(() => undefined);
    this.client = null;
  }
}
