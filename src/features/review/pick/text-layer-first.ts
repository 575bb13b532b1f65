/**
 * A page's words from the PDF's text layer read here, in the browser, with the review's own pdf.js
 * document (the one the viewer draws from: nothing downloaded, nothing opened twice); the source
 * given (the app server's reader) only for what has no text layer: a scanned page, which it OCRs
 * once and keeps, and pictures; and, for a text page that paints pictures, for the words the server
 * reads in them (a name printed in a logo: issue 21), added to the text layer's. A text PDF's words then cost no request and no pdf.js on the
 * server (whose first document in a process costs over a second).
 */
import { useMemo } from 'react';
import { detectDocumentKind } from '../viewer/document-kind';
import type { PageWordsSource } from './pick-context';
import { pdfTextWords, type CharWidth } from './pdf-text-words';
import type { WordInput } from './pick-words';

export interface ReviewFile {
  file: Blob;
  mimeType: string | null;
}

/** `fallback`'s words, except a PDF page with a text layer, read here. Cached under `fallback`'s key. */
export function textLayerFirst(document: ReviewFile, fallback: PageWordsSource): PageWordsSource {
  return {
    key: fallback.key,
    turn: fallback.turn,
    read: async (page, signal) => {
      const kind = await detectDocumentKind(document.file, document.mimeType ?? undefined);
      if (kind.kind === 'pdf') {
        const { words, pictures } = await pdfPageWords(document.file, page);
        signal.throwIfAborted();
        if (words.length > 0)
          return pictures ? [...words, ...(await pictureWords(fallback, page, signal))] : words;
      }
      return fallback.read(page, signal);
    },
  };
}

/** `textLayerFirst` for a review's document, one per document and source. */
export function useTextLayerFirst(
  document: ReviewFile | null,
  fallback: PageWordsSource | undefined,
): PageWordsSource | null {
  const file = document?.file;
  const mimeType = document?.mimeType ?? null;
  return useMemo(
    () => (fallback && file ? textLayerFirst({ file, mimeType }, fallback) : (fallback ?? null)),
    [file, mimeType, fallback],
  );
}

/**
 * The text layer's words of page `page` (0-based) of a PDF, through the viewer's open document, and
 * whether the page paints pictures (whose printed words the text layer lacks: a name in a logo).
 */
async function pdfPageWords(file: Blob, page: number): Promise<{ words: WordInput[]; pictures: boolean }> {
  // pdf.js comes with the viewer (a lazy chunk): by the time a page is picked on, it is loaded.
  const { holdPdf, paintsPictures } = await import('../viewer/pdf-open');
  const held = holdPdf(file);
  try {
    const { pdf } = await held.opened;
    const proxy = await pdf.getPage(page + 1);
    const content = await proxy.getTextContent();
    const words = pdfTextWords(content, proxy.getViewport({ scale: 1 }), browserCharWidth());
    return { words, pictures: words.length > 0 && (await paintsPictures(proxy)) };
  } finally {
    held.release();
  }
}

/**
 * What the app server reads in a text page's pictures (it OCRs their regions once and keeps them): the
 * words it marks `inPicture`, beside ours from the text layer. None when it cannot say: the text
 * layer's words still stand (a name in a logo is then flagged as before, never the whole page lost).
 */
async function pictureWords(
  source: PageWordsSource,
  page: number,
  signal: AbortSignal,
): Promise<WordInput[]> {
  try {
    return (await source.read(page, signal)).filter((w) => w.inPicture === true);
  } catch {
    signal.throwIfAborted();
    return [];
  }
}

let measure: CharWidth | null | undefined;

/**
 * A character's width in a font family as this browser draws it (pdf.js names the family a run's
 * font falls back to: `sans-serif`, `serif`, `monospace`); undefined where there is no canvas.
 */
function browserCharWidth(): CharWidth | undefined {
  if (measure === undefined) {
    const context = typeof OffscreenCanvas === 'function' ? new OffscreenCanvas(1, 1).getContext('2d') : null;
    const widths = new Map<string, number>();
    measure = context
      ? (char, family) => {
          const key = `${family}\u0000${char}`;
          let width = widths.get(key);
          if (width === undefined) {
            context.font = `100px ${family}`;
            width = context.measureText(char).width;
            widths.set(key, width);
          }
          return width;
        }
      : null;
  }
  return measure ?? undefined;
}
