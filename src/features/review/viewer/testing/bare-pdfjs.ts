/**
 * Bench baseline (bench/viewer-bare-pdfjs.html): pdf.js alone, with none of the app around it, in
 * the same browser and from the same origin as the app.
 * - `?file=<url>&width=<css px>`: fetch the PDF and draw its first page at that width; the
 *   `bare:drawn` mark tells when.
 * - `&pages=all`: then draw every page, each into a canvas of its own, one after another, as a
 *   viewer without windowing would (`data-all-drawn` on <body> when done).
 */
import * as pdfjs from 'pdfjs-dist';

pdfjs.GlobalWorkerOptions.workerSrc = new URL(
  'pdfjs-dist/build/pdf.worker.min.mjs',
  import.meta.url,
).toString();

const params = new URLSearchParams(location.search);
const width = Number(params.get('width') ?? 800);

async function draw(doc: pdfjs.PDFDocumentProxy, n: number): Promise<void> {
  const page = await doc.getPage(n);
  const viewport = page.getViewport({ scale: width / page.getViewport({ scale: 1 }).width });
  const ratio = window.devicePixelRatio || 1;
  const canvas = document.createElement('canvas');
  canvas.width = Math.floor(viewport.width * ratio);
  canvas.height = Math.floor(viewport.height * ratio);
  canvas.style.width = `${Math.floor(viewport.width)}px`;
  canvas.style.height = `${Math.floor(viewport.height)}px`;
  canvas.style.display = 'block';
  document.body.append(canvas);
  const context = canvas.getContext('2d', { alpha: false });
  if (!context) throw new Error('No 2D canvas');
  const scaled = page.getViewport({ scale: viewport.scale * ratio });
  await page.render({ canvas, canvasContext: context, viewport: scaled }).promise;
}

async function main(): Promise<void> {
  // eslint-disable-next-line no-restricted-globals
  const data = await (await fetch(params.get('file') ?? '')).arrayBuffer();
  const doc = await pdfjs.getDocument({
    data,
    cMapUrl: '/pdfjs/cmaps/',
    standardFontDataUrl: '/pdfjs/standard_fonts/',
    wasmUrl: '/pdfjs/wasm/',
    iccUrl: '/pdfjs/iccs/',
  }).promise;
  await draw(doc, 1);
  performance.mark('bare:drawn');
  document.body.dataset.drawn = 'true';
  if (params.get('pages') === 'all') {
    for (let n = 2; n <= doc.numPages; n++) await draw(doc, n);
    document.body.dataset.allDrawn = 'true';
  }
}

void main();
