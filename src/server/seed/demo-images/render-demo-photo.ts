import sharp from 'sharp';
import { DEMO_IMAGE_HEIGHT, DEMO_IMAGE_WIDTH, type DemoImageSpec } from './demo-image-spec';
import { BACKDROPS, mix, palette, parseHex, type Palette, type Rgb } from './palette';
import { fmt, type Drawing } from './paths';
import { drawGarment } from './draw-garment';

/**
 * Demo product photos drawn locally (no downloads): an SVG "flat lay" of a stylised garment on a
 * soft studio backdrop, rendered to PNG by sharp. Everything is a pure function of the spec, so the
 * same product always gets the same pictures.
 */

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
