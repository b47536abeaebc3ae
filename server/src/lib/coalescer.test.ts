import { describe, expect, it } from 'vitest';
import { Coalescer } from './coalescer.js';

const turn = () => new Promise((r) => setImmediate(r));

/** A batch runner whose batches the test lets go one by one. */
function gated() {
  const batches: number[][] = [];
  const gates: (() => void)[] = [];
  const run = async (inputs: number[]) => {
    batches.push(inputs);
    await new Promise<void>((go) => gates.push(go));
    return inputs.map((n) => n * 10);
  };
  return { batches, gates, run };
}

describe('Coalescer', () => {
  it('runs the calls of one turn as one batch and answers each with its own output', async () => {
    const batches: number[][] = [];
    const c = new Coalescer(async (inputs: number[]) => {
      batches.push(inputs);
      return inputs.map((n) => n * 2);
    });
    expect(await Promise.all([1, 2, 3].map((n) => c.call(n)))).toEqual([2, 4, 6]);
    expect(batches).toEqual([[1, 2, 3]]);
    expect(await c.call(4)).toBe(8);
    expect(batches).toEqual([[1, 2, 3], [4]]);
  });

  it('gathers what arrives while maxInFlight batches run into the next one', async () => {
    const g = gated();
    const c = new Coalescer(g.run, { maxInFlight: 1 });
    const first = c.call(1);
    await turn();
    const rest = [c.call(2), c.call(3)];
    await turn();
    const last = c.call(4);
    await turn();
    expect(g.batches).toEqual([[1]]);
    g.gates[0]!();
    expect(await first).toBe(10);
    while (g.batches.length < 2) await turn();
    expect(g.batches[1]).toEqual([2, 3, 4]);
    g.gates[1]!();
    expect(await Promise.all([...rest, last])).toEqual([20, 30, 40]);
  });

  it('never answers a call from a batch sent before the call was made', async () => {
    const g = gated();
    const c = new Coalescer(g.run, { maxInFlight: 2 });
    const early = c.call(1);
    await turn();
    const late = c.call(1);
    await turn();
    expect(g.batches).toEqual([[1], [1]]);
    g.gates.forEach((go) => go());
    expect(await Promise.all([early, late])).toEqual([10, 10]);
  });

  it('keeps calls with one conflict key apart, and caps a batch at maxBatch', async () => {
    const batches: string[][] = [];
    const c = new Coalescer(
      async (inputs: string[]) => {
        batches.push(inputs);
        return inputs;
      },
      { maxBatch: 2, maxInFlight: 5, conflictKey: (s) => s.slice(0, 1) },
    );
    await Promise.all(['a1', 'a2', 'b1', 'c1', 'd1'].map((s) => c.call(s)));
    expect(batches).toEqual([['a1', 'b1'], ['a2', 'c1'], ['d1']]);
  });

  it('fails every call of a batch that throws, and runs the next batch afresh', async () => {
    let fail = true;
    const c = new Coalescer(async (inputs: number[]) => {
      if (fail) throw new Error('database gone');
      return inputs;
    });
    const results = await Promise.allSettled([c.call(1), c.call(2)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    expect(await c.call(3)).toBe(3);
  });
});
