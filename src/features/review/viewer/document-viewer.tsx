import { useMemo, useRef, useState } from 'react';
import { Document, pdfjs } from 'react-pdf';
import { useElementWidth } from '../../../lib/use-element-width';
import type { FieldLeaf } from '../fields/flatten-fields';
import { PdfPage, type OverlayHandlers } from './pdf-page';

// The worker, cMaps, fonts and decoders all come from our own origin, never a CDN. The worker
// must be set in the module that renders <Document> (react-pdf README).
pdfjs.GlobalWorkerOptions.workerSrc = new URL(
  'pdfjs-dist/build/pdf.worker.min.mjs',
  import.meta.url,
).toString();

// Module-level constant: react-pdf reloads the document whenever `options` changes identity.
const options = {
  cMapUrl: '/pdfjs/cmaps/',
  standardFontDataUrl: '/pdfjs/standard_fonts/',
  wasmUrl: '/pdfjs/wasm/',
  iccUrl: '/pdfjs/iccs/',
};

const MAX_PAGE_WIDTH = 960;

export interface DocumentViewerProps extends OverlayHandlers {
  file: Blob;
  leaves: FieldLeaf[];
}

/** Every page of a PDF, each with its field polygons drawn over it. */
export default function DocumentViewer({ file, leaves, ...overlayProps }: DocumentViewerProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const width = useElementWidth(containerRef);
  const [pageCount, setPageCount] = useState(0);
  const [loadError, setLoadError] = useState<Error | null>(null);
  const pageWidth = width == null ? null : Math.min(width, MAX_PAGE_WIDTH);
  const pages = useMemo(() => Array.from({ length: pageCount }, (_, i) => i), [pageCount]);

  return (
    <div ref={containerRef} className="w-full">
      {loadError ? (
        <p role="alert" className="rounded-md border border-red-300 bg-red-50 p-4 text-sm text-red-950">
          The document could not be displayed: {loadError.message}
        </p>
      ) : (
        <Document
          file={file}
          options={options}
          onLoadSuccess={(pdf) => setPageCount(pdf.numPages)}
          onLoadError={setLoadError}
          loading={<p className="p-4 text-sm text-slate-600">Opening the document…</p>}
          className="flex flex-col items-center gap-4"
        >
          {pageWidth != null &&
            pages.map((index) => (
              <PdfPage
                key={index}
                index={index}
                pageCount={pageCount}
                width={pageWidth}
                leaves={leaves}
                {...overlayProps}
              />
            ))}
        </Document>
      )}
    </div>
  );
}
