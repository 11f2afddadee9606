import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { Logger } from '../lib/logger';
import { projectRoot } from '../lib/paths';
import type { ImageVariant } from '../modules/storage/storage.service';
import type { DemoImageSpec } from './demo-images/demo-image-spec';

/**
 * Bump when the WebP encoding changes what a spec looks like (a change to the renderer's source in
 * demo-images/ changes the keys by itself): every cached photo made before is then rendered again.
 */
export const DEMO_RENDER_VERSION = 1;

/**
 * Rendered and encoded demo photos on disk, keyed by a hash of their spec and of the renderer's source,
 * so that a start and a test run never render the same photo twice (rendering and encoding one
 * photo takes most of a second of CPU; the catalogue has about 40). Files are written under a
 * temporary name and renamed, so concurrent writers and a crash leave no half-written entry; an
 * unreadable entry is rendered again.
 */
export interface PhotoCache {
  get(spec: DemoImageSpec): Promise<ImageVariant[] | undefined>;
  put(spec: DemoImageSpec, variants: ImageVariant[]): Promise<void>;
}

const ManifestSchema = z.object({
  version: z.literal(DEMO_RENDER_VERSION),
  widths: z.array(z.number().int()),
});

/**
 * A hash of the renderer's source (src/server/seed/demo-images/*.ts, read from the checkout), so a
 * change to how photos are drawn makes new cache entries by itself; '' where the source is not on
 * disk (DEMO_RENDER_VERSION alone then tells old entries from new).
 */
function rendererSourceHash(): string {
  const dir = path.join(projectRoot, 'src', 'server', 'seed', 'demo-images');
  try {
    const hash = createHash('sha256');
    for (const file of readdirSync(dir)
      .filter((f) => f.endsWith('.ts'))
      .sort()) {
      hash.update(`${file}\n`).update(readFileSync(path.join(dir, file)));
    }
    return hash.digest('hex').slice(0, 16);
  } catch {
    return '';
  }
}

export function createPhotoCache(dir: string | undefined, logger: Logger): PhotoCache {
  const renderer = `${DEMO_RENDER_VERSION}:${rendererSourceHash()}`;
  const keyOf = (spec: DemoImageSpec) =>
    createHash('sha256')
      .update(`${renderer}\n${JSON.stringify(spec)}`)
      .digest('hex')
      .slice(0, 32);
  const file = (key: string, suffix: string) => path.join(dir!, `${key}${suffix}`);

  async function writeAtomically(target: string, bytes: Uint8Array | string): Promise<void> {
    const tmp = `${target}.${randomBytes(6).toString('hex')}.tmp`;
    await writeFile(tmp, bytes);
    await rename(tmp, target);
  }

  return {
    async get(spec) {
      if (!dir) return undefined;
      const key = keyOf(spec);
      try {
        const manifest = ManifestSchema.parse(JSON.parse(await readFile(file(key, '.json'), 'utf8')));
        return await Promise.all(
          manifest.widths.map(async (width) => ({
            width,
            bytes: new Uint8Array(await readFile(file(key, `-${width}.webp`))),
          })),
        );
      } catch {
        return undefined;
      }
    },

    async put(spec, variants) {
      if (!dir) return;
      const key = keyOf(spec);
      try {
        await mkdir(dir, { recursive: true });
        for (const v of variants) await writeAtomically(file(key, `-${v.width}.webp`), v.bytes);
        // The manifest last: an entry is complete once it exists.
        const manifest = { version: DEMO_RENDER_VERSION, widths: variants.map((v) => v.width) };
        await writeAtomically(file(key, '.json'), JSON.stringify(manifest));
      } catch (err) {
        logger.warn(
          { err, dir },
          'demo photo cache: could not write (photos will be rendered again next time)',
        );
      }
    },
  };
}
