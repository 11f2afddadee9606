import { type Backdrop, type DemoImageSpec } from './demo-image-spec';

/**
 * Colours of a demo photo: the fabric palette from the spec and the studio backdrops.
 */

export type Rgb = [number, number, number];

export function parseHex(hex: string): Rgb {
  const m = /^#?([0-9a-f]{6})$/i.exec(hex);
  if (!m) throw new Error(`not a #rrggbb colour: ${hex}`);
  const n = parseInt(m[1]!, 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function toHex([r, g, b]: Rgb): string {
  const h = (v: number) =>
    Math.round(Math.min(255, Math.max(0, v)))
      .toString(16)
      .padStart(2, '0');
  return `#${h(r)}${h(g)}${h(b)}`;
}

export function mix(a: string, b: string, t: number): string {
  const x = parseHex(a);
  const y = parseHex(b);
  return toHex([x[0] + (y[0] - x[0]) * t, x[1] + (y[1] - x[1]) * t, x[2] + (y[2] - x[2]) * t]);
}

/** Relative luminance, 0 (black) to 1 (white). */
function luminance(hex: string): number {
  const lin = (v: number) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  const [r, g, b] = parseHex(hex);
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

export interface Palette {
  base: string;
  /** Seams and edges. */
  seam: string;
  /** Inside of the garment (hood lining, back neck). */
  inside: string;
  /** Stitching. */
  stitch: string;
  trim: string;
  trimSeam: string;
  logo: string;
  /** Drawcords. */
  cord: string;
  isDark: boolean;
}

export function palette(spec: DemoImageSpec): Palette {
  const base = spec.color;
  const lum = luminance(base);
  const isDark = lum < 0.08;
  const trim = spec.trim ?? base;
  const trimDark = luminance(trim) < 0.08;
  return {
    base,
    seam: isDark ? mix(base, '#ffffff', 0.16) : mix(base, '#000000', 0.28),
    inside: isDark ? mix(base, '#000000', 0.45) : mix(base, '#000000', 0.32),
    stitch: isDark ? mix(base, '#ffffff', 0.28) : mix(base, '#000000', 0.2),
    trim,
    trimSeam: trimDark ? mix(trim, '#ffffff', 0.16) : mix(trim, '#000000', 0.28),
    logo: lum < 0.35 ? mix(base, '#ffffff', 0.82) : mix(base, '#000000', 0.7),
    cord: lum < 0.5 ? '#f1eee8' : mix(base, '#000000', 0.55),
    isDark,
  };
}

export const BACKDROPS: Record<Backdrop, { top: string; bottom: string }> = {
  stone: { top: '#f4f1ec', bottom: '#e4ded6' },
  mist: { top: '#f1f3f4', bottom: '#dfe4e7' },
  blush: { top: '#f7eeec', bottom: '#ead9d4' },
  sage: { top: '#f0f2ed', bottom: '#dde3d8' },
  sand: { top: '#f6f1e8', bottom: '#e6dccb' },
};
