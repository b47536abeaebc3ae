import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { abilityFor, emptyGroups, esf, estimateRasch, itemFit, type ScoreGroups } from './rasch.js';

/*
 * The Rasch estimates against eRm (fixtures/erm-reference.json, made by fixtures/erm-reference.R
 * with eRm's RM() by CML on the committed CSV fixtures). R is not needed here: the numbers are
 * committed. One tolerance, 1e-4, for difficulties and person abilities (logits), standard errors,
 * infit and outfit mean squares and the log-likelihood; the largest differences measured are
 * 1.4e-5 (difficulties: eRm stops nlm at its gradient tolerance) and 6e-6 (standard errors: eRm
 * inverts nlm's finite-difference Hessian, we the analytic information).
 */
const TOL = 1e-4;

interface Reference {
  source: string;
  complete: Fixture;
  linked: Fixture;
}
interface Fixture {
  file: string;
  persons: number;
  items: number;
  loglik: number;
  difficulty: number[];
  se: number[];
  outfitMSQ: number[];
  infitMSQ: number[];
  abilities: { items: string; raw: number; theta: number }[];
}

const dir = new URL('./fixtures/', import.meta.url);
const reference = JSON.parse(readFileSync(new URL('erm-reference.json', dir), 'utf8')) as Reference;

/** Score groups of a 0/1/NA matrix: one per pattern of items taken. */
function groupsOf(file: string): { m: number; groups: Map<string, ScoreGroups> } {
  const [head, ...lines] = readFileSync(new URL(file, dir), 'utf8').trim().split('\n');
  const m = head!.split(',').length;
  const groups = new Map<string, ScoreGroups>();
  for (const line of lines) {
    const cells = line.split(',');
    const pattern = cells.map((c) => (c === 'NA' ? '0' : '1')).join('');
    let g = groups.get(pattern);
    if (!g) {
      g = emptyGroups(cells.flatMap((c, i) => (c === 'NA' ? [] : [i])));
      groups.set(pattern, g);
    }
    const x = g.items.map((i) => Number(cells[i]));
    const r = x.reduce((a, b) => a + b, 0);
    g.count[r]!++;
    x.forEach((v, j) => (g.ones[r * g.items.length + j]! += v));
  }
  return { m, groups };
}

describe('elementary symmetric functions', () => {
  it('are the sums of products of every subset of each size', () => {
    const g = esf([2, 3, 5]);
    expect(Array.from(g)).toEqual([1, 10, 6 + 10 + 15, 30]);
    expect(Array.from(esf([2, 3, 5], 1))).toEqual([1, 7, 10, 0]);
    expect(Array.from(esf([2, 3, 5], 0, 2))).toEqual([1, 3, 0, 0]);
  });
});

describe.each(['complete', 'linked'] as const)('CML against eRm (%s fixture)', (name) => {
  const ref = reference[name];
  const { m, groups } = groupsOf(ref.file);
  const fit = estimateRasch(m, [...groups.values()]);

  it('converges to eRm’s difficulties (sum-zero) and conditional log-likelihood', () => {
    expect(reference.source).toMatch(/^eRm \d/);
    expect(fit.converged).toBe(true);
    expect(fit.components).toBe(1);
    ref.difficulty.forEach((d, i) => expect(Math.abs(fit.difficulty[i]! - d)).toBeLessThan(TOL));
    expect(Math.abs(fit.logLikelihood - ref.loglik)).toBeLessThan(TOL);
  });

  it('gives eRm’s standard errors', () => {
    ref.se.forEach((se, i) => expect(Math.abs(fit.se[i]! - se)).toBeLessThan(TOL));
  });

  it('gives eRm’s infit and outfit mean squares', () => {
    const f = itemFit(m, [...groups.values()], fit.difficulty);
    ref.infitMSQ.forEach((v, i) => expect(Math.abs(f.infit[i]! - v)).toBeLessThan(TOL));
    ref.outfitMSQ.forEach((v, i) => expect(Math.abs(f.outfit[i]! - v)).toBeLessThan(TOL));
  });

  it('gives eRm’s person parameter for each raw score', () => {
    for (const a of ref.abilities) {
      const items = [...a.items].flatMap((c, i) => (c === '1' ? [i] : []));
      const theta = abilityFor(
        items.map((i) => fit.difficulty[i]!),
        a.raw,
      );
      expect(Math.abs(theta - a.theta)).toBeLessThan(TOL);
    }
  });
});
