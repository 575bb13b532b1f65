import type { ReactNode } from 'react';
import type { PDFDocumentProxy } from 'pdfjs-dist';
import type { Size } from './geometry';
import type { TiffDocument } from './decode-tiff';

/**
 * An opened document, whatever its kind, as the page shell needs it: each page's natural size as
 * displayed (PDF points with `/Rotate` applied; picture pixels upright) and what draws the bitmap.
 * PDFs, pictures and TIFF pages then share every line of layout and overlay code.
 *
 * Sources hand `null` to the viewer while the document opens, so that its frame (toolbar, scroll
 * box) is laid out and measured by then.
 */
export type SourceChildren = (source: PageSource | null) => ReactNode;
export type PageSource =
  | { kind: 'pdf'; sizes: readonly Size[]; pdf: PDFDocumentProxy }
  | { kind: 'image'; sizes: readonly Size[]; url: string }
  | { kind: 'tiff'; sizes: readonly Size[]; tiff: TiffDocument };
