import sharp from 'sharp';

/**
 * Demo product photos drawn locally (no downloads): an SVG "flat lay" of a stylised garment on a
 * soft studio backdrop, rendered to PNG by sharp. Everything is a pure function of the spec, so the
 * same product always gets the same pictures.
 */

export const DEMO_IMAGE_WIDTH = 1200;
export const DEMO_IMAGE_HEIGHT = 1600;

export type Garment =
  | { kind: 'leggings'; length?: 'full' | 'crop' }
  | { kind: 'pants'; style: 'jogger' | 'straight' | 'flare' }
  | { kind: 'shorts'; length: 'short' | 'mid' | 'bike' }
  | { kind: 'bra'; back?: 'racer' | 'scoop' }
  | { kind: 'tank'; cut: 'womens' | 'mens' }
  | { kind: 'top'; sleeves: 'short' | 'long' }
  | { kind: 'hoodie'; zip?: boolean }
  | { kind: 'jacket'; fit: 'womens' | 'mens' }
  | { kind: 'dress' }
  | { kind: 'skirt' }
  | { kind: 'cap' }
  | { kind: 'duffel' }
  | { kind: 'bottle' }
  | { kind: 'belt-bag' };

export type GarmentKind = Garment['kind'];

export type Backdrop = 'stone' | 'mist' | 'blush' | 'sage' | 'sand';

export type DemoView = 'front' | 'back' | 'detail';

export interface DemoImageSpec {
  garment: Garment;
  /** Fabric colour, `#rrggbb`. */
  color: string;
  /** Marled fabric (heather grey and the like): stronger grain. */
  heather?: boolean;
  /** Optional contrast colour for bands, trims and straps. */
  trim?: string;
  brand: string;
  backdrop: Backdrop;
  view: DemoView;
}

// Colour helpers -------------------------------------------------------------------------------------

type Rgb = [number, number, number];

function parseHex(hex: string): Rgb {
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

function mix(a: string, b: string, t: number): string {
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

interface Palette {
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

function palette(spec: DemoImageSpec): Palette {
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

const BACKDROPS: Record<Backdrop, { top: string; bottom: string }> = {
  stone: { top: '#f4f1ec', bottom: '#e4ded6' },
  mist: { top: '#f1f3f4', bottom: '#dfe4e7' },
  blush: { top: '#f7eeec', bottom: '#ead9d4' },
  sage: { top: '#f0f2ed', bottom: '#dde3d8' },
  sand: { top: '#f6f1e8', bottom: '#e6dccb' },
};

// Path building ----------------------------------------------------------------------------------------

const CX = DEMO_IMAGE_WIDTH / 2;

type Pt = readonly [number, number];
/** One segment of a half outline: a line, or a cubic curve with its two control points. */
type Seg = { to: Pt; c?: readonly [Pt, Pt] };

const L = (x: number, y: number): Seg => ({ to: [x, y] });
const C = (x1: number, y1: number, x2: number, y2: number, x: number, y: number): Seg => ({
  to: [x, y],
  c: [
    [x1, y1],
    [x2, y2],
  ],
});

const fmt = (n: number) => (Math.round(n * 10) / 10).toString();
const pt = (x: number, y: number) => `${fmt(CX + x)} ${fmt(y)}`;

/**
 * A closed, left-right symmetric outline from its right half: x is the offset from the centre
 * line, the half starts and ends on the centre line (x = 0).
 */
function mirrored(start: Pt, segs: Seg[]): string {
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
function open(side: 1 | -1, start: Pt, segs: Seg[]): string {
  let d = `M${pt(side * start[0], start[1])}`;
  for (const s of segs) d += segCmd(s.to, s.c, side);
  return d;
}

/** The same open path on both sides. */
function both(start: Pt, segs: Seg[]): string[] {
  return [open(1, start, segs), open(-1, start, segs)];
}

/** Straight line between two points in centre-relative coordinates. */
function line(x1: number, y1: number, x2: number, y2: number): string {
  return `M${pt(x1, y1)}L${pt(x2, y2)}`;
}

/** Short parallel rib lines between two horizontal levels, for cuffs, hems and waistbands. */
function ribs(x1: number, x2: number, yTop: number, yBottom: number, gap = 13, taper = 0): string[] {
  const out: string[] = [];
  for (let x = x1 + gap / 2; x < x2; x += gap) {
    const t = (x - x1) / (x2 - x1) - 0.5;
    out.push(line(x, yTop, x + t * taper, yBottom));
  }
  return out;
}

// Garment drawings -----------------------------------------------------------------------------------

interface Drawing {
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

const noExtras = () => '';

function drawing(partial: Partial<Drawing> & Pick<Drawing, 'body' | 'focus'>): Drawing {
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

function drawGarment(garment: Garment, view: 'front' | 'back'): Drawing {
  switch (garment.kind) {
    case 'leggings':
      return drawLeggings(view, garment.length ?? 'full');
    case 'pants':
      return drawPants(view, garment.style);
    case 'shorts':
      return drawShorts(view, garment.length);
    case 'bra':
      return drawBra(view, garment.back ?? 'racer');
    case 'tank':
      return drawTank(view, garment.cut);
    case 'top':
      return drawTop(view, garment.sleeves);
    case 'hoodie':
      return drawHoodie(view, garment.zip ?? false);
    case 'jacket':
      return drawJacket(view, garment.fit);
    case 'dress':
      return drawDress(view);
    case 'skirt':
      return drawSkirt(view);
    case 'cap':
      return drawCap(view);
    case 'duffel':
      return drawDuffel(view);
    case 'bottle':
      return drawBottle(view);
    case 'belt-bag':
      return drawBeltBag(view);
  }
}

function drawLeggings(view: 'front' | 'back', length: 'full' | 'crop'): Drawing {
  const hem = length === 'full' ? 1400 : 1250;
  const hemOuter = length === 'full' ? 222 : 228;
  const hemInner = length === 'full' ? 124 : 110;
  const body = mirrored(
    [0, 230],
    [
      L(200, 230),
      L(204, 332),
      C(218, 420, 246, 520, 248, 640),
      C(250, 860, 236, 1120, hemOuter, hem),
      L(hemInner, hem + 4),
      C(112, 1150, 84, 860, 40, 700),
      C(16, 664, 6, 658, 0, 656),
    ],
  );
  const seams = [`M${pt(-204, 332)}C${pt(-80, 344)} ${pt(80, 344)} ${pt(204, 332)}`];
  const stitches = [
    `M${pt(-200, 318)}C${pt(-80, 330)} ${pt(80, 330)} ${pt(200, 318)}`,
    ...both([hemOuter - 2, hem - 26], [L(hemInner + 2, hem - 22)]),
  ];
  if (view === 'front') {
    seams.push(line(0, 344, 0, 656));
    seams.push(...both([150, 345], [C(170, 470, 170, 600, 120, 700)]));
  } else {
    seams.push(...both([0, 520], [C(90, 470, 180, 430, 240, 560)]));
    seams.push(line(0, 344, 0, 656));
  }
  return drawing({
    body,
    seams,
    stitches,
    folds: [
      ...both([70, 720], [C(100, 900, 120, 1100, 150, hem - 20)]),
      ...both([200, 980], [C(180, 1000, 150, 1010, 120, 1000)]),
      ...both([236, 660], [C(230, 800, 222, 1000, 210, hem - 20)]),
    ],
    shines: both([170, 420], [C(180, 700, 190, 1000, 184, hem - 40)]),
    extras:
      view === 'back'
        ? (p) =>
            `<path d="M${pt(-70, 352)}L${pt(70, 352)}L${pt(66, 440)}C${pt(30, 452)} ${pt(-30, 452)} ${pt(-66, 440)}Z" fill="${p.base}" stroke="${p.seam}" stroke-width="3"/>` +
            `<path d="M${pt(-62, 364)}L${pt(62, 364)}" stroke="${p.stitch}" stroke-width="2" stroke-dasharray="7 6"/>`
        : noExtras,
    logo: view === 'front' ? { x: CX - 100, y: 288, size: 20 } : { x: CX, y: 290, size: 24 },
    focus: [view === 'front' ? CX - 90 : CX, 340],
  });
}

function drawPants(view: 'front' | 'back', style: 'jogger' | 'straight' | 'flare'): Drawing {
  const top = 300;
  const band = 400;
  const legs: Seg[] =
    style === 'jogger'
      ? [
          C(266, 900, 244, 1150, 222, 1296),
          L(208, 1314),
          L(206, 1410),
          L(96, 1410),
          L(94, 1314),
          L(84, 1296),
          C(78, 1100, 70, 880, 36, 742),
        ]
      : style === 'straight'
        ? [C(268, 900, 272, 1150, 274, 1410), L(102, 1412), C(96, 1150, 82, 900, 36, 742)]
        : [C(262, 860, 262, 1100, 318, 1410), L(92, 1414), C(104, 1150, 86, 900, 36, 742)];
  const body = mirrored(
    [0, top],
    [L(214, top), L(220, band), C(240, 480, 262, 560, 264, 680), ...legs, C(16, 708, 6, 702, 0, 700)],
  );
  const seams = [`M${pt(-220, band)}C${pt(-80, band + 10)} ${pt(80, band + 10)} ${pt(220, band)}`];
  const stitches: string[] = [];
  const fine = ribs(-212, 212, top + 10, band - 8, 11);
  const trim: string[] = [];
  if (style === 'jogger') {
    trim.push(
      ...[1, -1].map(
        (s) => `M${pt(s * 208, 1314)}L${pt(s * 206, 1410)}L${pt(s * 96, 1410)}L${pt(s * 94, 1314)}Z`,
      ),
    );
    fine.push(...ribs(96, 206, 1318, 1406, 12), ...ribs(-206, -96, 1318, 1406, 12));
  } else {
    stitches.push(
      ...both([style === 'straight' ? 272 : 314, 1380], [L(style === 'straight' ? 102 : 94, 1384)]),
    );
  }
  if (view === 'front') {
    seams.push(...both([168, band + 4], [C(200, 470, 240, 520, 256, 580)]));
    stitches.push(`M${pt(-12, band + 10)}L${pt(-12, 600)}C${pt(-12, 640)} ${pt(10, 660)} ${pt(30, 640)}`);
    seams.push(line(0, band + 8, 0, 700));
  } else {
    seams.push(line(0, band + 8, 0, 700));
    seams.push(...both([0, 500], [C(80, 480, 180, 450, 248, 520)]));
    stitches.push(`M${pt(70, 560)}L${pt(190, 548)}L${pt(196, 600)}L${pt(76, 612)}Z`);
  }
  return drawing({
    body,
    trim,
    seams,
    stitches,
    fine,
    folds: [
      ...both([120, 760], [C(150, 950, 160, 1150, 150, 1290)]),
      ...both([250, 700], [C(250, 900, 240, 1100, 222, 1290)]),
      ...both([110, 1000], [C(150, 1030, 190, 1020, 240, 990)]),
      ...both([100, 1160], [C(150, 1200, 190, 1190, 230, 1170)]),
    ],
    shines: both([190, 500], [C(200, 800, 200, 1050, 180, 1280)]),
    extras:
      view === 'front'
        ? (p) =>
            `<path d="M${pt(-18, band - 6)}C${pt(-30, band + 60)} ${pt(-60, band + 120)} ${pt(-46, band + 190)}" stroke="${p.cord}" stroke-width="9" fill="none" stroke-linecap="round"/>` +
            `<path d="M${pt(18, band - 6)}C${pt(34, band + 70)} ${pt(20, band + 130)} ${pt(40, band + 200)}" stroke="${p.cord}" stroke-width="9" fill="none" stroke-linecap="round"/>` +
            `<rect x="${fmt(CX - 54)}" y="${band + 182}" width="16" height="28" rx="5" fill="#c9c6c0"/>` +
            `<rect x="${fmt(CX + 32)}" y="${band + 192}" width="16" height="28" rx="5" fill="#c9c6c0"/>` +
            `<circle cx="${fmt(CX - 18)}" cy="${band - 8}" r="7" fill="${p.seam}"/><circle cx="${fmt(CX + 18)}" cy="${band - 8}" r="7" fill="${p.seam}"/>`
        : noExtras,
    logo: view === 'front' ? { x: CX + 190, y: 640, size: 22 } : { x: CX, y: 360, size: 26 },
    focus: view === 'front' ? [CX + 60, 520] : [CX, 440],
  });
}

function drawShorts(view: 'front' | 'back', length: 'short' | 'mid' | 'bike'): Drawing {
  const top = 440;
  const band = 530;
  const hem = length === 'short' ? 1010 : length === 'mid' ? 1120 : 1140;
  const legs: Seg[] =
    length === 'bike'
      ? [C(272, 860, 276, 1000, 282, hem), L(128, hem + 8), C(100, 1000, 56, 880, 0, 846)]
      : [
          C(282, 820, 300, 950, 310, hem),
          C(230, hem + 24, 130, hem + 20, 66, hem - 6),
          C(46, hem - 100, 24, 880, 0, 850),
        ];
  const body = mirrored([0, top], [L(214, top), L(220, band), C(236, 600, 256, 660, 264, 740), ...legs]);
  const seams = [`M${pt(-220, band)}C${pt(-80, band + 10)} ${pt(80, band + 10)} ${pt(220, band)}`];
  const stitches =
    length === 'bike'
      ? both([280, hem - 26], [L(130, hem - 18)])
      : both([306, hem - 28], [C(230, hem - 6, 130, hem - 10, 70, hem - 32)]);
  if (length !== 'bike') {
    // side split
    seams.push(...both([310, hem], [L(296, hem - 70), L(282, hem + 2)]));
  }
  seams.push(line(0, band + 8, 0, length === 'bike' ? 840 : 850));
  if (view === 'back') seams.push(...both([0, 620], [C(90, 600, 180, 570, 250, 640)]));
  return drawing({
    body,
    seams,
    stitches,
    fine: ribs(-212, 212, top + 10, band - 8, 11),
    folds: [
      ...both([110, 860], [C(150, 900, 200, 960, 240, hem - 20)]),
      ...both([250, 760], [C(260, 860, 270, 940, 280, hem - 30)]),
    ],
    shines: both([180, 600], [C(200, 720, 210, 850, 220, hem - 40)]),
    extras:
      view === 'front' && length !== 'bike'
        ? (p) =>
            `<path d="M${pt(-16, band - 6)}C${pt(-26, band + 50)} ${pt(-52, band + 100)} ${pt(-40, band + 150)}" stroke="${p.cord}" stroke-width="8" fill="none" stroke-linecap="round"/>` +
            `<path d="M${pt(16, band - 6)}C${pt(30, band + 60)} ${pt(18, band + 110)} ${pt(36, band + 160)}" stroke="${p.cord}" stroke-width="8" fill="none" stroke-linecap="round"/>`
        : noExtras,
    logo:
      view === 'front'
        ? {
            x: CX - (length === 'bike' ? 206 : 190),
            y: hem - 60,
            size: 22,
            rotate: length === 'bike' ? -2 : -8,
          }
        : { x: CX, y: top + 52, size: 24 },
    focus: view === 'front' ? [CX - 170, hem - 120] : [CX, band],
  });
}

function drawBra(view: 'front' | 'back', back: 'racer' | 'scoop'): Drawing {
  const front = view === 'front' || back === 'scoop';
  const top: Seg[] = front
    ? [
        C(60, 690, 112, 560, 122, 430),
        L(124, 380),
        C(150, 370, 182, 370, 200, 380),
        C(204, 470, 240, 600, 282, 690),
      ]
    : [L(34, 330), C(38, 430, 54, 520, 110, 580), C(160, 630, 220, 660, 282, 690)];
  const body = mirrored(
    [0, front ? 700 : 330],
    [...top, C(290, 760, 282, 860, 276, 902), L(272, 1060), C(180, 1070, 80, 1072, 0, 1072)],
  );
  const seams = [`M${pt(-276, 902)}C${pt(-120, 918)} ${pt(120, 918)} ${pt(276, 902)}`];
  const stitches = [
    `M${pt(-272, 1040)}C${pt(-120, 1052)} ${pt(120, 1052)} ${pt(272, 1040)}`,
    `M${pt(-275, 922)}C${pt(-120, 938)} ${pt(120, 938)} ${pt(275, 922)}`,
  ];
  if (front) {
    seams.push(...both([150, 430], [C(170, 600, 190, 760, 160, 906)]));
    stitches.push(...both([8, 690], [C(66, 680, 114, 560, 124, 440)]));
  } else {
    stitches.push(...both([24, 340], [C(28, 430, 48, 520, 100, 570)]));
  }
  return drawing({
    body,
    seams,
    stitches,
    fine: ribs(-268, 268, 944, 1034, 14),
    folds: [
      ...both([60, 760], [C(110, 800, 160, 840, 230, 860)]),
      ...both([250, 700], [C(260, 760, 262, 820, 256, 880)]),
    ],
    shines: front
      ? both([190, 500], [C(200, 620, 210, 720, 200, 820)])
      : both([120, 640], [C(160, 700, 200, 760, 230, 840)]),
    logo: { x: CX, y: 1000, size: 26 },
    focus: [CX, 960],
  });
}

function drawTank(view: 'front' | 'back', cut: 'womens' | 'mens'): Drawing {
  const w = cut === 'womens';
  const neckDepth = view === 'front' ? (w ? 470 : 430) : w ? 330 : 320;
  const strapIn = w ? 138 : 160;
  const strapOut = w ? 206 : 250;
  const strapTop = w ? 250 : 230;
  const armBottom: Pt = w ? [300, 600] : [330, 700];
  const hem = w ? 1210 : 1170;
  const hemX = w ? 318 : 336;
  const neck: Seg[] =
    view === 'front'
      ? [C(70, neckDepth - 4, strapIn - 8, neckDepth - 90, strapIn, strapTop + 40)]
      : [C(80, neckDepth - 2, strapIn - 10, neckDepth - 30, strapIn, strapTop + 40)];
  const armhole = C(
    strapOut + 4,
    strapTop + 130,
    armBottom[0] - 50,
    armBottom[1] - 80,
    armBottom[0],
    armBottom[1],
  );
  const side = C(armBottom[0] + 6, armBottom[1] + 180, hemX - 10, hem - 200, hemX, hem);
  const body = mirrored(
    [0, neckDepth],
    [
      ...neck,
      L(strapIn + 2, strapTop),
      C(strapIn + 20, strapTop - 6, strapOut - 16, strapTop - 6, strapOut, strapTop),
      armhole,
      side,
      C(200, hem + 16, 100, hem + 18, 0, hem + 18),
    ],
  );
  const binding = [
    open(1, [0, neckDepth], neck),
    open(-1, [0, neckDepth], neck),
    ...both([strapOut, strapTop], [armhole]),
  ];
  const inside =
    view === 'front'
      ? [
          `M${pt(-strapIn, strapTop + 40)}C${pt(-strapIn + 20, strapTop + 100)} ${pt(-70, strapTop + 130)} ${pt(0, strapTop + 134)}C${pt(70, strapTop + 130)} ${pt(strapIn - 20, strapTop + 100)} ${pt(strapIn, strapTop + 40)}C${pt(strapIn - 8, neckDepth - 90)} ${pt(70, neckDepth - 4)} ${pt(0, neckDepth)}C${pt(-70, neckDepth - 4)} ${pt(-strapIn + 8, neckDepth - 90)} ${pt(-strapIn, strapTop + 40)}Z`,
        ]
      : [];
  return drawing({
    body,
    inside,
    seams: both(armBottom, [side]),
    stitches: [
      `M${pt(-hemX + 4, hem - 30)}C${pt(-200, hem - 14)} ${pt(200, hem - 14)} ${pt(hemX - 4, hem - 30)}`,
    ],
    folds: [
      ...both(
        [armBottom[0] - 20, armBottom[1] + 40],
        [C(armBottom[0] - 80, armBottom[1] + 90, 180, armBottom[1] + 150, 120, armBottom[1] + 200)],
      ),
      ...both([120, hem - 140], [C(150, hem - 90, 200, hem - 50, 240, hem - 20)]),
    ],
    shines: both([200, 560], [C(220, 760, 230, 900, 240, hem - 40)]),
    extras: (p) =>
      binding.map((d) => `<path d="${d}" stroke="${p.seam}" stroke-width="4" fill="none"/>`).join(''),
    logo: view === 'front' ? { x: CX + 150, y: 600, size: 22 } : { x: CX, y: neckDepth + 70, size: 24 },
    focus: view === 'front' ? [CX + 100, 560] : [CX, neckDepth + 100],
  });
}

function drawTop(view: 'front' | 'back', sleeves: 'short' | 'long'): Drawing {
  const neck = view === 'front' ? 340 : 290;
  const hem = 1100;
  const sleeve: Seg[] =
    sleeves === 'short'
      ? [L(440, 470), L(362, 590), C(340, 570, 318, 552, 302, 540)]
      : [
          C(360, 360, 428, 600, 458, 900),
          L(466, 1000),
          L(388, 1010),
          L(382, 912),
          C(368, 760, 336, 630, 302, 545),
        ];
  const body = mirrored(
    [0, neck],
    [
      C(50, neck, 100, 300, 112, 262),
      L(272, 300),
      ...sleeve,
      C(304, 700, 308, 900, 310, hem),
      C(200, hem + 12, 100, hem + 14, 0, hem + 14),
    ],
  );
  const neckline = `M${pt(-112, 262)}C${pt(-100, 300)} ${pt(-50, neck)} ${pt(0, neck)}C${pt(50, neck)} ${pt(100, 300)} ${pt(112, 262)}`;
  const inside = view === 'front' ? [`${neckline}C${pt(60, 284)} ${pt(-60, 284)} ${pt(-112, 262)}Z`] : [];
  const seams = [
    ...both([112, 262], [L(272, 300)]),
    ...both([272, 300], [C(290, 380, 296, 470, 302, sleeves === 'short' ? 540 : 545)]),
  ];
  const stitches = [
    `M${pt(-306, hem - 30)}C${pt(-200, hem - 18)} ${pt(200, hem - 18)} ${pt(306, hem - 30)}`,
    ...(sleeves === 'short' ? both([428, 488], [L(350, 606)]) : both([462, 986], [L(386, 996)])),
  ];
  const fine =
    sleeves === 'long' ? [...ribs(386, 464, 916, 1004, 11), ...ribs(-464, -386, 916, 1004, 11)] : [];
  return drawing({
    body,
    inside,
    seams,
    stitches,
    fine,
    folds: [
      ...both([290, 580], [C(240, 640, 190, 690, 140, 730)]),
      ...both([120, hem - 150], [C(150, hem - 100, 200, hem - 60, 250, hem - 30)]),
      ...(sleeves === 'long' ? both([330, 640], [C(370, 760, 400, 850, 420, 900)]) : []),
    ],
    shines: both([220, 420], [C(230, 650, 230, 850, 220, hem - 40)]),
    extras: (p) =>
      `<path d="${neckline}" stroke="${p.seam}" stroke-width="16" stroke-opacity=".55" fill="none"/>`,
    logo: view === 'front' ? { x: CX + 150, y: 480, size: 24 } : { x: CX, y: 380, size: 22 },
    focus: view === 'front' ? [CX + 90, 430] : [CX, 380],
  });
}

function drawHoodie(view: 'front' | 'back', zip: boolean): Drawing {
  const band = 1000;
  const hem = 1110;
  const body = mirrored(
    [0, 330],
    [
      C(60, 330, 110, 300, 140, 272),
      L(310, 322),
      C(390, 380, 446, 640, 468, 880),
      L(480, 990),
      L(384, 1000),
      L(374, 892),
      C(362, 760, 346, 650, 330, 570),
      C(326, 750, 328, 900, 328, band),
      L(318, hem),
      C(200, hem + 6, 100, hem + 8, 0, hem + 8),
    ],
  );
  const hood = `M${pt(-178, 340)}C${pt(-220, 110)} ${pt(220, 110)} ${pt(178, 340)}Z`;
  const inside =
    view === 'front'
      ? [
          `M${pt(-134, 318)}C${pt(-150, 186)} ${pt(150, 186)} ${pt(134, 318)}C${pt(90, 340)} ${pt(-90, 340)} ${pt(-134, 318)}Z`,
        ]
      : [];
  const trimAreas = [
    `M${pt(-328, band)}L${pt(328, band)}L${pt(318, hem)}C${pt(200, hem + 6)} ${pt(-200, hem + 6)} ${pt(-318, hem)}Z`,
    ...[1, -1].map(
      (s) => `M${pt(s * 468, 880)}L${pt(s * 480, 990)}L${pt(s * 384, 1000)}L${pt(s * 374, 892)}Z`,
    ),
  ];
  const seams = [
    ...both([310, 322], [C(318, 420, 326, 500, 330, 570)]),
    `M${pt(-328, band)}L${pt(328, band)}`,
    ...both([374, 892], [L(468, 880)]),
  ];
  const fine = [
    ...ribs(-324, 324, band + 6, hem - 2, 12, 6),
    ...ribs(378, 474, 896, 994, 11),
    ...ribs(-474, -378, 896, 994, 11),
  ];
  const stitches: string[] = [];
  if (view === 'front') {
    if (zip) {
      seams.push(...both([220, band - 4], [L(180, 780), C(170, 760, 160, 745, 150, 740)]));
    } else {
      seams.push(
        `M${pt(-220, band)}L${pt(-220, 900)}C${pt(-220, 810)} ${pt(-176, 750)} ${pt(-144, 730)}L${pt(144, 730)}C${pt(176, 750)} ${pt(220, 810)} ${pt(220, 900)}L${pt(220, band)}`,
      );
      stitches.push(
        `M${pt(-204, band - 12)}L${pt(-204, 902)}C${pt(-204, 820)} ${pt(-164, 764)} ${pt(-136, 746)}L${pt(136, 746)}C${pt(164, 764)} ${pt(204, 820)} ${pt(204, 902)}L${pt(204, band - 12)}`,
      );
    }
  }
  return drawing({
    under: [hood],
    body,
    inside,
    trim: trimAreas,
    seams,
    stitches,
    fine,
    folds: [
      ...both([160, 560], [C(170, 700, 180, 850, 170, band)]),
      ...both([340, 600], [C(384, 700, 420, 800, 440, 880)]),
    ],
    shines: both([250, 420], [C(260, 600, 260, 800, 250, band - 20)]),
    extras: (p) => {
      if (view === 'back') return '';
      let svg = '';
      if (zip) svg += zipper(p, CX, 330, hem + 6);
      svg +=
        `<path d="M${pt(-52, 318)}C${pt(-58, 400)} ${pt(-80, 480)} ${pt(-66, 580)}" stroke="${p.cord}" stroke-width="10" fill="none" stroke-linecap="round"/>` +
        `<path d="M${pt(52, 318)}C${pt(62, 410)} ${pt(48, 500)} ${pt(60, 600)}" stroke="${p.cord}" stroke-width="10" fill="none" stroke-linecap="round"/>` +
        `<rect x="${fmt(CX - 75)}" y="570" width="18" height="34" rx="6" fill="#c9c6c0"/>` +
        `<rect x="${fmt(CX + 51)}" y="590" width="18" height="34" rx="6" fill="#c9c6c0"/>` +
        `<circle cx="${fmt(CX - 52)}" cy="318" r="9" fill="${p.seam}"/><circle cx="${fmt(CX + 52)}" cy="318" r="9" fill="${p.seam}"/>`;
      return svg;
    },
    logo:
      view === 'front'
        ? { x: zip ? CX + 170 : CX, y: zip ? 520 : 660, size: zip ? 22 : 34 }
        : { x: CX, y: 460, size: 26 },
    focus: view === 'front' ? [zip ? CX + 120 : CX, zip ? 500 : 640] : [CX, 440],
  });
}

function drawJacket(view: 'front' | 'back', fit: 'womens' | 'mens'): Drawing {
  const w = fit === 'womens';
  const hem = 1110;
  const side: Seg[] = w
    ? [C(306, 680, 280, 780, 284, 860), C(288, 960, 302, 1060, 306, hem)]
    : [C(316, 750, 318, 950, 320, hem)];
  const body = mirrored(
    [0, 300],
    [
      C(50, 300, 100, 280, 124, 262),
      L(290, 312),
      C(374, 370, 430, 620, 456, 880),
      L(464, 980),
      L(388, 990),
      L(380, 892),
      C(366, 760, 340, 650, 314, 560),
      ...side,
      C(200, hem + 8, 100, hem + 10, 0, hem + 10),
    ],
  );
  const collar = `M${pt(-140, 300)}L${pt(-130, 196)}C${pt(-60, 180)} ${pt(60, 180)} ${pt(130, 196)}L${pt(140, 300)}Z`;
  const inside =
    view === 'front'
      ? [
          `M${pt(-118, 266)}L${pt(-110, 206)}C${pt(-50, 194)} ${pt(50, 194)} ${pt(110, 206)}L${pt(118, 266)}C${pt(60, 290)} ${pt(-60, 290)} ${pt(-118, 266)}Z`,
        ]
      : [];
  const seams = [
    ...both([290, 312], [C(302, 400, 310, 480, 314, 560)]),
    ...both([124, 262], [L(290, 312)]),
    ...both([380, 892], [L(456, 880)]),
  ];
  const stitches = [`M${pt(-312, hem - 30)}C${pt(-200, hem - 20)} ${pt(200, hem - 20)} ${pt(312, hem - 30)}`];
  if (view === 'front') {
    seams.push(...both([110, 400], [C(150, 560, 170, 760, 180, hem)]));
  } else {
    seams.push(`M${pt(-304, 500)}C${pt(-150, 540)} ${pt(150, 540)} ${pt(304, 500)}`);
    stitches.push(`M${pt(-300, 520)}C${pt(-150, 560)} ${pt(150, 560)} ${pt(300, 520)}`);
  }
  return drawing({
    under: [collar],
    body,
    inside,
    seams,
    stitches,
    fine: [...ribs(384, 462, 896, 986, 10), ...ribs(-462, -384, 896, 986, 10)],
    folds: [
      ...both([160, 560], [C(170, 720, 180, 900, 170, hem - 20)]),
      ...both([334, 620], [C(380, 720, 410, 800, 430, 880)]),
    ],
    shines: both([236, 420], [C(246, 640, 246, 860, 236, hem - 30)]),
    extras: (p) => {
      if (view === 'back') return '';
      return (
        zipper(p, CX, 190, hem + 8) +
        [1, -1]
          .map(
            (s) =>
              `<path d="M${pt(s * 150, 760)}L${pt(s * 206, 920)}" stroke="${p.seam}" stroke-width="7" stroke-linecap="round"/>` +
              `<rect x="${fmt(CX + s * 160 - 6)}" y="776" width="12" height="30" rx="4" fill="#b9b6b0" transform="rotate(${s * -20} ${fmt(CX + s * 160)} 776)"/>`,
          )
          .join('')
      );
    },
    logo: view === 'front' ? { x: CX + 184, y: 460, size: 22 } : { x: CX, y: 420, size: 26 },
    focus: view === 'front' ? [CX + 110, 420] : [CX, 420],
  });
}

function drawDress(view: 'front' | 'back'): Drawing {
  const neck = view === 'front' ? 440 : 330;
  const waist = 780;
  const hem = 1330;
  const body = mirrored(
    [0, neck],
    [
      C(70, neck - 4, 120, 360, 130, 290),
      L(132, 240),
      C(152, 234, 180, 234, 196, 240),
      C(200, 360, 240, 480, 280, 560),
      C(282, 640, 252, 740, 238, waist),
      C(276, 940, 344, 1160, 388, hem - 30),
      C(260, hem - 2, 120, hem + 4, 0, hem + 4),
    ],
  );
  const pleats = [0.25, 0.5, 0.75].flatMap((t) =>
    both([238 * t, waist + 6], [L(388 * t + 20 * t, hem - 10 - 8 * t)]),
  );
  const neckline = both([132, 290], [C(120, 360, 70, neck - 4, 0, neck)]);
  return drawing({
    body,
    inside:
      view === 'front'
        ? [
            `M${pt(-130, 290)}C${pt(-110, 340)} ${pt(-60, 360)} ${pt(0, 362)}C${pt(60, 360)} ${pt(110, 340)} ${pt(130, 290)}C${pt(120, 360)} ${pt(70, neck - 4)} ${pt(0, neck)}C${pt(-70, neck - 4)} ${pt(-120, 360)} ${pt(-130, 290)}Z`,
          ]
        : [],
    seams: [
      `M${pt(-238, waist)}C${pt(-120, waist + 12)} ${pt(120, waist + 12)} ${pt(238, waist)}`,
      ...pleats,
    ],
    stitches: [
      `M${pt(-384, hem - 52)}C${pt(-260, hem - 28)} ${pt(260, hem - 28)} ${pt(384, hem - 52)}`,
      `M${pt(-240, waist - 20)}C${pt(-120, waist - 8)} ${pt(120, waist - 8)} ${pt(240, waist - 20)}`,
    ],
    folds: [
      ...both([60, waist + 30], [C(80, 950, 110, 1100, 130, hem - 10)]),
      ...both([180, waist + 30], [C(230, 950, 280, 1100, 320, hem - 20)]),
    ],
    shines: [
      ...both([120, waist + 40], [C(160, 950, 200, 1100, 230, hem - 10)]),
      ...both([180, 420], [C(190, 560, 200, 680, 190, waist - 20)]),
    ],
    extras: (p) =>
      neckline.map((d) => `<path d="${d}" stroke="${p.seam}" stroke-width="4" fill="none"/>`).join(''),
    logo: view === 'front' ? { x: CX + 140, y: 560, size: 22 } : { x: CX, y: 700, size: 24 },
    focus: view === 'front' ? [CX + 90, 560] : [CX, 700],
  });
}

function drawSkirt(view: 'front' | 'back'): Drawing {
  const body = mirrored(
    [0, 420],
    [L(204, 420), L(208, 520), C(254, 680, 334, 920, 376, 1140), C(250, 1172, 120, 1178, 0, 1178)],
  );
  const pleats = [0.18, 0.4, 0.62, 0.84].flatMap((t) =>
    both([208 * t, 526], [L(376 * t, 1160 + 10 * (1 - t))]),
  );
  return drawing({
    body,
    seams: [`M${pt(-208, 520)}C${pt(-80, 530)} ${pt(80, 530)} ${pt(208, 520)}`, ...pleats],
    stitches: [`M${pt(-370, 1110)}C${pt(-250, 1142)} ${pt(250, 1142)} ${pt(370, 1110)}`],
    folds: [0.29, 0.51, 0.73, 0.95].flatMap((t) => both([208 * t, 540], [L(376 * t - 8, 1150)])),
    shines: [0.1, 0.34, 0.56, 0.78].flatMap((t) => both([208 * t, 540], [L(376 * t, 1150)])),
    logo: { x: view === 'front' ? CX - 120 : CX, y: 478, size: 22 },
    focus: [view === 'front' ? CX - 100 : CX, 560],
  });
}

function drawCap(view: 'front' | 'back'): Drawing {
  // A baseball cap in profile, peak to the right (the back view turns it round).
  const crown = `M${pt(-270, 925)}C${pt(-280, 700)} ${pt(-160, 575)} ${pt(20, 570)}C${pt(190, 566)} ${pt(280, 700)} ${pt(278, 905)}C${pt(100, 935)} ${pt(-80, 942)} ${pt(-270, 925)}Z`;
  const brim = `M${pt(196, 884)}C${pt(320, 858)} ${pt(446, 874)} ${pt(524, 926)}C${pt(534, 936)} ${pt(530, 950)} ${pt(512, 952)}C${pt(420, 936)} ${pt(320, 928)} ${pt(226, 930)}C${pt(210, 918)} ${pt(200, 900)} ${pt(196, 884)}Z`;
  const seams = [
    `M${pt(20, 574)}C${pt(-40, 680)} ${pt(-80, 800)} ${pt(-100, 934)}`,
    `M${pt(20, 574)}C${pt(100, 690)} ${pt(140, 800)} ${pt(152, 926)}`,
    `M${pt(240, 900)}C${pt(330, 890)} ${pt(430, 902)} ${pt(506, 940)}`,
  ];
  const stitches = [
    `M${pt(-262, 900)}C${pt(-80, 918)} ${pt(100, 912)} ${pt(268, 882)}`,
    `M${pt(250, 914)}C${pt(340, 906)} ${pt(430, 916)} ${pt(496, 944)}`,
    `M${pt(8, 600)}C${pt(-50, 700)} ${pt(-86, 810)} ${pt(-112, 926)}`,
  ];
  const flip = (list: string[]) => (view === 'back' ? list.map(mirrorD) : list);
  const strapOpening = `M${pt(-262, 926)}C${pt(-250, 860)} ${pt(-190, 846)} ${pt(-160, 932)}Z`;
  return drawing({
    under: [],
    body: flip([crown])[0]! + flip([brim])[0]!,
    inside: flip([strapOpening]),
    seams: flip(seams),
    stitches: flip(stitches),
    folds: flip([
      `M${pt(-240, 780)}C${pt(-220, 700)} ${pt(-160, 640)} ${pt(-80, 610)}`,
      `M${pt(240, 934)}C${pt(330, 936)} ${pt(420, 944)} ${pt(500, 950)}`,
    ]),
    shines: flip([`M${pt(-120, 680)}C${pt(-60, 630)} ${pt(40, 620)} ${pt(120, 660)}`]),
    extras: (p) =>
      `<ellipse cx="${fmt(CX + (view === 'back' ? -20 : 20))}" cy="572" rx="22" ry="11" fill="${p.base}" stroke="${p.seam}" stroke-width="3"/>` +
      [-120, 150]
        .map(
          (x) =>
            `<circle cx="${fmt(CX + (view === 'back' ? -x : x))}" cy="${x < 0 ? 700 : 708}" r="7" fill="${p.inside}" stroke="${p.seam}" stroke-width="2"/>`,
        )
        .join('') +
      `<rect x="${fmt(CX + (view === 'back' ? 166 : -226))}" y="912" width="60" height="20" rx="5" fill="#b9b5ae" stroke="#8d8983" stroke-width="2"/>`,
    logo: view === 'front' ? { x: CX + 150, y: 790, size: 30, rotate: 4 } : null,
    focus: [CX + (view === 'back' ? -60 : 80), 780],
    scale: 0.92,
  });
}

function drawDuffel(view: 'front' | 'back'): Drawing {
  const body = mirrored(
    [0, 740],
    [L(230, 740), C(330, 740, 380, 830, 380, 960), C(380, 1090, 330, 1190, 230, 1190), L(0, 1190)],
  );
  const handles = [1, -1].map(
    (s) => `M${pt(s * -150, 760)}C${pt(s * -150, 480)} ${pt(s * 150, 480)} ${pt(s * 150, 760)}`,
  );
  return drawing({
    body,
    trim: [
      `M${pt(-300, 1120)}L${pt(300, 1120)}C${pt(280, 1170)} ${pt(260, 1190)} ${pt(230, 1190)}L${pt(-230, 1190)}C${pt(-260, 1190)} ${pt(-280, 1170)} ${pt(-300, 1120)}Z`,
    ],
    seams: [...both([230, 742], [C(180, 830, 180, 1100, 230, 1188)]), `M${pt(-300, 1120)}L${pt(300, 1120)}`],
    stitches: [
      ...both([214, 760], [C(166, 840, 166, 1090, 214, 1172)]),
      `M${pt(-296, 1104)}L${pt(296, 1104)}`,
    ],
    folds: [
      `M${pt(-200, 800)}C${pt(-80, 830)} ${pt(80, 830)} ${pt(200, 800)}`,
      ...both([320, 800], [C(350, 900, 350, 1000, 320, 1120)]),
    ],
    shines: [`M${pt(-180, 860)}C${pt(-60, 880)} ${pt(60, 880)} ${pt(180, 860)}`],
    extras: (p) =>
      handles
        .map(
          (d, i) =>
            `<path d="${d}" stroke="${p.trimSeam}" stroke-width="40" fill="none" stroke-linecap="round" transform="translate(${i === 0 ? 0 : 14} ${i === 0 ? 0 : -10})"/>` +
            `<path d="${d}" stroke="${p.trim}" stroke-width="34" fill="none" stroke-linecap="round" transform="translate(${i === 0 ? 0 : 14} ${i === 0 ? 0 : -10})"/>`,
        )
        .join('') +
      `<path d="M${pt(-200, 764)}L${pt(200, 764)}" stroke="${p.seam}" stroke-width="10" stroke-linecap="round"/>` +
      `<rect x="${fmt(CX + 150)}" y="758" width="18" height="44" rx="6" fill="#bdb9b2"/>` +
      (view === 'front'
        ? `<rect x="${fmt(CX - 110)}" y="900" width="220" height="90" rx="14" fill="${p.trim}" stroke="${p.trimSeam}" stroke-width="3"/>`
        : ''),
    logo: view === 'front' ? { x: CX, y: 952, size: 30 } : { x: CX, y: 980, size: 30 },
    focus: [CX, 900],
    bounds: handles,
    scale: 0.92,
  });
}

function drawBottle(view: 'front' | 'back'): Drawing {
  const body = mirrored(
    [0, 430],
    [
      L(80, 430),
      L(84, 560),
      C(104, 590, 118, 640, 118, 700),
      L(118, 1330),
      C(118, 1372, 100, 1392, 60, 1394),
      L(0, 1394),
    ],
  );
  const cap = `M${pt(-90, 420)}L${pt(90, 420)}L${pt(90, 570)}L${pt(-90, 570)}Z`;
  const loop = `M${pt(-40, 436)}C${pt(-40, 330)} ${pt(40, 330)} ${pt(40, 436)}`;
  return drawing({
    body,
    trim: [cap],
    seams: [`M${pt(-84, 568)}L${pt(84, 568)}`, `M${pt(-118, 1300)}L${pt(118, 1300)}`],
    fine: ribs(-78, 78, 446, 552, 12),
    folds: [line(96, 700, 96, 1360), line(-104, 700, -104, 1360)],
    shines: [line(-58, 700, -58, 1340), line(-52, 450, -52, 550)],
    extras: (p) =>
      `<path d="${loop}" stroke="${p.trimSeam}" stroke-width="20" fill="none"/>` +
      `<path d="${loop}" stroke="${p.trim}" stroke-width="14" fill="none"/>`,
    logo: { x: CX, y: view === 'front' ? 960 : 1100, size: 26, rotate: -90 },
    focus: [CX, 860],
    bounds: [loop],
    scale: 0.84,
  });
}

function drawBeltBag(view: 'front' | 'back'): Drawing {
  const body = mirrored(
    [0, 700],
    [L(160, 700), C(300, 700, 320, 760, 320, 840), C(320, 960, 230, 1000, 120, 1004), L(0, 1004)],
  );
  const straps = [1, -1].map(
    (s) => `M${pt(s * 300, 800)}C${pt(s * 400, 820)} ${pt(s * 450, 960)} ${pt(s * 400, 1180)}`,
  );
  return drawing({
    body,
    seams: [`M${pt(-300, 780)}C${pt(-120, 800)} ${pt(120, 800)} ${pt(300, 780)}`],
    stitches: [`M${pt(-304, 880)}C${pt(-200, 980)} ${pt(200, 980)} ${pt(304, 880)}`],
    folds: [`M${pt(-260, 940)}C${pt(-120, 990)} ${pt(120, 990)} ${pt(260, 940)}`],
    shines: [`M${pt(-200, 740)}C${pt(-80, 730)} ${pt(80, 730)} ${pt(200, 740)}`],
    extras: (p) =>
      straps
        .map(
          (d) =>
            `<path d="${d}" stroke="${p.trimSeam}" stroke-width="46" fill="none" stroke-linecap="round"/><path d="${d}" stroke="${p.trim}" stroke-width="40" fill="none" stroke-linecap="round"/>`,
        )
        .join('') +
      `<rect x="${fmt(CX + 386)}" y="1010" width="72" height="54" rx="10" fill="#2f2f2f" transform="rotate(-12 ${fmt(CX + 422)} 1037)"/>` +
      `<path d="M${pt(-260, 782)}C${pt(-120, 800)} ${pt(120, 800)} ${pt(260, 782)}" stroke="${p.seam}" stroke-width="9" fill="none" stroke-linecap="round"/>` +
      `<rect x="${fmt(CX + 210)}" y="772" width="16" height="40" rx="5" fill="#bdb9b2"/>` +
      (view === 'front'
        ? `<rect x="${fmt(CX - 90)}" y="850" width="180" height="60" rx="10" fill="${p.trim}" stroke="${p.trimSeam}" stroke-width="3"/>`
        : ''),
    logo: { x: CX, y: 880, size: 24 },
    focus: [CX, 860],
    bounds: straps.map((d) =>
      d.replace(
        /(-?\d+(?:\.\d+)?) (-?\d+(?:\.\d+)?)/g,
        (_m, x: string, y: string) => `${x} ${Number(y) + 30}`,
      ),
    ),
    scale: 0.9,
  });
}

function mirrorD(d: string): string {
  // Mirrors an absolute path across the centre line (only M/L/C with absolute pairs are used here).
  return d.replace(
    /(-?\d+(?:\.\d+)?) (-?\d+(?:\.\d+)?)/g,
    (_, x: string, y: string) => `${fmt(2 * CX - Number(x))} ${y}`,
  );
}

function zipper(p: Palette, x: number, y1: number, y2: number): string {
  const tape = p.isDark ? mix(p.base, '#ffffff', 0.1) : mix(p.base, '#000000', 0.18);
  return (
    `<path d="M${fmt(x)} ${y1}L${fmt(x)} ${y2}" stroke="${tape}" stroke-width="16"/>` +
    `<path d="M${fmt(x)} ${y1}L${fmt(x)} ${y2}" stroke="#9f9b95" stroke-width="6" stroke-dasharray="3 4"/>` +
    `<rect x="${fmt(x - 10)}" y="${y1 + 24}" width="20" height="34" rx="5" fill="#c4c0b9" stroke="#8d8983" stroke-width="2"/>` +
    `<rect x="${fmt(x - 6)}" y="${y1 + 52}" width="12" height="46" rx="5" fill="#b4b0a9"/>`
  );
}

// The photo ----------------------------------------------------------------------------------------

/**
 * Renders one demo photo: PNG bytes, DEMO_IMAGE_WIDTH x DEMO_IMAGE_HEIGHT, 3:4 portrait.
 *
 * librsvg draws only what must be crisp: the garment with its seams, trims and word-mark, on a
 * transparent layer. Everything soft is cheaper as pixels: the shadows and the shading (folds,
 * rim, highlights) are drawn as small greyscale masks, blurred and enlarged by sharp; the backdrop
 * gradient, the light fall-off and the fabric grain are computed in one pass over the pixels,
 * which also lays the garment onto the backdrop. (librsvg's own blur filters and full-frame
 * gradients cost seconds per photo at this size.) No randomness: the same spec gives the same bytes.
 */
export async function renderDemoPhoto(spec: DemoImageSpec): Promise<Buffer> {
  const scene = buildScene(spec);
  const [garment, masks] = await Promise.all([renderGarmentLayer(scene), renderMasks(scene)]);
  const rgb = composite(scene, garment, masks);
  return sharp(rgb, { raw: { width: DEMO_IMAGE_WIDTH, height: DEMO_IMAGE_HEIGHT, channels: 3 } })
    .png({ compressionLevel: 2, adaptiveFiltering: false })
    .toBuffer();
}

interface Scene {
  spec: DemoImageSpec;
  palette: Palette;
  drawing: Drawing;
  /** Garment placement: canvas transform that fits the drawing into the frame. */
  transform: string;
  viewBox: { x: number; y: number; w: number; h: number };
  /** 1, or how much closer the close-up is. */
  zoom: number;
}

/** Bounding box of the absolute coordinate pairs in path data (control points included). */
function pathBounds(paths: string[]): { x1: number; y1: number; x2: number; y2: number } {
  let x1 = Infinity;
  let y1 = Infinity;
  let x2 = -Infinity;
  let y2 = -Infinity;
  for (const d of paths) {
    for (const m of d.matchAll(/(-?\d+(?:\.\d+)?) (-?\d+(?:\.\d+)?)/g)) {
      const x = Number(m[1]);
      const y = Number(m[2]);
      x1 = Math.min(x1, x);
      x2 = Math.max(x2, x);
      y1 = Math.min(y1, y);
      y2 = Math.max(y2, y);
    }
  }
  return { x1, y1, x2, y2 };
}

const FRAME = { w: 860, h: 1180, cx: DEMO_IMAGE_WIDTH / 2, cy: 790 };

function buildScene(spec: DemoImageSpec): Scene {
  const W = DEMO_IMAGE_WIDTH;
  const H = DEMO_IMAGE_HEIGHT;
  const drawing = drawGarment(spec.garment, spec.view === 'back' ? 'back' : 'front');
  const b = pathBounds([drawing.body, ...drawing.under, ...drawing.bounds]);
  const fit = Math.min(FRAME.w / (b.x2 - b.x1), FRAME.h / (b.y2 - b.y1)) * drawing.scale;
  const tx = FRAME.cx - ((b.x1 + b.x2) / 2) * fit;
  const ty = FRAME.cy - ((b.y1 + b.y2) / 2) * fit;
  const transform = `matrix(${fit.toFixed(4)} 0 0 ${fit.toFixed(4)} ${tx.toFixed(1)} ${ty.toFixed(1)})`;
  let viewBox = { x: 0, y: 0, w: W, h: H };
  const zoom = spec.view === 'detail' ? 2.3 : 1;
  if (zoom !== 1) {
    // The close-up frames the drawing's focus point.
    const w = W / zoom;
    const h = H / zoom;
    const fx = drawing.focus[0] * fit + tx;
    const fy = drawing.focus[1] * fit + ty;
    viewBox = { x: clamp(fx - w / 2, 0, W - w), y: clamp(fy - h / 2, 0, H - h), w, h };
  }
  return { spec, palette: palette(spec), drawing, transform, viewBox, zoom };
}

function clamp(v: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, v));
}

function escapeXml(s: string): string {
  return s.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

function svgOpen(scene: Scene, width: number, height: number): string {
  const vb = scene.viewBox;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="${fmt(vb.x)} ${fmt(vb.y)} ${fmt(vb.w)} ${fmt(vb.h)}">`;
}

/** The garment on a transparent layer, full size: straight (not premultiplied) RGBA bytes. */
async function renderGarmentLayer(scene: Scene): Promise<Buffer> {
  const { spec, palette: p, drawing: d, transform } = scene;
  const strokes = (list: string[], attrs: string) => list.map((s) => `<path d="${s}" ${attrs}/>`).join('');
  const logo = d.logo
    ? `<text x="${d.logo.x}" y="${d.logo.y}" font-family="Inter, 'Helvetica Neue', Helvetica, Arial, 'Liberation Sans', 'DejaVu Sans', sans-serif" font-size="${d.logo.size}" font-weight="700" letter-spacing="${(d.logo.size * 0.22).toFixed(1)}" text-anchor="middle" dominant-baseline="middle" fill="${p.logo}" fill-opacity=".88"${d.logo.rotate ? ` transform="rotate(${d.logo.rotate} ${d.logo.x} ${d.logo.y})"` : ''}>${escapeXml(spec.brand.toUpperCase())}</text>`
    : '';
  const svg = `${svgOpen(scene, DEMO_IMAGE_WIDTH, DEMO_IMAGE_HEIGHT)}
<defs><clipPath id="clip">${[...d.under, d.body].map((s) => `<path d="${s}"/>`).join('')}</clipPath></defs>
<g transform="${transform}">
  ${d.under.map((s) => `<path d="${s}" fill="${mix(p.base, '#000000', 0.1)}"/>`).join('')}
  <path d="${d.body}" fill="${p.base}"/>
  <g clip-path="url(#clip)">
    ${d.trim.map((s) => `<path d="${s}" fill="${p.trim}"/>`).join('')}
    ${d.inside.map((s) => `<path d="${s}" fill="${p.inside}"/>`).join('')}
  </g>
  <g fill="none" stroke-linecap="round">
    ${strokes(d.fine, `stroke="${p.seam}" stroke-width="2" stroke-opacity=".45"`)}
    ${strokes(d.seams, `stroke="${p.seam}" stroke-width="3.2" stroke-opacity=".9"`)}
    ${strokes(d.stitches, `stroke="${p.stitch}" stroke-width="2.2" stroke-dasharray="7 6" stroke-opacity=".9"`)}
  </g>
  ${d.extras(p)}
  ${logo}
  <path d="${[...d.under, d.body].join('')}" fill="none" stroke="${p.seam}" stroke-width="2" stroke-opacity=".45"/>
</g>
</svg>`;
  return sharp(Buffer.from(svg)).ensureAlpha().raw().toBuffer();
}

/** Mask resolution: a quarter of the photo; blur sigmas below are in photo pixels. */
const MASK_W = DEMO_IMAGE_WIDTH / 4;
const MASK_H = DEMO_IMAGE_HEIGHT / 4;

/**
 * The soft masks at full size, interleaved per pixel (0..255 each): the drop and contact shadow,
 * the dark shading (folds and the garment's rim) and the highlights.
 */
interface Masks {
  big: Buffer;
}

async function renderMasks(scene: Scene): Promise<Masks> {
  const { drawing: d, palette: p } = scene;
  const shapes = [...d.under, d.body];
  const fill = (opacity: number, dx: number, dy: number) =>
    `<g fill="#fff" fill-opacity="${opacity}" transform="translate(${dx} ${dy})">${shapes.map((s) => `<path d="${s}"/>`).join('')}</g>`;
  const stroke = (list: string[], opacity: number, width: number) =>
    list
      .map(
        (s) =>
          `<path d="${s}" fill="none" stroke="#fff" stroke-opacity="${opacity}" stroke-width="${width}" stroke-linecap="round"/>`,
      )
      .join('');
  const [soft, contact, dark, light] = await Promise.all([
    lowResMask(scene, fill(1, 8, 24), 18),
    lowResMask(scene, fill(1, 1, 5), 4),
    lowResMask(scene, stroke(d.folds, p.isDark ? 0.5 : 0.36, 28) + stroke(shapes, 1, 34), 11),
    lowResMask(scene, stroke(d.shines, 1, 36), 14),
  ]);
  // One 3-channel image (shadow, dark, light) enlarged in one go; the shadow channel combines
  // the soft drop shadow with the tighter contact shadow.
  const n = MASK_W * MASK_H;
  const small = Buffer.alloc(n * 3);
  for (let i = 0; i < n; i++) {
    small[i * 3] = Math.min(255, Math.round(soft[i]! * 0.55 + contact[i]! * 0.5));
    small[i * 3 + 1] = dark[i]!;
    small[i * 3 + 2] = light[i]!;
  }
  const big = await sharp(small, { raw: { width: MASK_W, height: MASK_H, channels: 3 } })
    .resize(DEMO_IMAGE_WIDTH, DEMO_IMAGE_HEIGHT, { kernel: 'cubic' })
    .raw()
    .toBuffer();
  return { big };
}

/**
 * White-on-black content in the scene's coordinates, rendered at mask size and blurred: one byte
 * per pixel. The blur is given in photo pixels at normal distance and grows with the close-up.
 */
async function lowResMask(scene: Scene, content: string, sigmaPhotoPx: number): Promise<Buffer> {
  const { x, y, w, h } = scene.viewBox;
  const svg = `${svgOpen(scene, MASK_W, MASK_H)}<rect x="${fmt(x)}" y="${fmt(y)}" width="${fmt(w)}" height="${fmt(h)}" fill="#000"/><g transform="${scene.transform}">${content}</g></svg>`;
  return sharp(Buffer.from(svg))
    .blur(Math.max(0.3, (sigmaPhotoPx * scene.zoom * MASK_W) / DEMO_IMAGE_WIDTH))
    .extractChannel(0)
    .raw()
    .toBuffer();
}

const SHADOW_RGB: Rgb = [58, 44, 32];

/** Backdrop, shadows, garment with its shading, light fall-off and grain: packed RGB bytes. */
function composite(scene: Scene, garment: Buffer, masks: Masks): Buffer {
  const W = DEMO_IMAGE_WIDTH;
  const H = DEMO_IMAGE_HEIGHT;
  const { spec, palette: p, viewBox: vb } = scene;
  const bd = BACKDROPS[spec.backdrop];
  const top = parseHex(bd.top);
  const bottom = parseHex(bd.bottom);
  const kDark = p.isDark ? 0.6 : 0.3;
  const kLight = p.isDark ? 0.1 : 0.2;
  const lightHi = p.isDark ? 0.1 : 0.14;
  const lightLo = p.isDark ? 0.22 : 0.14;
  const grain = spec.heather ? 26 : p.isDark ? 7 : 5;
  // Light direction (canvas units): from upper left to lower right.
  const lx0 = W * 0.25;
  const ly0 = H * 0.2;
  const ldx = W * 0.55;
  const ldy = H * 0.55;
  const lLen2 = ldx * ldx + ldy * ldy;
  const glowX = W / 2;
  const glowY = H * 0.38;
  const glowR = H * 0.55;
  const vigR = H * 0.62;
  const sx = vb.w / W;
  const sy = vb.h / H;
  const out = Buffer.alloc(W * H * 3);
  for (let py = 0; py < H; py++) {
    const cy = vb.y + (py + 0.5) * sy;
    const ty = cy / H;
    const br = top[0] + (bottom[0] - top[0]) * ty;
    const bgc = top[1] + (bottom[1] - top[1]) * ty;
    const bb = top[2] + (bottom[2] - top[2]) * ty;
    for (let px = 0; px < W; px++) {
      const i = py * W + px;
      const cx = vb.x + (px + 0.5) * sx;
      // backdrop: vertical gradient, a soft glow behind the garment, a faint vignette
      const gdx = cx - glowX;
      const gdy = cy - glowY;
      const gd = Math.sqrt(gdx * gdx + gdy * gdy) / glowR;
      const glow = gd < 1 ? 0.6 * (1 - gd) : 0;
      const vdx = cx - W / 2;
      const vdy = cy - H / 2;
      const vd = Math.sqrt(vdx * vdx + vdy * vdy) / vigR;
      const vig = vd > 0.62 ? Math.min(1, (vd - 0.62) / 0.38) * 0.08 : 0;
      let r = (br + (255 - br) * glow) * (1 - vig);
      let g = (bgc + (255 - bgc) * glow) * (1 - vig);
      let b = (bb + (255 - bb) * glow) * (1 - vig);
      const sh = (masks.big[i * 3]! / 255) * 0.55;
      r += (SHADOW_RGB[0] - r) * sh;
      g += (SHADOW_RGB[1] - g) * sh;
      b += (SHADOW_RGB[2] - b) * sh;
      const a = garment[i * 4 + 3]! / 255;
      if (a > 0) {
        let gr = garment[i * 4]!;
        let gg = garment[i * 4 + 1]!;
        let gb = garment[i * 4 + 2]!;
        // light fall-off across the garment
        const t = ((cx - lx0) * ldx + (cy - ly0) * ldy) / lLen2;
        if (t < 0.5) {
          const w = lightHi * (1 - Math.max(0, t) / 0.5);
          gr += (255 - gr) * w;
          gg += (255 - gg) * w;
          gb += (255 - gb) * w;
        } else {
          const w = 1 - lightLo * Math.min(1, (t - 0.5) / 0.5);
          gr *= w;
          gg *= w;
          gb *= w;
        }
        const dk = 1 - (kDark * masks.big[i * 3 + 1]!) / 255;
        gr *= dk;
        gg *= dk;
        gb *= dk;
        const lt = (kLight * masks.big[i * 3 + 2]!) / 255;
        gr += (255 - gr) * lt;
        gg += (255 - gg) * lt;
        gb += (255 - gb) * lt;
        // fabric grain: a hash of the pixel, centred on zero
        let hsh = Math.imul(px, 374761393) ^ Math.imul(py, 668265263);
        hsh = Math.imul(hsh ^ (hsh >>> 13), 1274126177);
        const n = (((hsh ^ (hsh >>> 16)) & 255) / 255 - 0.5) * grain;
        gr += n;
        gg += n;
        gb += n;
        r = gr * a + r * (1 - a);
        g = gg * a + g * (1 - a);
        b = gb * a + b * (1 - a);
      }
      out[i * 3] = r < 0 ? 0 : r > 255 ? 255 : r;
      out[i * 3 + 1] = g < 0 ? 0 : g > 255 ? 255 : g;
      out[i * 3 + 2] = b < 0 ? 0 : b > 255 ? 255 : b;
    }
  }
  return out;
}
