import {
  C,
  CX,
  L,
  both,
  drawing,
  fmt,
  line,
  mirrored,
  noExtras,
  pt,
  ribs,
  type Drawing,
  type Seg,
} from './paths';

/**
 * Garment drawings: leggings, pants, shorts, skirts.
 */

export function drawLeggings(view: 'front' | 'back', length: 'full' | 'crop'): Drawing {
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

export function drawPants(view: 'front' | 'back', style: 'jogger' | 'straight' | 'flare'): Drawing {
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

export function drawShorts(view: 'front' | 'back', length: 'short' | 'mid' | 'bike'): Drawing {
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

export function drawSkirt(view: 'front' | 'back'): Drawing {
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
