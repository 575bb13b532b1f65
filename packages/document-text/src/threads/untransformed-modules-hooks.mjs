// Module hooks for worker threads started through tsx (worker-bootstrap.mjs: test workers): pdf.js's
// own ES modules are loaded as they are, not through tsx, with one bug fixed. The extraction and
// inspection threads run without tsx (packages/document-text/src/threads/worker-entries.ts) and load
// copies of pdf.js made with the same two functions below.
//
// Untransformed: tsx rewrites every ES module that has a dynamic import() (pdf.js has, to load its
// worker module) and attaches a word-level source map: for pdf.js's 3.4 MB of JavaScript that cost
// ~300 MB of memory per thread (measured: a thread that opened one PDF peaked at ~500 MB of resident
// memory, ~175 MB without it). pdf.js is plain JavaScript for Node and needs no transform.
import { readFile } from 'node:fs/promises';
import { URL } from 'node:url';

const PDFJS_MODULE = /\/node_modules\/pdfjs-dist\/.+\.mjs$/;

/**
 * pdf.js 6.3's convertRGBToRGBA, when drawing an RGB image in 16-row chunks (Node has no
 * OffscreenCanvas, so every RGB image of a scanned page goes this way), starts its tail loop at
 * `i * 4` instead of `srcPos + i * 4`: chunk k loops over k chunks' worth of bytes, so an image costs
 * time quadratic in its height (0.5 s of a 0.6–0.9 s render for a 1600 × 2065 scan) and the few pixels
 * the tail loop handles come from the first chunk. Fixed here until pdf.js is; a file without the
 * pattern is served unchanged (pdfjs-patch.test.ts says when the pattern has gone).
 */
const RGB_TAIL_LOOP = 'for (let j = i * 4, jj = srcPos + len; j < jj; j += 3) {';
const RGB_TAIL_LOOP_FIXED = 'for (let j = srcPos + i * 4, jj = srcPos + len; j < jj; j += 3) {';

export function patchPdfJs(source) {
  return source.replaceAll(RGB_TAIL_LOOP, RGB_TAIL_LOOP_FIXED);
}

/**
 * tsx turns source maps on in every thread (process.setSourceMapsEnabled), and Node then reads and
 * keeps the map a module names: pdf.js's (pdf.mjs.map, pdf.worker.mjs.map: 7.9 MB of JSON) cost ~40–45 MB
 * of resident memory per thread (bench/reference-thread-memory.ts). Its stack traces are not worth it.
 */
const SOURCE_MAP_COMMENT = /\n\/\/# sourceMappingURL=[^\n]*\s*$/;

export function withoutSourceMap(source) {
  return source.replace(SOURCE_MAP_COMMENT, '\n');
}

export async function load(url, context, nextLoad) {
  if (url.startsWith('file:') && PDFJS_MODULE.test(new URL(url).pathname)) {
    const source = withoutSourceMap(patchPdfJs(await readFile(new URL(url), 'utf8')));
    return { format: 'module', source, shortCircuit: true };
  }
  return nextLoad(url, context);
}
