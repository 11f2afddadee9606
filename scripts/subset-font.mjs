// `node scripts/subset-font.mjs`: writes src/web/app/fonts/inter-core-wght-normal.woff2 and the
// character ranges of inter-core.css, the face every page uses first (decision 011). It is Inter's
// latin face (@fontsource-variable/inter) cut to the characters the shop writes (printable ASCII,
// Latin-1 and the punctuation, currency and arrows below) and to the weights it uses (400-700 of
// the 100-900 axis): 28 KB instead of 48 KB on every first visit's critical path. The full latin
// face stays declared before it with the same descriptors, so a character this one lacks (a Latin
// Extended letter in a product title) still renders in Inter: the browser tries the faces of a
// family from the last declared, and loads the full face only when a page needs such a character.
// Run it again after upgrading @fontsource-variable/inter; commit both files.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import subsetFont from 'subset-font';
import { root } from './ensure-build.mjs';

const require = createRequire(import.meta.url);
const source = require.resolve('@fontsource-variable/inter/files/inter-latin-wght-normal.woff2');

/** Inclusive code point ranges: ASCII, Latin-1, General Punctuation, euro, trade mark, arrows, minus. */
const CORE_RANGES = [
  [0x20, 0x7e],
  [0xa0, 0xff],
  [0x2000, 0x206f],
  [0x20ac, 0x20ac],
  [0x2122, 0x2122],
  [0x2190, 0x2193],
  [0x2212, 0x2212],
];

const hex = (n) => n.toString(16).toUpperCase().padStart(4, '0');
const text = CORE_RANGES.flatMap(([from, to]) =>
  Array.from({ length: to - from + 1 }, (_, i) => String.fromCodePoint(from + i)),
).join('');

const font = await subsetFont(readFileSync(source), text, {
  targetFormat: 'woff2',
  variationAxes: { wght: { min: 400, max: 700 } },
});
const outDir = path.join(root, 'src/web/app/fonts');
writeFileSync(path.join(outDir, 'inter-core-wght-normal.woff2'), font);
const range = CORE_RANGES.map(([from, to]) =>
  from === to ? `U+${hex(from)}` : `U+${hex(from)}-${hex(to)}`,
).join(', ');
// The face's other descriptors live in inter-core.css itself; only its character ranges follow CORE_RANGES.
const cssFile = path.join(outDir, 'inter-core.css');
const css = readFileSync(cssFile, 'utf8');
if (!/unicode-range: [^;]*;/.test(css)) throw new Error(`${cssFile} has no unicode-range to update`);
writeFileSync(
  cssFile,
  css.replace(/unicode-range: [^;]*;/, () => `unicode-range: ${range};`),
);
console.log(`inter-core-wght-normal.woff2: ${font.length} bytes (from ${readFileSync(source).length})`);
