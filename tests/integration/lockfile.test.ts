import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * `npm ci` refuses a lock file that lacks any package the dependency tree names, including the
 * optional platform packages of other operating systems (tailwind's oxide, unrs-resolver's
 * bindings). npm can write such a lock file when the registry has no build of the newest version
 * for some platform, so this check keeps the committed lock complete for every platform.
 */
interface LockPackage {
  version?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  link?: boolean;
}

const root = path.resolve(import.meta.dirname, '../..');
const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as {
  lockfileVersion: number;
  packages: Record<string, LockPackage>;
};

/** Node's resolution: look in `<key>/node_modules/<name>`, then each ancestor's node_modules. */
function resolves(fromKey: string, name: string): boolean {
  let base = fromKey;
  for (;;) {
    const candidate = base === '' ? `node_modules/${name}` : `${base}/node_modules/${name}`;
    if (lock.packages[candidate]) return true;
    if (base === '') return false;
    const cut = base.lastIndexOf('/node_modules/');
    base = cut === -1 ? '' : base.slice(0, cut);
  }
}

describe('package-lock.json', () => {
  it('is a version 3 lock file', () => {
    expect(lock.lockfileVersion).toBe(3);
  });

  it('holds every dependency and every platform optional package the tree names', () => {
    const missing: string[] = [];
    for (const [key, pkg] of Object.entries(lock.packages)) {
      if (pkg.link) continue;
      for (const name of Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies })) {
        if (!resolves(key, name)) missing.push(`${name} (needed by ${key || 'the root package'})`);
      }
    }
    expect(missing).toEqual([]);
  });
});
