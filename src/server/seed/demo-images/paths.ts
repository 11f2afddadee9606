import { DEMO_IMAGE_WIDTH } from './demo-image-spec';
import { mix, type Palette } from './palette';

/**
 * SVG path building for the garment drawings: mirrored outlines, seams, ribs, zips.
 */

export const CX = DEMO_IMAGE_WIDTH / 2;

export type Pt = readonly [number, number];
/** One segment of a half outline: a line, or a cubic curve with its two control points. */
export type Seg = { to: Pt; c?: readonly [Pt, Pt] };

export const L = (x: number, y: number): Seg => ({ to: [x, y] });
export const C = (x1: number, y1: number, x2: number, y2: number, x: number, y: number): Seg => ({
  to: [x, y],
  c: [
    [x1, y1],
    [x2, y2],
  ],
});

export const fmt = (n: number) => (Math.round(n * 10) / 10).toString();
export const pt = (x: number, y: number) => `${fmt(CX + x)} ${fmt(y)}`;

/**
 * A closed, left-right symmetric outline from its right half: x is the offset from the centre
 * line, the half starts and ends on the centre line (x = 0).
 */
export function mirrored(start: Pt, segs: Seg[]): string {
  const points: Pt[] = [start, ...segs.map((s) => s.to)];
  let d = `M${pt(start[0], start[1])}`;
  for (const s of segs) d += segCmd(s.to, s.c, 1);
  for (let i = segs.length - 1; i >= 0; i--) {
    const s = segs[i]!;
    const to = points[i]!;
    d += segCmd(to, s.c ? [s.c[1], s.c[0]] : undefined, -1);
  }
  return `${d}Z`;
}

function segCmd(to: Pt, c: readonly [Pt, Pt] | undefined, side: 1 | -1): string {
  if (!c) return `L${pt(side * to[0], to[1])}`;
  return `C${pt(side * c[0][0], c[0][1])} ${pt(side * c[1][0], c[1][1])} ${pt(side * to[0], to[1])}`;
}

/** An open path on one side (side 1 = right, -1 = left) from a start point through segments. */
export function open(side: 1 | -1, start: Pt, segs: Seg[]): string {
  let d = `M${pt(side * start[0], start[1])}`;
  for (const s of segs) d += segCmd(s.to, s.c, side);
  return d;
}

/** The same open path on both sides. */
export function both(start: Pt, segs: Seg[]): string[] {
  return [open(1, start, segs), open(-1, start, segs)];
}

/** Straight line between two points in centre-relative coordinates. */
export function line(x1: number, y1: number, x2: number, y2: number): string {
  return `M${pt(x1, y1)}L${pt(x2, y2)}`;
}

/** Short parallel rib lines between two horizontal levels, for cuffs, hems and waistbands. */
export function ribs(x1: number, x2: number, yTop: number, yBottom: number, gap = 13, taper = 0): string[] {
  const out: string[] = [];
  for (let x = x1 + gap / 2; x < x2; x += gap) {
    const t = (x - x1) / (x2 - x1) - 0.5;
    out.push(line(x, yTop, x + t * taper, yBottom));
  }
  return out;
}

export interface Drawing {
  /** Outline shapes drawn behind the body in the same fabric (hood, collar, straps). */
  under: string[];
  body: string;
  /** Areas showing the inside of the garment (darker). */
  inside: string[];
  /** Areas in the trim colour (bands, cuffs, caps), drawn over the body. */
  trim: string[];
  seams: string[];
  stitches: string[];
  /** Thin, faint lines (ribbing, ruching). */
  fine: string[];
  /** Soft shadows (blurred dark strokes) and soft highlights. */
  folds: string[];
  shines: string[];
  /** Extra SVG drawn last (zips, drawcords, buttons); may use the palette through the callback. */
  extras: (p: Palette) => string;
  logo: { x: number; y: number; size: number; rotate?: number } | null;
  /** Where the close-up looks (canvas coordinates). */
  focus: Pt;
  /** Extra paths that count when fitting the drawing into the frame (handles, straps). */
  bounds: string[];
  /** Multiplies the automatic fit (1 fills the frame). */
  scale: number;
}

export const noExtras = () => '';

export function drawing(partial: Partial<Drawing> & Pick<Drawing, 'body' | 'focus'>): Drawing {
  return {
    under: [],
    inside: [],
    trim: [],
    seams: [],
    stitches: [],
    fine: [],
    folds: [],
    shines: [],
    extras: noExtras,
    logo: null,
    bounds: [],
    scale: 1,
    ...partial,
  };
}

export function mirrorD(d: string): string {
  // Mirrors an absolute path across the centre line (only M/L/C with absolute pairs are used here).
  return d.replace(
    /(-?\d+(?:\.\d+)?) (-?\d+(?:\.\d+)?)/g,
    (_, x: string, y: string) => `${fmt(2 * CX - Number(x))} ${y}`,
  );
}

export function zipper(p: Palette, x: number, y1: number, y2: number): string {
  const tape = p.isDark ? mix(p.base, '#ffffff', 0.1) : mix(p.base, '#000000', 0.18);
  return (
    `<path d="M${fmt(x)} ${y1}L${fmt(x)} ${y2}" stroke="${tape}" stroke-width="16"/>` +
    `<path d="M${fmt(x)} ${y1}L${fmt(x)} ${y2}" stroke="#9f9b95" stroke-width="6" stroke-dasharray="3 4"/>` +
    `<rect x="${fmt(x - 10)}" y="${y1 + 24}" width="20" height="34" rx="5" fill="#c4c0b9" stroke="#8d8983" stroke-width="2"/>` +
    `<rect x="${fmt(x - 6)}" y="${y1 + 52}" width="12" height="46" rx="5" fill="#b4b0a9"/>`
  );
}
