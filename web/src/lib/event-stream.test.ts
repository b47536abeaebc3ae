import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openEventStream } from './event-stream';

// Subscribers of one URL share one connection; a late one is told the stream is up and greeted.

class FakeEventSource {
  static CLOSED = 2;
  static all: FakeEventSource[] = [];
  readyState = 1;
  closed = false;
  onerror: (() => void) | null = null;
  onopen: (() => void) | null = null;
  private readonly listeners = new Map<string, ((e: MessageEvent<string>) => void)[]>();
  constructor(readonly url: string) {
    FakeEventSource.all.push(this);
  }
  addEventListener(type: string, fn: (e: MessageEvent<string>) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), fn]);
  }
  emit(type: string, data: unknown) {
    for (const fn of this.listeners.get(type) ?? [])
      fn({ data: JSON.stringify(data) } as MessageEvent<string>);
  }
  close() {
    this.closed = true;
    this.readyState = FakeEventSource.CLOSED;
  }
}

beforeEach(() => {
  FakeEventSource.all = [];
  vi.stubGlobal('EventSource', FakeEventSource);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('openEventStream', () => {
  it('shares one connection per URL, greets a late subscriber, closes with the last one', async () => {
    const first = { hello: vi.fn(), work: vi.fn() };
    const closeFirst = openEventStream('/s', { on: first, retryMs: 10 });
    const source = FakeEventSource.all[0]!;
    source.onopen?.();
    source.emit('hello', { n: 1 });
    const second = { hello: vi.fn(), message: vi.fn() };
    const up = vi.fn();
    const closeSecond = openEventStream('/s', { on: second, onUp: up, retryMs: 10 });
    expect(FakeEventSource.all).toHaveLength(1);
    await Promise.resolve();
    expect(up).toHaveBeenCalledOnce();
    expect(second.hello).toHaveBeenCalledWith({ n: 1 });

    source.emit('work', { kind: 'paused' });
    source.emit('message', { id: 1 });
    expect(first.work).toHaveBeenCalledWith({ kind: 'paused' });
    expect(second.message).toHaveBeenCalledWith({ id: 1 });
    expect(first.hello).toHaveBeenCalledOnce();

    closeFirst();
    expect(source.closed).toBe(false);
    source.emit('message', { id: 2 });
    expect(second.message).toHaveBeenCalledTimes(2);
    closeSecond();
    expect(source.closed).toBe(true);
    openEventStream('/s', { on: {}, retryMs: 10 })();
    expect(FakeEventSource.all).toHaveLength(2);
  });

  it('opens a new connection after the server ended one, and tells every subscriber it was down', () => {
    vi.useFakeTimers();
    const downA = vi.fn();
    const downB = vi.fn();
    const hello = vi.fn();
    const closeA = openEventStream('/r', { on: { hello }, onDown: downA, retryMs: 100 });
    const closeB = openEventStream('/r', { on: {}, onDown: downB, retryMs: 100 });
    const source = FakeEventSource.all[0]!;
    source.readyState = FakeEventSource.CLOSED;
    source.onerror?.();
    expect(downA).toHaveBeenCalledOnce();
    expect(downB).toHaveBeenCalledOnce();
    vi.advanceTimersByTime(100);
    expect(FakeEventSource.all).toHaveLength(2);
    FakeEventSource.all[1]!.emit('hello', {});
    expect(hello).toHaveBeenCalledOnce();
    closeA();
    closeB();
    expect(FakeEventSource.all[1]!.closed).toBe(true);
  });
});
