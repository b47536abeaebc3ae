import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The server's import graph: no cycle between modules or files, another module reached through its
// public face (index.ts), repositories used by their own module's services only.

const src = resolve(dirname(fileURLToPath(import.meta.url)), '../src');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') && name !== 'test-support.ts' ? [path] : [];
  });
}

/** Relative imports of every source file, resolved to source files (`x.js` is `x.ts`). */
const graph = new Map<string, string[]>(
  sources(src).map((file) => {
    const text = readFileSync(file, 'utf8');
    const targets = [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)]
      .filter((m) => !/^import\s+type\b/.test(text.slice(text.lastIndexOf('\n', m.index) + 1, m.index + 12)))
      .map((m) => resolve(dirname(file), m[1]!.replace(/\.js$/, '.ts')));
    return [file, targets.filter((t) => t.endsWith('.ts'))];
  }),
);

const rel = (path: string) => relative(src, path).replaceAll('\\', '/');
/** The module a file belongs to; null outside modules/ and for the registry modules/index.ts. */
const moduleOf = (path: string) => {
  const parts = rel(path).split('/');
  return parts[0] === 'modules' && parts.length > 2 ? parts[1]! : null;
};

/** Strongly connected components with more than one member (Tarjan). */
function cycles(edges: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  let next = 0;
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('record-level access rules', () => {
  it('live in files named *.access.ts (auth/ for shared ones, beside the routes for a module’s own)', () => {
    const misnamed = [...graph.keys()]
      .map(rel)
      .filter((f) => /scopes?\.ts$|-scope\.ts$|\.scope\.ts$/.test(f));
    expect(misnamed).toEqual([]);
  });
});

describe('the server import graph', () => {
  it('has no cycle between modules', () => {
    const edges = new Map<string, Set<string>>();
    for (const [file, targets] of graph) {
      const from = moduleOf(file);
      if (!from) continue;
      for (const target of targets) {
        const to = moduleOf(target);
        if (to && to !== from) (edges.get(from) ?? edges.set(from, new Set()).get(from)!).add(to);
      }
    }
    expect(cycles(edges)).toEqual([]);
  });

  it('has no cycle between files, type-only imports included (as madge --circular counts them)', () => {
    const edges = new Map(
      sources(src).map((file) => {
        const text = readFileSync(file, 'utf8');
        const targets = [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)]
          .map((m) => resolve(dirname(file), m[1]!.replace(/\.js$/, '.ts')))
          .filter((t) => t.endsWith('.ts'));
        return [file, new Set(targets)];
      }),
    );
    expect(cycles(edges).map((c) => c.map(rel))).toEqual([]);
  });

  it('has routes that call services, never repositories', () => {
    const direct = [...graph]
      .filter(([file]) => file.endsWith('.routes.ts'))
      .flatMap(([file, targets]) =>
        targets.filter((t) => t.endsWith('.repo.ts')).map((t) => `${rel(file)} → ${rel(t)}`),
      );
    expect(direct).toEqual([]);
  });

  it('reaches another module through its index.ts only', () => {
    const inner = [...graph].flatMap(([file, targets]) =>
      targets
        .filter((t) => moduleOf(t) && moduleOf(file) && moduleOf(t) !== moduleOf(file))
        .filter((t) => !t.endsWith('/index.ts'))
        .map((t) => `${rel(file)} → ${rel(t)}`),
    );
    expect(
      [...new Set(inner)],
      'import the other module’s index.ts (its public face), never its inner files',
    ).toEqual([]);
  });
});

describe('each module’s public face', () => {
  const modulesDir = join(src, 'modules');
  const names = readdirSync(modulesDir).filter((n) => statSync(join(modulesDir, n)).isDirectory());

  it('opens with what the module owns and whom it calls, true to its imports', () => {
    const wrong = names.flatMap((name) => {
      const index = join(modulesDir, name, 'index.ts');
      let text: string;
      try {
        text = readFileSync(index, 'utf8');
      } catch {
        return [`${name}: no index.ts`];
      }
      const head = text.slice(0, text.indexOf('*/'));
      if (!/^\/\*\*?\n \* Owns: /.test(head)) return [`${name}: index.ts does not open with " * Owns: …"`];
      const said = /\* Calls: ([^\n]*)/.exec(head)?.[1] ?? '';
      const claimed = said.startsWith('no other module')
        ? []
        : said.replace(/ \(each through its index\.ts\)\.$/, '').split(', ');
      const calls = new Set<string>();
      for (const [file, targets] of graph)
        if (moduleOf(file) === name)
          for (const t of targets) if (moduleOf(t) && moduleOf(t) !== name) calls.add(moduleOf(t)!);
      const actual = [...calls].sort();
      return claimed.join(',') === actual.join(',')
        ? []
        : [`${name}: says "Calls: ${claimed.join(', ')}", imports ${actual.join(', ') || 'no other module'}`];
    });
    expect(wrong).toEqual([]);
  });

  it('is all that files outside the modules (the route registry included) import of a module', () => {
    const inner = [...graph].flatMap(([file, targets]) =>
      moduleOf(file)
        ? []
        : targets
            .filter((t) => moduleOf(t) && !t.endsWith('/index.ts'))
            .map((t) => `${rel(file)} → ${rel(t)}`),
    );
    expect(inner).toEqual([]);
  });
});
