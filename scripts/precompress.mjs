// Brotli copies of the built web app's text assets (dist/web/client/**/*.{js,css,svg,json,txt,webmanifest}),
// written next to them as <file>.br at the highest quality. The server sends the .br file to any
// browser that accepts brotli (serveStatic's `precompressed`), gzip on the fly to the others.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants } from 'node:zlib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const webDir = path.join(root, 'dist', 'web', 'client');
const TEXT = /\.(js|css|svg|json|txt|webmanifest)$/;

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (TEXT.test(entry.name)) yield full;
  }
}

let count = 0;
let before = 0;
let after = 0;
for (const file of files(webDir)) {
  const body = readFileSync(file);
  if (body.length < 1024) continue; // not worth a second request path
  const br = brotliCompressSync(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: statSync(file).size,
    },
  });
  writeFileSync(`${file}.br`, br);
  count++;
  before += body.length;
  after += br.length;
}
console.log(`brotli: ${count} files, ${(before / 1024).toFixed(0)} KB -> ${(after / 1024).toFixed(0)} KB`);
