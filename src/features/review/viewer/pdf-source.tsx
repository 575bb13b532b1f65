import { useEffect, useMemo, useState } from 'react';
import type { PDFDocumentProxy } from 'pdfjs-dist';
import type { Size } from '@extraction-review/review-domain/viewer/geometry';
import type { PageSource, SourceChildren } from './page-source';
import { holdPdf, openedPdf, type OpenedPdf } from './pdf-open';
import { OpenErrorMessage } from './viewer-message';

interface Props {
  file: Blob;
  children: SourceChildren;
}

/**
 * A PDF opened by pdf.js (pdf-open.ts), whose pages are then drawn by react-pdf's
 * `<Page pdf={…}>`. Opened ahead by the review's route, it is drawn in the very first render. Every
 * page is first assumed to have the first page's size, so the viewer lays out and draws page 1 at
 * once; the other pages are measured afterwards in the background and the layout follows (as in
 * pdf.js's viewer).
 */
export function PdfSource({ file, children }: Props) {
  const [opened, setOpened] = useState(() => ({ file, value: openedPdf(file) }));
  const [measured, setMeasured] = useState<{ pdf: PDFDocumentProxy; sizes: readonly Size[] } | null>(null);
  const [error, setError] = useState<{ file: Blob; error: Error } | null>(null);

  useEffect(() => {
    const held = holdPdf(file);
    let live = true;
    held.opened.then(
      (value) =>
        live && setOpened((now) => (now.file === file && now.value === value ? now : { file, value })),
      (e: unknown) => live && setError({ file, error: e instanceof Error ? e : new Error(String(e)) }),
    );
    return () => {
      live = false;
      held.release();
    };
  }, [file]);

  const current: OpenedPdf | undefined = opened.file === file ? opened.value : undefined;
  const pdf = current?.pdf ?? null;

  useEffect(() => {
    const doc = pdf;
    if (!doc || doc.numPages < 2) return;
    let live = true;
    const measure = async () => {
      const sizes: Size[] = [];
      for (let n = 1; n <= doc.numPages && live; n++) {
        const viewport = (await doc.getPage(n)).getViewport({ scale: 1 });
        sizes.push({ width: viewport.width, height: viewport.height });
      }
      if (live) setMeasured({ pdf: doc, sizes });
    };
    // After the first pages are drawn: measuring competes with them for the worker.
    const timer = setTimeout(() => void measure().catch(() => undefined), 1000);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [pdf]);

  // Every page as page 1 until measured; the measured sizes replace them only where they differ.
  const assumed = useMemo(
    () => current && Array.from({ length: current.pdf.numPages }, () => current.first),
    [current],
  );
  const sizes =
    assumed && measured?.pdf === pdf && !sameSizes(measured.sizes, assumed) ? measured.sizes : assumed;
  // One object per set of sizes: the pages below are memoised on it.
  const source = useMemo<PageSource | null>(
    () => (pdf && sizes ? { kind: 'pdf', sizes, pdf } : null),
    [pdf, sizes],
  );

  if (error?.file === file) return <OpenErrorMessage error={error.error} kind="PDF" />;
  return children(source);
}

const sameSizes = (a: readonly Size[], b: readonly Size[]) =>
  a.length === b.length && a.every((s, i) => s.width === b[i]?.width && s.height === b[i]?.height);
