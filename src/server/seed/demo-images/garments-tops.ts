import {
  C,
  CX,
  L,
  both,
  drawing,
  fmt,
  mirrored,
  open,
  pt,
  ribs,
  zipper,
  type Drawing,
  type Pt,
  type Seg,
} from './paths';

/**
 * Garment drawings: bras, tanks, tops, hoodies.
 */

export function drawBra(view: 'front' | 'back', back: 'racer' | 'scoop'): Drawing {
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

export function drawTank(view: 'front' | 'back', cut: 'womens' | 'mens'): Drawing {
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

export function drawTop(view: 'front' | 'back', sleeves: 'short' | 'long'): Drawing {
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

export function drawHoodie(view: 'front' | 'back', zip: boolean): Drawing {
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
