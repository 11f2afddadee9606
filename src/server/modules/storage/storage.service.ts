import { randomBytes } from 'node:crypto';
import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import { IMAGE_WIDTHS, MAIN_IMAGE_WIDTH } from '#common/images';
import { AppError } from '#server/lib/app-error';
import { StorageKeyExistsError, type Storage } from './storage';

/** An uploaded image after re-encoding: `path` is the storage key of the main (800 px) WebP variant. */
export interface StoredImage {
  path: string;
  url: string;
  /** `url 400w, url 800w, ...` for <img srcset>. */
  srcset: string;
  widths: number[];
}

export const DEFAULT_MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** Decoding more pixels than this is refused (a 50 MP photo; a "pixel bomb" stops here). */
export const MAX_INPUT_PIXELS = 50_000_000;
export const IMAGE_CACHE_CONTROL = 'public, max-age=31536000, immutable';
export const ACCEPTED_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;

const NOT_AN_IMAGE = 'Please upload an image file';
const WEBP_QUALITY = 80;
const KEY_ATTEMPTS = 3;

/**
 * Checks an upload and stores it as WebP variants. The type comes from the bytes (never the file
 * name or the declared type); the image is decoded and re-encoded, so what is stored is always a
 * clean WebP without metadata, rotated upright by its EXIF orientation.
 */
export async function processAndStoreImage(
  storage: Storage,
  bytes: Uint8Array,
  options: { maxBytes?: number } = {},
): Promise<StoredImage> {
  return storePreparedImage(storage, await prepareImage(bytes, options));
}

/**
 * Checks an image by its bytes and encodes its WebP variants, without storing anything (the demo
 * seed keeps these in its photo cache).
 */
export async function prepareImage(
  bytes: Uint8Array,
  options: { maxBytes?: number } = {},
): Promise<ImageVariant[]> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_IMAGE_BYTES;
  if (bytes.byteLength > maxBytes) {
    throw new AppError('PAYLOAD_TOO_LARGE', `File size must be less than ${formatMegabytes(maxBytes)}`);
  }
  const detected = await fileTypeFromBuffer(bytes);
  if (!detected || !(ACCEPTED_IMAGE_TYPES as readonly string[]).includes(detected.mime)) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', NOT_AN_IMAGE);
  }
  return encodeVariants(bytes);
}

/** Stores variants made by prepareImage under a fresh key; the main image is the 800 px one. */
export async function storePreparedImage(storage: Storage, variants: ImageVariant[]): Promise<StoredImage> {
  const stored = await storeVariants(storage, variants);
  const main = stored.find((v) => v.width === MAIN_IMAGE_WIDTH) ?? largestBelow(stored, MAIN_IMAGE_WIDTH);
  const widths = stored.map((v) => v.width);
  return {
    path: main.key,
    url: storage.publicUrl(main.key),
    srcset: stored.map((v) => `${storage.publicUrl(v.key)} ${v.width}w`).join(', '),
    widths,
  };
}

export interface ImageVariant {
  /** Nominal width: the key's `-<width>` and the srcset descriptor. */
  width: number;
  bytes: Uint8Array;
}

/** Every standard width not wider than the original; one at the original width if it is narrower than all. */
async function encodeVariants(bytes: Uint8Array): Promise<ImageVariant[]> {
  const input = () => sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error', animated: false });
  try {
    const meta = await input().metadata();
    const width = meta.autoOrient.width;
    const height = meta.autoOrient.height;
    if (!width || !height) throw new AppError('UNSUPPORTED_MEDIA_TYPE', NOT_AN_IMAGE);
    if (width * height > MAX_INPUT_PIXELS) {
      throw new AppError('PAYLOAD_TOO_LARGE', 'Image dimensions are too large');
    }
    const targets = IMAGE_WIDTHS.filter((w) => w <= width);
    const widths = targets.length > 0 ? targets : [width];
    return await Promise.all(
      widths.map(async (w) => {
        const out = await input()
          .autoOrient()
          .resize({ width: w, withoutEnlargement: true })
          .webp({ quality: WEBP_QUALITY })
          .toBuffer(); // metadata (EXIF, XMP, ICC) is not kept: sharp strips it unless asked
        return { width: w, bytes: new Uint8Array(out.buffer, out.byteOffset, out.byteLength) };
      }),
    );
  } catch (err) {
    if (err instanceof AppError) throw err;
    if (err instanceof Error && /pixel limit/i.test(err.message)) {
      throw new AppError('PAYLOAD_TOO_LARGE', 'Image dimensions are too large');
    }
    // Passed the magic-number check but does not decode: corrupt or truncated.
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', NOT_AN_IMAGE);
  }
}

/** Writes the variants under a fresh prefix, never over an existing key; all or nothing. */
async function storeVariants(
  storage: Storage,
  variants: ImageVariant[],
): Promise<Array<{ width: number; key: string }>> {
  for (let attempt = 1; ; attempt++) {
    const prefix = `products/${Date.now()}-${randomKeyPart(8)}`;
    const written: string[] = [];
    try {
      for (const v of variants) {
        const key = `${prefix}-${v.width}.webp`;
        await storage.put(key, v.bytes, 'image/webp', {
          cacheControl: IMAGE_CACHE_CONTROL,
          overwrite: false,
        });
        written.push(key);
      }
      return variants.map((v) => ({ width: v.width, key: `${prefix}-${v.width}.webp` }));
    } catch (err) {
      await Promise.all(written.map((key) => storage.delete(key).catch(() => undefined)));
      if (err instanceof StorageKeyExistsError && attempt < KEY_ATTEMPTS) continue;
      throw err;
    }
  }
}

function largestBelow<T extends { width: number }>(items: T[], limit: number): T {
  const below = items.filter((i) => i.width <= limit);
  const pool = below.length > 0 ? below : items;
  return pool.reduce((a, b) => (b.width > a.width ? b : a));
}

const KEY_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** Lowercase letters and digits from a CSPRNG (rejection sampling keeps it uniform). */
function randomKeyPart(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 252 && out.length < length) out += KEY_ALPHABET[byte % 36];
    }
  }
  return out;
}

function formatMegabytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return `${Number.isInteger(mb) ? mb : mb.toFixed(1)}MB`;
}
