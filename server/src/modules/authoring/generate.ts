/*
 * Variants drawn from a subject's task pool by a blueprint (issue 11): each row names the tasks it
 * draws from (a specification element, a category and what lies below it, or the whole pool), how
 * many, and the points of each. The draw is a seeded PRNG over the pool in id order, so the same
 * seed on the same pool gives the same variants; no task appears twice in a variant; every position
 * of a row has the same max score, so variants of one blueprint have equal max scores. Pure.
 */

export interface PoolTask {
  id: number;
  category: string | null;
  maxScore: number;
  elementIds: ReadonlySet<number>;
}

export interface BlueprintRow {
  elementId?: number | undefined;
  category?: string | undefined;
  count: number;
  maxScore?: number | undefined;
}

export type DrawFailure =
  | { kind: 'pool_too_small'; row: number; needed: number; available: number }
  | { kind: 'mixed_max_score'; row: number; scores: number[] };

export type DrawResult =
  { ok: true; variants: { taskId: number; maxScore: number }[][] } | { ok: false; failure: DrawFailure };

/** A 32-bit seed of a number or a text (FNV-1a over the text). */
export function seedOf(seed: number | string): number {
  const text = typeof seed === 'number' ? `#${seed}` : seed;
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: a small, well-distributed 32-bit PRNG; numbers in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const inCategory = (task: PoolTask, category: string) =>
  task.category === category || (task.category?.startsWith(`${category}/`) ?? false);

/** The tasks of the pool a row draws from. */
export function candidatesOf(pool: readonly PoolTask[], row: BlueprintRow): PoolTask[] {
  if (row.elementId !== undefined) return pool.filter((t) => t.elementIds.has(row.elementId!));
  if (row.category !== undefined) return pool.filter((t) => inCategory(t, row.category!));
  return [...pool];
}

export function drawVariants(
  pool: readonly PoolTask[],
  blueprint: readonly BlueprintRow[],
  count: number,
  seed: number | string,
): DrawResult {
  const sorted = [...pool].sort((a, b) => a.id - b.id);
  const rows = blueprint.map((row, index) => ({ row, index, candidates: candidatesOf(sorted, row) }));
  for (const { row, index, candidates } of rows) {
    if (candidates.length < row.count)
      return {
        ok: false,
        failure: { kind: 'pool_too_small', row: index, needed: row.count, available: candidates.length },
      };
    if (row.maxScore === undefined) {
      const scores = [...new Set(candidates.map((t) => t.maxScore))].sort((a, b) => a - b);
      if (scores.length > 1) return { ok: false, failure: { kind: 'mixed_max_score', row: index, scores } };
    }
  }
  const random = mulberry32(seedOf(seed));
  const variants: { taskId: number; maxScore: number }[][] = [];
  for (let v = 0; v < count; v++) {
    const taken = new Set<number>();
    const tasks: { taskId: number; maxScore: number }[] = [];
    for (const { row, index, candidates } of rows) {
      const free = candidates.filter((t) => !taken.has(t.id));
      if (free.length < row.count)
        return {
          ok: false,
          failure: { kind: 'pool_too_small', row: index, needed: row.count, available: free.length },
        };
      // Partial Fisher–Yates: the first `count` places get a uniform draw without repetition.
      for (let i = 0; i < row.count; i++) {
        const j = i + Math.floor(random() * (free.length - i));
        [free[i], free[j]] = [free[j]!, free[i]!];
        const task = free[i]!;
        taken.add(task.id);
        tasks.push({ taskId: task.id, maxScore: row.maxScore ?? task.maxScore });
      }
    }
    variants.push(tasks);
  }
  return { ok: true, variants };
}
