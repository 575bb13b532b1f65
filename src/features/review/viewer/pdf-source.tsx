import { useEffect, useMemo, useState } from 'react';
import { Document, pdfjs } from 'react-pdf';
import type { PDFDocumentProxy } from 'pdfjs-dist';
import type { Size } from './geometry';
import type { PageSource, SourceChildren } from './page-source';
import { OpenErrorMessage } from './viewer-message';

// The worker, cMaps, fonts and decoders all come from our own origin, never a CDN. The worker must
// be set in the module that renders <Document> (react-pdf README).
pdfjs.GlobalWorkerOptions.workerSrc = new URL(
  'pdfjs-dist/build/pdf.worker.min.mjs',
  import.meta.url,
).toString();

/**
 * One worker for every document, started as soon as this module loads: its 1.2 MB script is
 * fetched and compiled while the review renders and the file is read, not after. Passed explicitly,
 * it outlives each document's loading task (pdf.js destroys only the workers it created itself),
 * as in pdf.js's own viewer.
 */
const worker =
  typeof Worker === 'undefined' || typeof pdfjs.PDFWorker !== 'function' ? undefined : new pdfjs.PDFWorker();

// Module-level constant: react-pdf reloads the document whenever `options` changes identity.
const options = {
  cMapUrl: '/pdfjs/cmaps/',
  standardFontDataUrl: '/pdfjs/standard_fonts/',
  wasmUrl: '/pdfjs/wasm/',
  iccUrl: '/pdfjs/iccs/',
  ...(worker && { worker }),
};

class PasswordException extends Error {
  override name = 'PasswordException';
}

interface Props {
  file: Blob;
  children: SourceChildren;
}

/**
 * A PDF opened by react-pdf's `<Document>`, whose pages are then drawn by `<Page pdf={…}>` (the
 * viewer's frame does not wait inside the Document for the file to open). Every page is first
 * assumed to have the first page's size, so the viewer lays out and draws page 1 at once; the other
 * pages are measured afterwards in the background and the layout follows (as in pdf.js's viewer).
 */
export function PdfSource({ file, children }: Props) {
  const [pdf, setPdf] = useState<PDFDocumentProxy | null>(null);
  const [sizes, setSizes] = useState<readonly Size[] | null>(null);
  const [error, setError] = useState<Error | null>(null);

  const onLoadSuccess = async (doc: PDFDocumentProxy) => {
    const first = (await doc.getPage(1)).getViewport({ scale: 1 });
    setSizes(Array.from({ length: doc.numPages }, () => ({ width: first.width, height: first.height })));
    setPdf(doc);
  };

  useEffect(() => {
    const doc = pdf;
    if (!doc || doc.numPages < 2) return;
    let live = true;
    const measure = async () => {
      const measured: Size[] = [];
      for (let n = 1; n <= doc.numPages && live; n++) {
        const viewport = (await doc.getPage(n)).getViewport({ scale: 1 });
        measured.push({ width: viewport.width, height: viewport.height });
      }
      if (!live) return;
      setSizes((assumed) =>
        assumed && measured.every((s, i) => s.width === assumed[i]?.width && s.height === assumed[i]?.height)
          ? assumed
          : measured,
      );
    };
    // After the first pages are drawn: measuring competes with them for the worker.
    const timer = setTimeout(() => void measure(), 1000);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [pdf]);

  // One object per set of sizes: the pages below are memoised on it.
  const source = useMemo<PageSource | null>(() => pdf && sizes && { kind: 'pdf', sizes, pdf }, [pdf, sizes]);

  if (error) return <OpenErrorMessage error={error} kind="PDF" />;
  return (
    <>
      <Document
        file={file}
        options={options}
        suspense={false}
        className="hidden"
        onLoadSuccess={(doc) => void onLoadSuccess(doc).catch(setError)}
        onLoadError={setError}
        onSourceError={setError}
        // Never the browser's password prompt: protected PDFs are refused with a message.
        onPassword={() => setError(new PasswordException('The PDF needs a password to open.'))}
        loading={null}
        error={null}
      />
      {children(source)}
    </>
  );
}
