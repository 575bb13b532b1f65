/**
 * A page's words from the PDF's text layer read here, in the browser, with the review's own pdf.js
 * document (the one the viewer draws from: nothing downloaded, nothing opened twice); the source
 * given (the app server's reader) only for what has no text layer: a scanned page, which it OCRs
 * once and keeps, and pictures. A text PDF's words then cost no request and no pdf.js on the
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
    read: async (page, signal) => {
      const kind = await detectDocumentKind(document.file, document.mimeType ?? undefined);
      if (kind.kind === 'pdf') {
        const words = await pdfPageWords(document.file, page);
        signal.throwIfAborted();
        if (words.length > 0) return words;
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

/** The text layer's words of page `page` (0-based) of a PDF, through the viewer's open document. */
async function pdfPageWords(file: Blob, page: number): Promise<WordInput[]> {
  // pdf.js comes with the viewer (a lazy chunk): by the time a page is picked on, it is loaded.
  const { holdPdf } = await import('../viewer/pdf-open');
  const held = holdPdf(file);
  try {
    const { pdf } = await held.opened;
    const proxy = await pdf.getPage(page + 1);
    const content = await proxy.getTextContent();
    return pdfTextWords(content, proxy.getViewport({ scale: 1 }), browserCharWidth());
  } finally {
    held.release();
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
