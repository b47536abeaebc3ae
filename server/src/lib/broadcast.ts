import type { Redis } from 'ioredis';

/**
 * One Redis pub/sub channel shared by every instance of the server. Messages published here reach
 * the other instances (never this one: each message carries its origin). Best effort: a message
 * lost while Redis is unreachable is covered by the short lifetime of what it invalidates.
 */
export class RedisBroadcast {
  private readonly subscriber: Redis;
  private readonly origin = `${process.pid}:${Math.random().toString(36).slice(2)}`;
  private readonly listeners: ((message: string) => void)[] = [];

  constructor(
    private readonly redis: Redis,
    private readonly channel: string,
    onError: (err: unknown) => void = () => {},
  ) {
    this.subscriber = redis.duplicate();
    this.subscriber.on('error', onError);
    // The connection queues nothing while it is not connected: subscribe once it is (and again
    // after a reconnect).
    this.subscriber.on('ready', () => {
      this.subscriber.subscribe(channel).catch(onError);
    });
    // This connection listens to this one channel only (its name may carry the key prefix).
    this.subscriber.on('message', (_channel: string, raw: string) => {
      const cut = raw.indexOf('|');
      if (cut < 0 || raw.slice(0, cut) === this.origin) return;
      const message = raw.slice(cut + 1);
      for (const fn of this.listeners) fn(message);
    });
  }

  publish(message: string): void {
    this.redis.publish(this.channel, `${this.origin}|${message}`).catch(() => undefined);
  }

  onMessage(fn: (message: string) => void): void {
    this.listeners.push(fn);
  }

  /** Resolves once the subscription is in force (commands on one connection run in order). */
  async ready(): Promise<void> {
    await this.subscriber.ping().catch(() => undefined);
  }

  close(): void {
    this.subscriber.disconnect();
  }
}
