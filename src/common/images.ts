/**
 * Image paths and URLs, shared by the browser and the server. An uploaded image is stored as WebP
 * variants `products/<ms>-<random>-<width>.webp`, one per width of IMAGE_WIDTHS that is not wider
 * than the original (at least one); a product keeps the key of the 800 px variant (or the largest
 * below) as its image path.
 */

/** Widths of the WebP variants made from an upload, smallest first. */
export const IMAGE_WIDTHS = [400, 800, 1200] as const;
export type ImageWidth = (typeof IMAGE_WIDTHS)[number];

/** The variant a product stores as its image path. */
export const MAIN_IMAGE_WIDTH: ImageWidth = 800;

/** Where the local storage driver's objects are served. */
export const DEFAULT_IMAGE_PUBLIC_BASE = '/uploads';

const ABSOLUTE_URL = /^(?:https?:)?\/\//i;
const INLINE_URL = /^(?:data|blob):/i;
const VARIANT = /^(.*)-(\d{1,5})\.webp$/;

/**
 * The URL to load an image from. Absolute http(s) URLs and paths starting with `/` are used
 * unchanged (as are `data:` and `blob:` previews); a relative storage key gets the public storage
 * prefix: `products/a-800.webp` -> `/uploads/products/a-800.webp`.
 */
export function resolveImageUrl(path: string, publicBase: string = DEFAULT_IMAGE_PUBLIC_BASE): string {
  const trimmed = path.trim();
  if (trimmed === '' || ABSOLUTE_URL.test(trimmed) || trimmed.startsWith('/') || INLINE_URL.test(trimmed)) {
    return trimmed;
  }
  const base = publicBase.replace(/\/+$/, '');
  return `${base}/${trimmed.replace(/^(?:\.\/)+/, '')}`;
}

/** The width in a `...-<width>.webp` path, or null for paths not named that way. */
export function imageVariantWidth(path: string): number | null {
  const match = VARIANT.exec(path.trim());
  if (!match) return null;
  const width = Number(match[2]);
  return width > 0 ? width : null;
}

/** The path of another width of the same upload: `a-800.webp` -> `a-400.webp`. */
export function imageVariantPath(path: string, width: number): string | null {
  const match = VARIANT.exec(path.trim());
  return match ? `${match[1]}-${width}.webp` : null;
}

/**
 * `<url> 400w, <url> 800w` for <img srcset>, from the `-<width>.webp` naming; '' for paths not
 * following it. Without `widths` it lists the standard widths up to the path's own (the ones an
 * upload is sure to have, since the stored path is the 800 variant or the largest below); pass
 * the `widths` an upload returned to list them all.
 */
export function imageSrcSet(
  path: string,
  publicBase: string = DEFAULT_IMAGE_PUBLIC_BASE,
  widths?: readonly number[],
): string {
  const own = imageVariantWidth(path);
  if (own === null) return '';
  const list =
    widths ?? (IMAGE_WIDTHS.includes(own as ImageWidth) ? IMAGE_WIDTHS.filter((w) => w <= own) : [own]);
  return [...new Set(list)]
    .filter((w) => Number.isInteger(w) && w > 0)
    .sort((a, b) => a - b)
    .map((w) => `${resolveImageUrl(imageVariantPath(path, w) ?? path, publicBase)} ${w}w`)
    .join(', ');
}
