import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

// What a user's fresh clone needs: `npm install` on the Node version the README and `engines`
// name prints no EBADENGINE warning, i.e. every locked package accepts that version.
const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const json = (path: string) => JSON.parse(readFileSync(join(root, path), 'utf8'));

const engines: string = json('package.json').engines.node;
const lowest = semver.minVersion(engines)!.version;

describe('the Node version the project names', () => {
  it('is stated the same in engines and the README', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const [major, minor] = lowest.split('.');
    expect(readme).toContain(`Node.js ${major}.${minor} or newer`);
  });

  it('runs this test (CI uses a version engines accepts)', () => {
    expect(semver.satisfies(process.version, engines), `${process.version} vs ${engines}`).toBe(true);
  });

  it('is accepted by every locked package (no EBADENGINE on npm install)', () => {
    const packages: Record<string, { engines?: { node?: string } | string[] }> =
      json('package-lock.json').packages;
    const refusing = Object.entries(packages)
      .map(([path, p]) => [path, !Array.isArray(p.engines) ? p.engines?.node : undefined] as const)
      .filter(([, range]) => range && !semver.satisfies(lowest, range))
      .map(([path, range]) => `${path} wants node ${range}`);
    expect(refusing).toEqual([]);
  });
});
