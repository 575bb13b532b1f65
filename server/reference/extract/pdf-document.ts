/**
 * PDFs through MuPDF (WASM): opening with repair, the password check, the page count and rendering
 * pages for OCR. MuPDF is the authority on "can this PDF be read, and how many pages": it repairs what
 * can be repaired (junk before the header, a broken cross-reference table) the way viewers do. pdf.js
 * still reads the text layer (pdf-text-extractor.ts), whose word boxes are measured with glyph widths.
 *
 * A rendered page is the page as a viewer shows it: MuPDF applies `/Rotate` and the CropBox, so a
 * rendered page and pdf.js's viewport are the same frame.
 */
import type * as MupdfModule from 'mupdf';
import { ProblemError } from '../../shared/problem';
import type { GreyImage } from './ocr/grey-image';

type Mupdf = typeof MupdfModule;

let mupdfModule: Promise<Mupdf> | undefined;

/** MuPDF's WASM module, loaded on first use (~0.1 s). Its warnings (repairs) are not printed. */
export function loadMupdf(): Promise<Mupdf> {
  mupdfModule ??= import('mupdf').then((mupdf) => {
    mupdf.setLog({ warning: () => undefined, error: () => undefined });
    return mupdf;
  });
  return mupdfModule;
}

/** Scanned pages are rendered at this resolution for OCR (see docs/reference-documents.md). */
export const OCR_RENDER_DPI = 200;

export interface PdfPageSize {
  /** In points, of the page as displayed (after /Rotate and CropBox). */
  width: number;
  height: number;
}

export interface OpenedPdf {
  pageCount: number;
  /** MuPDF had to rebuild the file's structure (junk before the header, a broken xref). */
  repaired: boolean;
  pageSize(index: number): PdfPageSize;
  /** The page as displayed, in grey, at `dpi`. */
  renderPage(index: number, dpi: number): GreyImage;
  /** Frees MuPDF's memory for this document. */
  close(): void;
}

/**
 * Opens a PDF, or throws a `422-003` saying what is wrong: damaged beyond repair, encrypted with a
 * password (an encrypted PDF that opens without one, like most "owner-password" PDFs, is fine), or
 * without pages.
 */
export async function openPdf(data: Uint8Array): Promise<OpenedPdf> {
  const mupdf = await loadMupdf();
  let doc: MupdfModule.Document;
  let pageCount: number;
  try {
    doc = mupdf.Document.openDocument(data, 'application/pdf');
  } catch (error) {
    throw damaged(error);
  }
  try {
    if (doc.needsPassword()) {
      throw new ProblemError(
        '422-003',
        'The PDF is encrypted (password-protected): send it without its password.',
      );
    }
    pageCount = doc.countPages();
    if (pageCount === 0) throw new ProblemError('422-003', 'The PDF has no pages.');
  } catch (error) {
    doc.destroy();
    throw damaged(error);
  }
  const pdf = doc.asPDF();
  const repaired = pdf?.wasRepaired() ?? false;

  const withPage = <T>(index: number, use: (page: MupdfModule.Page) => T): T => {
    let page: MupdfModule.Page;
    try {
      page = doc.loadPage(index);
    } catch (error) {
      throw damaged(error, index);
    }
    try {
      return use(page);
    } catch (error) {
      throw damaged(error, index);
    } finally {
      page.destroy();
    }
  };

  return {
    pageCount,
    repaired,
    pageSize: (index) =>
      withPage(index, (page) => {
        const [x0, y0, x1, y1] = page.getBounds();
        return { width: x1 - x0, height: y1 - y0 };
      }),
    renderPage: (index, dpi) =>
      withPage(index, (page) => {
        const scale = dpi / 72;
        const pixmap = page.toPixmap(
          mupdf.Matrix.scale(scale, scale),
          mupdf.ColorSpace.DeviceGray,
          false,
          true,
        );
        try {
          return greyFromPixmap(pixmap);
        } finally {
          pixmap.destroy();
        }
      }),
    close: () => doc.destroy(),
  };
}

function greyFromPixmap(pixmap: MupdfModule.Pixmap): GreyImage {
  const width = pixmap.getWidth();
  const height = pixmap.getHeight();
  const stride = pixmap.getStride();
  const pixels = pixmap.getPixels();
  if (pixmap.getNumberOfComponents() !== 1) throw new Error('expected a grey pixmap');
  // Copied out of the WASM heap (the pixmap is freed next), row by row when rows are padded.
  const data = new Uint8Array(width * height);
  if (stride === width) data.set(pixels.subarray(0, width * height));
  else for (let y = 0; y < height; y++) data.set(pixels.subarray(y * stride, y * stride + width), y * width);
  return { data, width, height };
}

function damaged(error: unknown, pageIndex?: number): ProblemError {
  if (error instanceof ProblemError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const reason = message.trim().replace(/[.:]+$/, '') || 'unknown error';
  const what = pageIndex === undefined ? 'The PDF' : `Page ${pageIndex + 1} of the PDF`;
  return new ProblemError('422-003', `${what} is damaged and cannot be repaired (${reason}).`, {
    cause: error,
  });
}
