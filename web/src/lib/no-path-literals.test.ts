import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// A call's path is written once, in the contract: features call through lib/call.ts (`call`,
// `callPath`). Files written before the typed client keep their `'/api/…'` literals until they are
// moved (docs/how-to-add-a-call.md); this list only shrinks — a new file with a literal, or more
// literals in a listed one, fails here.
const root = join(import.meta.dirname, '..');

/** Files not moved to the typed client yet, with how many path literals they hold. */
const NOT_MOVED_YET = new Map<string, number>([]);

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'test' ? [] : sources(path);
    return /\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

describe('call paths', () => {
  it('are written in the contract, not in features (the list of files not moved yet only shrinks)', () => {
    const found = new Map<string, number>();
    for (const path of sources(root)) {
      const count = (readFileSync(path, 'utf8').match(/['`]\/api\//g) ?? []).length;
      if (count) found.set(relative(root, path).replaceAll('\\', '/'), count);
    }
    const grown = [...found].filter(([file, count]) => count > (NOT_MOVED_YET.get(file) ?? 0));
    expect(grown, 'new call paths outside the contract: use call()/callPath() from lib/call.ts').toEqual([]);
    const exam = [...found.keys()].filter((file) => file.startsWith('features/exam-runner/'));
    expect(exam, 'the exam runner calls only through the typed client').toEqual([]);
  });
});
