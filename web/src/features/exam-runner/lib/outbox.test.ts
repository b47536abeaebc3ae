import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { ANSWER_VALUE_MAX_BYTES, SAVE_BATCH_MAX_BYTES } from '@attesta/contract';
import {
  answerBytes,
  classifySaveError,
  Outbox,
  takeBatch,
  type OutboxEvent,
  type OutboxTransport,
} from './outbox';
import { openIdbOutboxStore, type OutboxStore } from './outbox-store';

let dbCounter = 0;
const freshStore = () => openIdbOutboxStore(`outbox-test-${++dbCounter}`);
const conflict = (code: string) => new ApiError({ status: 409, code, message: code });
const offline = () => new ApiError({ status: 0, code: 'network_error', message: 'Failed to fetch' });

interface Sent {
  kind: 'one' | 'many';
  answers: { variantTaskId: number; value: unknown; seq: number }[];
}

/** A scripted server: each call takes the next reaction from `script` (default: accept). */
function fakeTransport(script: ((sent: Sent) => unknown)[] = []) {
  const sent: Sent[] = [];
  const react = (s: Sent) => {
    sent.push(s);
    const next = script.shift();
    return next ? next(s) : undefined;
  };
  const savedAt = '2030-01-01T10:00:00.000Z';
  const transport: OutboxTransport = {
    saveOne: vi.fn(async (body) => {
      const out = react({ kind: 'one', answers: [body] });
      if (out instanceof Error) throw out;
      return { seq: body.seq, savedAt };
    }),
    saveMany: vi.fn(async (body) => {
      const out = react({ kind: 'many', answers: body.answers });
      if (out instanceof Error) throw out;
      return (
        (out as Awaited<ReturnType<OutboxTransport['saveMany']>>) ?? {
          results: body.answers.map((a: { variantTaskId: number; seq: number }) => ({
            variantTaskId: a.variantTaskId,
            status: 'saved' as const,
            seq: a.seq,
            savedAt,
          })),
        }
      );
    }),
  };
  return { transport, sent };
}

function makeOutbox(store: OutboxStore, transport: OutboxTransport, events: OutboxEvent[] = []) {
  return new Outbox({
    examWorkId: 7,
    store,
    transport,
    onEvent: (e) => events.push(e),
    backoff: { baseMs: 1000, maxMs: 8000 },
  });
}

/** fake-indexeddb answers on setImmediate, which the fake timers leave real. */
const settle = async () => {
  for (let i = 0; i < 15; i++) {
    await new Promise((resolve) => setImmediate(resolve));
    await vi.advanceTimersByTimeAsync(0);
  }
};

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('outbox', () => {
  it('writes to IndexedDB before sending and removes the entry only after the acknowledgement', async () => {
    const store = freshStore();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const transport: OutboxTransport = {
      saveOne: vi.fn(async (body) => {
        // While the request is in flight the entry is already stored.
        expect(await store.list(7)).toEqual([
          expect.objectContaining({ variantTaskId: 1, value: 'a', seq: 1 }),
        ]);
        await gate;
        return { seq: body.seq, savedAt: '2030-01-01T10:00:00.000Z' };
      }),
      saveMany: vi.fn(),
    };
    const outbox = makeOutbox(store, transport);
    await outbox.load([]);
    await outbox.enqueue(1, 'a');
    await settle();
    expect(transport.saveOne).toHaveBeenCalledWith({ examWorkId: 7, variantTaskId: 1, value: 'a', seq: 1 });
    expect(outbox.snapshot().pending).toBe(1);
    release();
    await outbox.flush();
    expect(await store.list(7)).toEqual([]);
    expect(outbox.snapshot()).toMatchObject({ pending: 0, lastSavedAt: '2030-01-01T10:00:00.000Z' });
  });

  it('starts seq above the server stored seq and grows it per task', async () => {
    const { transport, sent } = fakeTransport();
    const outbox = makeOutbox(freshStore(), transport);
    await outbox.load([{ variantTaskId: 1, seq: 41 }]);
    await outbox.enqueue(1, 'x');
    await outbox.flush();
    await outbox.enqueue(1, 'y');
    await outbox.enqueue(2, ['b']);
    await outbox.flush();
    const seqs = sent.flatMap((s) => s.answers.map((a) => [a.variantTaskId, a.seq]));
    expect(seqs).toEqual([
      [1, 42],
      [1, 43],
      [2, 1],
    ]);
  });

  it('keeps entries on network errors, retries with backoff, then replays them in order as a batch', async () => {
    const { transport, sent } = fakeTransport([() => offline(), () => offline()]);
    const outbox = makeOutbox(freshStore(), transport);
    await outbox.load([]);
    await outbox.enqueue(3, 'first');
    await settle();
    expect(outbox.snapshot()).toMatchObject({ pending: 1, offline: true });
    await outbox.enqueue(1, 'second');
    await outbox.enqueue(2, 'third');
    await settle();
    expect(sent).toHaveLength(1); // waiting for the backoff timer (1 s)
    await vi.advanceTimersByTimeAsync(1000);
    await settle();
    expect(sent).toHaveLength(2); // failed again: now 2 s
    await vi.advanceTimersByTimeAsync(1999);
    await settle();
    expect(sent).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    await settle();
    expect(sent).toHaveLength(3);
    expect(sent[2]!.kind).toBe('many');
    expect(sent[2]!.answers.map((a) => a.value)).toEqual(['first', 'second', 'third']);
    expect(outbox.snapshot()).toMatchObject({ pending: 0, offline: false });
  });

  it('retries at once when the connection comes back', async () => {
    const { transport, sent } = fakeTransport([() => offline()]);
    const outbox = makeOutbox(freshStore(), transport);
    await outbox.load([]);
    await outbox.enqueue(1, 'a');
    await settle();
    expect(sent).toHaveLength(1);
    outbox.retryNow();
    await settle();
    expect(sent).toHaveLength(2);
    expect(outbox.snapshot().pending).toBe(0);
  });

  it('drops a stale entry (another tab or device saved something newer) and reports it', async () => {
    const events: OutboxEvent[] = [];
    const { transport } = fakeTransport([() => conflict('stale_sequence')]);
    const store = freshStore();
    const outbox = makeOutbox(store, transport, events);
    await outbox.load([]);
    await outbox.enqueue(5, 'mine');
    await outbox.flush();
    expect(events).toContainEqual({ type: 'stale', variantTaskId: 5, storedSeq: null });
    expect(await store.list(7)).toEqual([]);
    expect(outbox.snapshot().pending).toBe(0);
  });

  it('in a batch, a stale result drops only that answer and raises its seq', async () => {
    const events: OutboxEvent[] = [];
    const savedAt = '2030-01-01T10:00:00.000Z';
    const { transport, sent } = fakeTransport([
      () => offline(),
      () => ({
        results: [
          { variantTaskId: 1, status: 'saved', seq: 1, savedAt },
          { variantTaskId: 2, status: 'stale', seq: 9, savedAt },
        ],
      }),
    ]);
    const outbox = makeOutbox(freshStore(), transport, events);
    await outbox.load([]);
    await outbox.enqueue(1, 'a');
    await outbox.enqueue(2, 'b');
    await settle();
    await vi.advanceTimersByTimeAsync(1000);
    await settle();
    expect(events).toContainEqual({ type: 'stale', variantTaskId: 2, storedSeq: 9 });
    expect(outbox.snapshot().pending).toBe(0);
    await outbox.enqueue(2, 'c');
    await outbox.flush();
    expect(sent.at(-1)!.answers[0]).toMatchObject({ variantTaskId: 2, seq: 10 });
  });

  it('stops on deadline_passed / work_finished and keeps the entries', async () => {
    const events: OutboxEvent[] = [];
    const { transport, sent } = fakeTransport([() => conflict('deadline_passed')]);
    const store = freshStore();
    const outbox = makeOutbox(store, transport, events);
    await outbox.load([]);
    await outbox.enqueue(1, 'late');
    await settle();
    expect(events).toContainEqual(expect.objectContaining({ type: 'stopped', reason: 'finished' }));
    await outbox.enqueue(2, 'later');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sent).toHaveLength(1);
    expect(classifySaveError(conflict('work_finished'))).toBe('finished');
  });

  it('holds the queue while the work is paused and sends after release', async () => {
    const events: OutboxEvent[] = [];
    const { transport, sent } = fakeTransport([() => conflict('work_paused')]);
    const outbox = makeOutbox(freshStore(), transport, events);
    await outbox.load([]);
    await outbox.enqueue(1, 'a');
    await settle();
    expect(events).toContainEqual({ type: 'paused' });
    expect(outbox.snapshot().held).toBe(true);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sent).toHaveLength(1);
    outbox.release();
    await settle();
    expect(sent).toHaveLength(2);
    expect(outbox.snapshot()).toMatchObject({ pending: 0, held: false });
  });

  it('after a reload reads the outbox back first: newer entries are shown and replayed, acknowledged ones go', async () => {
    const store = freshStore();
    const dead = fakeTransport([() => offline(), () => offline(), () => offline()]);
    const before = makeOutbox(store, dead.transport);
    await before.load([{ variantTaskId: 1, seq: 3 }]);
    await before.enqueue(1, 'newer'); // seq 4
    await before.enqueue(2, 'only local'); // seq 1
    await settle();
    before.dispose(); // the tab is gone

    // The server meanwhile got task 2 (seq 1) from the crashed tab's last request, not task 1.
    const { transport, sent } = fakeTransport();
    const after = makeOutbox(store, transport);
    const waiting = await after.load([
      { variantTaskId: 1, seq: 3 },
      { variantTaskId: 2, seq: 1 },
    ]);
    expect(waiting.map((e) => [e.variantTaskId, e.value, e.seq])).toEqual([[1, 'newer', 4]]);
    await after.flush();
    expect(sent.map((s) => s.answers.map((a) => [a.variantTaskId, a.seq]))).toEqual([[[1, 4]]]);
    expect(await store.list(7)).toEqual([]);
  });

  it('a rejected value (400) is dropped and reported, the queue goes on', async () => {
    const events: OutboxEvent[] = [];
    const { transport, sent } = fakeTransport([
      () => new ApiError({ status: 400, code: 'invalid_value', message: 'bad' }),
    ]);
    const outbox = makeOutbox(freshStore(), transport, events);
    await outbox.load([]);
    await outbox.enqueue(1, { bad: true });
    await settle();
    await outbox.enqueue(2, 'fine');
    await outbox.flush();
    expect(events[0]).toMatchObject({ type: 'rejected', variantTaskId: 1 });
    expect(sent).toHaveLength(2);
    expect(outbox.snapshot().pending).toBe(0);
  });

  it('classifies server answers', () => {
    expect(classifySaveError(new ApiError({ status: 503, code: 'x', message: '' }))).toBe('retry');
    expect(classifySaveError(new ApiError({ status: 429, code: 'x', message: '' }))).toBe('retry');
    expect(classifySaveError(new ApiError({ status: 401, code: 'x', message: '' }))).toBe('unauthorized');
    expect(classifySaveError(new ApiError({ status: 404, code: 'x', message: '' }))).toBe('blocked');
    expect(classifySaveError(new TypeError('boom'))).toBe('retry');
  });
});

describe('answers the server would refuse for their size (issue 23 item 7)', () => {
  it('are never queued: the participant is told, nothing is stored or sent', async () => {
    const store = freshStore();
    const { transport } = fakeTransport();
    const events: OutboxEvent[] = [];
    const outbox = makeOutbox(store, transport, events);
    await outbox.load([]);
    const huge = 'я'.repeat(ANSWER_VALUE_MAX_BYTES / 2); // two bytes each in UTF-8: just over
    expect(await outbox.enqueue(1, huge)).toBeNull();
    await settle();
    expect(events).toEqual([{ type: 'too_large', variantTaskId: 1, bytes: answerBytes(huge) }]);
    expect(await store.list(7)).toEqual([]);
    expect(transport.saveOne).not.toHaveBeenCalled();
    expect(outbox.snapshot().pending).toBe(0);
    // One that fits goes as usual.
    expect(await outbox.enqueue(1, 'я'.repeat(1000))).not.toBeNull();
    await outbox.flush();
    expect(transport.saveOne).toHaveBeenCalledTimes(1);
  });

  it('batches never carry more than SAVE_BATCH_MAX_BYTES of answers', () => {
    const big = 'x'.repeat(200 * 1024);
    const entries = [1, 2, 3, 4].map((id) => ({ variantTaskId: id, value: big }));
    const first = takeBatch(entries);
    expect(first.map((e) => e.variantTaskId)).toEqual([1, 2]);
    expect(first.reduce((n, e) => n + answerBytes(e.value), 0)).toBeLessThanOrEqual(SAVE_BATCH_MAX_BYTES);
    expect(takeBatch(Array.from({ length: 250 }, (_, i) => ({ value: i }))).length).toBe(200);
  });
});
