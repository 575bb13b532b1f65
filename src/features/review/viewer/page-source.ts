import type { ReactNode } from 'react';
import type { PDFDocumentProxy } from 'pdfjs-dist';
import type { Rotation, Size } from '@extraction-review/review-domain/viewer/geometry';
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
interface SourcePages {
  sizes: readonly Size[];
  /**
   * The clockwise turn that shows each stored page upright (v1 `orientation.value`), when the result
   * says so: `sizes` are then the upright sizes, and the bitmaps are drawn turned (turned-bitmap.ts).
   */
  turns?: readonly Rotation[];
}
export type PageSource =
  | (SourcePages & { kind: 'pdf'; pdf: PDFDocumentProxy })
  | (SourcePages & { kind: 'image'; url: string })
  | (SourcePages & { kind: 'tiff'; tiff: TiffDocument });
