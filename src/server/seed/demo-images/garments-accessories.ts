import { C, CX, L, drawing, fmt, line, mirrorD, mirrored, both, pt, ribs, type Drawing } from './paths';

/**
 * Garment drawings: caps, duffels, bottles, belt bags.
 */

export function drawCap(view: 'front' | 'back'): Drawing {
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

export function drawDuffel(view: 'front' | 'back'): Drawing {
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

export function drawBottle(view: 'front' | 'back'): Drawing {
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

export function drawBeltBag(view: 'front' | 'back'): Drawing {
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
