import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  addResponses,
  betaRows,
  emptyPolyGroups,
  categoriesOf,
  estimateCml,
  pcmDesign,
  polyAbility,
  polyEsf,
  polyItemFit,
  rsmDesign,
  thresholds,
  type PolyGroups,
} from './polytomous.js';

/*
 * The Partial Credit and Rating Scale models against eRm (fixtures/erm-pcm-reference.json, made by
 * fixtures/erm-pcm-reference.R with eRm's PCM() and RSM() by CML on the CSV fixtures written by
 * fixtures/generate-polytomous.mjs). R is not needed here: the numbers are committed. One
 * tolerance, 1e-4, for item-category parameters, thresholds and locations (logits), their standard
 * errors, infit/outfit mean squares and t, person abilities and the log-likelihood.
 */
const TOL = 1e-4;

interface ModelRef {
  loglik: number;
  categories: number[];
  npar: number;
  beta: number[];
  seBeta: number[];
  thresholds: number[];
  seThresholds: number[];
  locations: number[];
  outfitMSQ: number[];
  infitMSQ: number[];
  outfitZ: number[];
  infitZ: number[];
  fitN: number[];
  abilities: { items: string; raw: number; theta: number }[];
}
interface FixtureRef {
  file: string;
  persons: number;
  items: number;
  lowest: number[];
  PCM: ModelRef;
  RSM?: ModelRef;
}
interface Reference {
  source: string;
  mixed: FixtureRef;
  scale: FixtureRef;
  unused: FixtureRef & { reversedColumnsPcm: string };
}

const dir = new URL('./fixtures/', import.meta.url);
const reference = JSON.parse(readFileSync(new URL('erm-pcm-reference.json', dir), 'utf8')) as Reference;

/**
 * Score groups of a 0..m/NA matrix, one per pattern of items taken, with each item's categories
 * read as eRm reads them (categoriesOf: from the lowest to the largest observed response).
 */
function groupsOf(file: string) {
  const [head, ...lines] = readFileSync(new URL(file, dir), 'utf8').trim().split('\n');
  const k = head!.split(',').length;
  const raw = lines.map((l) => l.split(',').map((c) => (c === 'NA' ? null : Number(c))));
  const read = Array.from({ length: k }, (_, i) => {
    const counts: number[] = [];
    for (const r of raw) if (r[i] !== null) counts[r[i]!] = (counts[r[i]!] ?? 0) + 1;
    return categoriesOf(Array.from(counts, (c) => c ?? 0));
  });
  const lowest = read.map((c) => c.lowest);
  const maxCat = read.map((c) => c.maxCat);
  expect(read.flatMap((c) => c.unused)).toEqual([]);
  const rows = raw.map((r) => r.map((c, i) => (c === null ? null : c - lowest[i]!)));
  const groups = new Map<string, PolyGroups>();
  for (const row of rows) {
    const pattern = row.map((c) => (c === null ? '0' : '1')).join('');
    let g = groups.get(pattern);
    if (!g) {
      g = emptyPolyGroups(
        row.flatMap((c, i) => (c === null ? [] : [i])),
        maxCat,
      );
      groups.set(pattern, g);
    }
    addResponses(
      g,
      g.items.map((i) => row[i]!),
    );
  }
  return { lowest, maxCat, groups: [...groups.values()] };
}

const close = (actual: ArrayLike<number>, expected: number[]) => {
  expect(actual.length).toBe(expected.length);
  expected.forEach((x, i) => expect(Math.abs(actual[i]! - x), `at ${i}`).toBeLessThan(TOL));
};

describe('polytomous elementary symmetric functions', () => {
  it('sum the products of the category weights over every pattern of each total', () => {
    // item A: categories 0..2 with weights 1, 2, 3; item B: 0..1 with weights 1, 5
    const g = polyEsf([
      [1, 2, 3],
      [1, 5],
    ]);
    expect(Array.from(g)).toEqual([1, 2 + 5, 3 + 10, 15]);
    expect(
      Array.from(
        polyEsf(
          [
            [1, 2, 3],
            [1, 5],
            [1, 7],
          ],
          1,
        ),
      ),
    ).toEqual([1, 9, 17, 21, 0]);
    expect(
      Array.from(
        polyEsf(
          [
            [1, 2, 3],
            [1, 5],
            [1, 7],
          ],
          0,
          2,
        ),
      ),
    ).toEqual([1, 5, 0, 0, 0]);
  });
});

describe('categories as eRm reads them', () => {
  it('start at the lowest response given, end at the largest and report the unused in between', () => {
    expect(categoriesOf([5, 3, 2, 0])).toEqual({ lowest: 0, maxCat: 2, unused: [] });
    expect(categoriesOf([0, 4, 2, 1])).toEqual({ lowest: 1, maxCat: 2, unused: [] });
    expect(categoriesOf([3, 0, 2, 0, 1])).toEqual({ lowest: 0, maxCat: 4, unused: [1, 3] });
    expect(categoriesOf([0, 0])).toEqual({ lowest: 0, maxCat: 0, unused: [] });
  });
});

const cases = [
  ['mixed', 'PCM'],
  ['scale', 'PCM'],
  ['scale', 'RSM'],
  ['unused', 'PCM'],
] as const;

describe.each(cases)('CML against eRm (%s fixture, %s)', (name, model) => {
  const fixture = reference[name];
  const ref = fixture[model]!;
  const { lowest, maxCat, groups } = groupsOf(fixture.file);
  const design = model === 'PCM' ? pcmDesign(maxCat) : rsmDesign(maxCat.length, maxCat[0]!);
  const fit = estimateCml(maxCat, groups, design);

  it('reads the categories as eRm does (from the lowest to the largest observed response)', () => {
    expect(reference.source).toMatch(/^eRm \d/);
    expect(lowest).toEqual(fixture.lowest);
    expect(maxCat).toEqual(ref.categories);
    expect(design.nEta).toBe(ref.npar);
  });

  it('converges to eRm’s item-category parameters (β) and conditional log-likelihood', () => {
    expect(fit.converged).toBe(true);
    close(fit.beta, ref.beta);
    expect(Math.abs(fit.logLikelihood - ref.loglik)).toBeLessThan(TOL);
  });

  it('gives eRm’s standard errors of β', () => {
    close(fit.se, ref.seBeta);
  });

  it('gives eRm’s thresholds, their standard errors and the item locations', () => {
    const t = thresholds(maxCat, fit);
    close(
      t.flatMap((x) => x.thresholds),
      ref.thresholds,
    );
    close(
      t.flatMap((x) => x.se),
      ref.seThresholds,
    );
    close(
      t.map((x) => x.location),
      ref.locations,
    );
  });

  it('gives eRm’s infit and outfit mean squares and their t', () => {
    const f = polyItemFit(maxCat, groups, fit.beta);
    expect(Array.from(f.n)).toEqual(ref.fitN);
    close(f.outfit, ref.outfitMSQ);
    close(f.infit, ref.infitMSQ);
    close(f.outfitZ, ref.outfitZ);
    close(f.infitZ, ref.infitZ);
  });

  it('gives eRm’s person parameter for each raw score on each set of items', () => {
    const rows = betaRows(maxCat, fit.beta);
    expect(ref.abilities.length).toBeGreaterThan(0);
    for (const a of ref.abilities) {
      const items = [...a.items].flatMap((c, i) => (c === '1' ? [i] : []));
      const theta = polyAbility(
        items.map((i) => rows[i]!),
        a.raw,
      );
      expect(Math.abs(theta - a.theta), `${a.items} ${a.raw}`).toBeLessThan(TOL);
    }
  });
});

describe('incomplete designs whose items differ in categories', () => {
  it('give the same estimates whatever the order of the columns (eRm 1.0.2 fails on it)', () => {
    // eRm splits the β of a missing-data pattern by the category counts of the leading items;
    // with pcm-unused.csv's columns reversed that is wrong and its optimiser gives up
    expect(reference.unused.reversedColumnsPcm).toMatch(/^error: non-finite value/);
    const { maxCat, groups } = groupsOf(reference.unused.file);
    const k = maxCat.length;
    const fit = estimateCml(maxCat, groups, pcmDesign(maxCat));
    const revCat = [...maxCat].reverse();
    const revGroups = groups.map((g) => {
      const r = emptyPolyGroups(
        g.items.map((i) => k - 1 - i),
        revCat,
      );
      r.count.set(g.count);
      r.cats.set(g.cats);
      return r;
    });
    const rev = estimateCml(revCat, revGroups, pcmDesign(revCat));
    expect(rev.converged).toBe(true);
    expect(Math.abs(rev.logLikelihood - reference.unused.PCM.loglik)).toBeLessThan(TOL);
    const rows = betaRows(maxCat, fit.beta);
    const revRows = betaRows(revCat, rev.beta).reverse();
    rows.forEach((row, i) => close(revRows[i]!, row));
  });
});
