import { C, CX, L, both, drawing, fmt, mirrored, pt, ribs, zipper, type Drawing, type Seg } from './paths';

/**
 * Garment drawings: jackets and dresses.
 */

export function drawJacket(view: 'front' | 'back', fit: 'womens' | 'mens'): Drawing {
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

export function drawDress(view: 'front' | 'back'): Drawing {
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
