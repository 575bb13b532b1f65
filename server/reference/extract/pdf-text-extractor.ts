/**
 * Words with positions from a PDF's text layer, with pdf.js (legacy build, for Node).
 *
 * Boxes go through the page viewport, so `/Rotate` and the CropBox are honoured and the result is in
 * the frame the API wants (upright page, origin top-left). A page without a text layer comes back with
 * no words: deciding what that means (fail now, OCR later) is the caller's business.
 */
import './node20-polyfills';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as PdfJsModule from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { PDFPageProxy, TextItem, TextStyle } from 'pdfjs-dist/types/src/display/api';
import { ProblemError } from '../../shared/problem';
import type { DocumentText, Extractor, PageText, StoredFile, Word } from './extractor';
import { glyphWidthsOf } from './font-glyph-widths';
import { boxAroundPoints, runStretchCorners, type Point } from './geometry';
import { splitRun, type GlyphWidthOf } from './split-run';

type PdfJs = typeof PdfJsModule;

// Loaded on first use: pdf.js (and its in-process "fake worker") costs ~0.5 s to load.
let pdfjsModule: Promise<PdfJs> | undefined;
const loadPdfJs = (): Promise<PdfJs> => (pdfjsModule ??= import('pdfjs-dist/legacy/build/pdf.mjs'));

const pdfjsDir = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
// pdf.js in Node reads these from disk; the trailing slash is required.
const assetDir = (name: string): string => `${path.join(pdfjsDir, name)}${path.sep}`;

/** Typical Latin ascent/descent (fractions of the font size) when a font reports none that is sane. */
const DEFAULT_ASCENT = 0.8;
const DEFAULT_DESCENT = -0.2;

export class PdfTextExtractor implements Extractor {
  accepts(mimeType: string): boolean {
    return mimeType === 'application/pdf';
  }

  async extract(file: StoredFile, signal?: AbortSignal): Promise<DocumentText> {
    return readPdfText(new Uint8Array(await readFile(file.path, { signal })), signal);
  }

  /** pdf.js's first document in a process costs ~1.5 s (module and in-process worker set-up). */
  async warmUp(): Promise<void> {
    await readPdfText(new TextEncoder().encode(TINY_PDF));
  }
}

/** The smallest PDF pdf.js opens without complaint (it rebuilds the missing cross-reference table). */
const TINY_PDF =
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
  '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 10 10]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n';

/**
 * The text layer of every page (a page without one comes back with no words). pdf.js takes ownership
 * of `data`: pass a copy if the caller still needs it.
 */
export async function readPdfText(data: Uint8Array, signal?: AbortSignal): Promise<DocumentText> {
  const pdfjs = await loadPdfJs();
  const task = pdfjs.getDocument({
    data,
    cMapUrl: assetDir('cmaps'),
    cMapPacked: true,
    standardFontDataUrl: assetDir('standard_fonts'),
    wasmUrl: assetDir('wasm'),
    iccUrl: assetDir('iccs'),
    // Exposes glyph widths on the font objects (font-glyph-widths.ts).
    fontExtraProperties: true,
    verbosity: 0,
  });
  try {
    const doc = await task.promise.catch((error: unknown) => {
      throw unreadable(error);
    });
    const pages: PageText[] = [];
    for (let pageNumber = 1; pageNumber <= doc.numPages; pageNumber++) {
      signal?.throwIfAborted();
      pages.push(await readPage(await doc.getPage(pageNumber)));
    }
    return { pageCount: doc.numPages, pages };
  } finally {
    // pdf.js 6 has no PDFDocumentProxy.destroy(); destroying the task frees the document.
    await task.destroy();
  }
}

function unreadable(error: unknown): ProblemError {
  const name = error instanceof Error ? error.name : '';
  const message = error instanceof Error ? error.message : String(error);
  if (name === 'PasswordException') {
    return new ProblemError('422-003', 'The PDF is password-protected; send it without a password.', {
      cause: error,
    });
  }
  return new ProblemError('422-003', `The PDF could not be read: ${message}`, { cause: error });
}

async function readPage(page: PDFPageProxy): Promise<PageText> {
  const viewport = page.getViewport({ scale: 1 });
  const base = {
    index: page.pageNumber - 1,
    width: viewport.width,
    height: viewport.height,
    source: 'text-layer' as const,
  };
  const content = await page.getTextContent();
  const runs = content.items.filter(
    (item): item is TextItem => 'str' in item && item.str.trim() !== '' && item.width > 0,
  );
  if (runs.length === 0) {
    page.cleanup();
    return { ...base, words: [] };
  }
  // Loads the page's fonts into commonObjs, where their glyph widths can be read.
  await page.getOperatorList();
  const widthsByFont = new Map<string, GlyphWidthOf | undefined>();
  const widthsOf = (fontName: string): GlyphWidthOf | undefined => {
    if (!widthsByFont.has(fontName)) {
      const font: unknown = page.commonObjs.has(fontName) ? page.commonObjs.get(fontName) : undefined;
      widthsByFont.set(fontName, glyphWidthsOf(font));
    }
    return widthsByFont.get(fontName);
  };

  const words: Word[] = [];
  for (const run of runs) {
    const [ascent, descent] = verticalMetrics(content.styles[run.fontName]);
    const transform = run.transform.map(Number);
    for (const word of splitRun(run.str, widthsOf(run.fontName))) {
      const corners = runStretchCorners(transform, run.width, word.start, word.end, ascent, descent).map(
        ([x, y]): Point => {
          const [vx = 0, vy = 0] = viewport.convertToViewportPoint(x, y).map(Number);
          return [vx, vy];
        },
      );
      // The text layer states its text: nothing is uncertain about reading it.
      words.push({
        text: word.text,
        box: boxAroundPoints(corners, viewport.width, viewport.height),
        confidence: 1,
      });
    }
  }
  page.cleanup();
  return { ...base, words };
}

function verticalMetrics(style: TextStyle | undefined): [number, number] {
  const ascent = style && style.ascent > 0 && style.ascent <= 1.5 ? style.ascent : DEFAULT_ASCENT;
  const descent = style && style.descent < 0 && style.descent >= -1 ? style.descent : DEFAULT_DESCENT;
  return [ascent, descent];
}
