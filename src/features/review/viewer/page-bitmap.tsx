import { useEffect, useEffectEvent, useRef, useState, type ReactNode } from 'react';
import { Page } from 'react-pdf';
import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist';
import type { TiffDocument } from './decode-tiff';
import type { PageSource } from './page-source';

export interface PageBitmapProps {
  source: PageSource;
  index: number;
  /** The size to draw at, in CSS pixels (the page box stretches the bitmap to its own size). */
  width: number;
  height: number;
  pixelRatio: number;
  onDrawn?: (() => void) | undefined;
  onError?: ((error: Error) => void) | undefined;
  /** The field overlay: a child of react-pdf's `<Page>` for PDFs, of the picture's box otherwise. */
  children?: ReactNode;
}

/** The bitmap layer of a page, whatever the document's kind; it fills the page box. */
export function PageBitmap({ source, ...props }: PageBitmapProps) {
  switch (source.kind) {
    case 'pdf':
      return <PdfBitmap pdf={source.pdf} {...props} />;
    case 'image':
      return <ImageBitmapView url={source.url} {...props} />;
    case 'tiff':
      return <TiffBitmap tiff={source.tiff} {...props} />;
  }
}

type BitmapProps = Omit<PageBitmapProps, 'source'>;

function PdfBitmap({
  pdf,
  index,
  width,
  pixelRatio,
  onDrawn,
  onError,
  children,
}: BitmapProps & { pdf: PDFDocumentProxy }) {
  const page = useRef<PDFPageProxy | null>(null);
  // A page scrolled out of the window frees what pdf.js keeps for it (its operator list, decoded
  // images), as pdf.js's own viewer does when it evicts a page view.
  useEffect(() => () => void page.current?.cleanup(), []);
  return (
    <Page
      pdf={pdf}
      suspense={false}
      pageIndex={index}
      width={width}
      devicePixelRatio={pixelRatio}
      renderTextLayer={false}
      renderAnnotationLayer={false}
      className="page-bitmap"
      loading={null}
      error={null}
      onLoadSuccess={(p) => (page.current = p)}
      onLoadError={onError}
      onRenderSuccess={onDrawn}
      onRenderError={onError}
    >
      {children}
    </Page>
  );
}

function ImageBitmapView({ url, width, onDrawn, onError, children }: BitmapProps & { url: string }) {
  const [loaded, setLoaded] = useState(false);
  // The browser scales the picture itself: at any new size it is drawn as soon as it is loaded.
  const drawn = useEffectEvent(() => onDrawn?.());
  useEffect(() => {
    if (loaded) drawn();
  }, [loaded, width]);
  return (
    <div className="page-bitmap">
      <img
        src={url}
        alt=""
        draggable={false}
        onLoad={() => setLoaded(true)}
        onError={() => onError?.(new Error('The picture could not be decoded.'))}
      />
      {children}
    </div>
  );
}

function TiffBitmap({
  tiff,
  index,
  width,
  height,
  pixelRatio,
  onDrawn,
  onError,
  children,
}: BitmapProps & { tiff: TiffDocument }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const drawn = useEffectEvent(() => onDrawn?.());
  const failed = useEffectEvent((e: unknown) => onError?.(e instanceof Error ? e : new Error(String(e))));
  useEffect(() => {
    let live = true;
    tiff
      .page(index)
      .then((bitmap) => {
        const el = canvas.current;
        const context = el?.getContext('2d');
        if (!live || !el || !context) return;
        // Never larger than the picture itself.
        el.width = Math.max(1, Math.min(bitmap.width, Math.round(width * pixelRatio)));
        el.height = Math.max(1, Math.min(bitmap.height, Math.round(height * pixelRatio)));
        context.drawImage(bitmap, 0, 0, el.width, el.height);
        drawn();
      })
      .catch((e: unknown) => live && failed(e));
    return () => {
      live = false;
    };
  }, [tiff, index, width, height, pixelRatio]);
  return (
    <div className="page-bitmap">
      <canvas ref={canvas} />
      {children}
    </div>
  );
}
