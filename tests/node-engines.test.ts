import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

/**
 * The Node lines the shop supports (package.json `engines`): 22 (from 22.19) and 24, the current
 * LTS lines. `npm install` on Node 24 must print no engine warning, so every package the lock file
 * installs on this platform has to accept Node 24.0.0. Node 22 is accepted with the two packages
 * named below, which declare Node 24 only (npm warns about them there).
 */

interface LockPackage {
  engines?: { node?: string } | string[];
  os?: string[];
  cpu?: string[];
}
const root = new URL('..', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(new URL('package-lock.json', root), 'utf8')) as {
  packages: Record<string, LockPackage>;
};

/** What npm would install here (platform packages for another OS or CPU are left out), by name. */
function installedHere(): Array<[string, LockPackage]> {
  return Object.entries(lock.packages).filter(
    ([path, p]) =>
      path !== '' && (!p.os || p.os.includes(process.platform)) && (!p.cpu || p.cpu.includes(process.arch)),
  );
}

/** The packages whose `engines.node` refuses that Node version. */
function refusing(version: string): string[] {
  const names = installedHere().flatMap(([path, p]) => {
    const range = p.engines && !Array.isArray(p.engines) ? p.engines.node : undefined;
    return range && !semver.satisfies(version, range) ? [path.replace(/^.*node_modules\//, '')] : [];
  });
  return [...new Set(names)].sort();
}

describe('supported Node versions', () => {
  it('are the LTS lines 22 and 24; Node 20 (past its end of life) is not', () => {
    const range = pkg.engines.node;
    for (const version of ['22.19.0', '22.23.0', '24.0.0', '24.21.0', '26.0.0']) {
      expect(semver.satisfies(version, range), version).toBe(true);
    }
    for (const version of ['20.19.0', '22.12.0', '23.5.0']) {
      expect(semver.satisfies(version, range), version).toBe(false);
    }
  });

  it('npm install on Node 24 meets every engine requirement of what it installs', () => {
    expect(refusing('24.0.0')).toEqual([]);
  });

  it('on Node 22 only the Token-2022 client and its record program ask for 24', () => {
    expect(refusing('22.19.0')).toEqual(['@solana-program/record', '@solana-program/token-2022']);
  });
});
