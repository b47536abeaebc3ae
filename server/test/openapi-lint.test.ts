import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { lint, loadConfig } from '@redocly/openapi-core';
import { describe, expect, it } from 'vitest';

// The committed API document (docs/openapi.json, kept equal to what the routes generate by
// generated.test.ts) as integrators' tools read it: Redocly's `recommended` rules. No error, and no
// warning but the ones below, each with its reason.
const documentPath = join(dirname(fileURLToPath(import.meta.url)), '../../docs/openapi.json');

/** Warnings that stay, with why: the specification fixes these paths, and two calls answer no 2xx/4xx. */
const EXPLAINED: Record<string, string> = {
  // The specification's paths (../shared/spec/endpoints.tsv; fixed: other systems call them). A
  // literal segment and a parameter in the same place: `/api/files/delete/7` could be read as
  // `/api/files/{id}/ext` only if "delete" were an id, and ids are integers, so no request is
  // ambiguous in practice; the router matches the literal first.
  'no-ambiguous-paths #/paths/~1api~1exam~1test~1examwork~1{id}~1answertype~1{type}': 'spec',
  'no-ambiguous-paths #/paths/~1api~1exam~1test~1examwork~1{examWorkId}~1{variantTaskId}~1flag': 'spec',
  'no-ambiguous-paths #/paths/~1api~1exam~1test~1examwork~1{id}~1blanks': 'spec',
  'no-ambiguous-paths #/paths/~1api~1exam~1test~1variant~1{id}~1taskTextHtml': 'spec',
  'no-ambiguous-paths #/paths/~1api~1files~1byhtmltextid~1{id}': 'spec',
  'no-ambiguous-paths #/paths/~1api~1files~1text~1{id}': 'spec',
  'no-ambiguous-paths #/paths/~1api~1files~1upload~1{id}': 'spec',
  'no-ambiguous-paths #/paths/~1api~1files~1delete~1{id}': 'spec',
  // The balancer's probes take no input, so they have no 4xx to answer: 200 or 503.
  'operation-4xx-response #/paths/~1health/get/responses': 'a probe answers 200 or 503',
  'operation-4xx-response #/paths/~1health~1ready/get/responses': 'a probe answers 200 or 503',
  'operation-4xx-response #/paths/~1health~1live/get/responses': 'a probe answers 200',
  // The external login only ever redirects (to the identity provider, or back with an error).
  'operation-2xx-response #/paths/~1api~1Account~1ExternalLogin/get/responses': 'answers 302 only',
};

describe('the API document passes Redocly’s recommended lint', () => {
  it('no error and no unexplained warning', { timeout: 60_000 }, async () => {
    const config = await loadConfig({});
    const problems = await lint({ ref: documentPath, config });
    const found = problems.map((p) => `${p.ruleId} ${p.location[0]?.pointer ?? ''}`);
    const unexplained = problems
      .filter((p) => p.severity === 'error' || !(found[problems.indexOf(p)]! in EXPLAINED))
      .map((p) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer ?? ''}: ${p.message}`);
    expect(unexplained).toEqual([]);
    // An explained warning that no longer occurs is dropped from the list, so it stays true.
    expect(Object.keys(EXPLAINED).filter((k) => !found.includes(k))).toEqual([]);
  });

  it('every operation has a unique operationId', () => {
    const doc = JSON.parse(readFileSync(documentPath, 'utf8')) as {
      paths: Record<string, Record<string, { operationId?: string }>>;
    };
    const ids = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => op.operationId ?? `(none: ${method} ${path})`),
    );
    expect(ids.filter((id) => id.startsWith('(none'))).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toContain('getExamTestExamworkByIdBlanks');
  });
});
