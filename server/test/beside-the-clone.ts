import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/**
 * Whether `path` — a file of `../shared`, the folder beside the clone that holds the specification
 * and the interop fixtures — is there. A user's clone has no `../shared`: the tests that need it
 * are then skipped, and their title says why. CI runs with `../shared` beside the clone, so under
 * `CI=true` its absence is an error: the test file fails to load instead of skipping silently.
 */
export function besideTheClone(path: string): boolean {
  if (existsSync(path)) return true;
  if (process.env.CI === 'true')
    throw new Error(
      `${path} is missing: CI runs with ../shared beside the clone (CI=true), so this test cannot skip`,
    );
  return false;
}

/**
 * The `shared` folder beside the clone whose root is `repoRoot`: `repoRoot/../shared`, or, for a
 * git worktree (its `.git` a file naming the main clone's `.git/worktrees/<name>`) without a
 * `shared` of its own beside it, the one beside the main clone. Whether it exists is
 * `besideTheClone`'s to say.
 */
export function sharedFolder(repoRoot: string): string {
  const beside = resolve(repoRoot, '..', 'shared');
  if (existsSync(beside)) return beside;
  const dotGit = join(repoRoot, '.git');
  try {
    if (!statSync(dotGit).isFile()) return beside;
    const gitdir = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'))?.[1]?.trim();
    const main =
      gitdir && /[\\/]\.git[\\/]worktrees[\\/][^\\/]+$/.test(gitdir)
        ? dirname(dirname(dirname(gitdir)))
        : null;
    const there = main ? resolve(main, '..', 'shared') : null;
    return there && existsSync(there) ? there : beside;
  } catch {
    return beside;
  }
}
