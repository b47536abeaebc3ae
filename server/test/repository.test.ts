import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

// What a user's fresh clone needs: `npm install` on any Node version the README and `engines`
// name (20, 22 and 24) prints no EBADENGINE warning, i.e. every locked package accepts each line's
// lowest version.
const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const json = (path: string) => JSON.parse(readFileSync(join(root, path), 'utf8'));

const engines: string = json('package.json').engines.node;
// The lowest version of each Node line engines accepts: `^20.19.0 || ^22.13.0 || >=24` → 20.19.0, 22.13.0, 24.0.0.
const lowestOfEachLine = engines.split('||').map((range) => semver.minVersion(range.trim())!.version);

describe('the Node versions the project names', () => {
  it('are the LTS lines 22 and 24 and still 20, each stated the same in engines and the README', () => {
    expect(lowestOfEachLine.map((v) => semver.major(v))).toEqual([20, 22, 24]);
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    for (const version of lowestOfEachLine) {
      const [major, minor] = version.split('.');
      expect(readme).toContain(minor === '0' ? `Node.js ${major} ` : `Node.js ${major}.${minor} or newer`);
    }
  });

  it('runs this test (CI uses versions engines accepts: the system Node and Node 24)', () => {
    expect(semver.satisfies(process.version, engines), `${process.version} vs ${engines}`).toBe(true);
  });

  it('are accepted by every locked package (no EBADENGINE on npm install on any of them)', () => {
    const packages: Record<
      string,
      { engines?: { node?: string } | string[]; os?: string[]; cpu?: string[] }
    > = json('package-lock.json').packages;
    // npm leaves out a package built for another system (os/cpu), so its engines never warn here.
    const allows = (list: string[] | undefined, value: string) =>
      !list || list.includes(value) || (list.every((x) => x.startsWith('!')) && !list.includes(`!${value}`));
    const refusing = Object.entries(packages)
      .filter(([, p]) => allows(p.os, process.platform) && allows(p.cpu, process.arch))
      .flatMap(([path, p]) => {
        const range = !Array.isArray(p.engines) ? p.engines?.node : undefined;
        return lowestOfEachLine
          .filter((version) => range && !semver.satisfies(version, range))
          .map((version) => `${path} wants node ${range}, refusing ${version}`);
      });
    expect(refusing).toEqual([]);
  });
});
