import { existsSync } from 'node:fs';

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
