import { useMemo, useState } from 'react';
import { Page } from 'react-pdf';
import { regionsOnPage, type FieldLeaf } from '../fields/flatten-fields';
import { FieldOverlay } from './field-overlay';

export interface OverlayHandlers {
  hovered: string | null;
  selected: string | null;
  onFieldHover: (path: string | null) => void;
  onFieldSelect: (path: string) => void;
}

interface Props extends OverlayHandlers {
  index: number;
  pageCount: number;
  width: number;
  leaves: FieldLeaf[];
}

/**
 * One page: the bitmap drawn by pdf.js, the field overlay as a child of react-pdf's `<Page>` so both
 * share one box. `data-rendered` tells tests and benchmarks when the bitmap is on screen.
 */
export function PdfPage({ index, pageCount, width, leaves, ...overlay }: Props) {
  const [rendered, setRendered] = useState(false);
  const regions = useMemo(() => regionsOnPage(leaves, index), [leaves, index]);
  return (
    <section
      aria-label={`Page ${index + 1} of ${pageCount}`}
      data-page-index={index}
      data-rendered={rendered ? 'true' : 'false'}
      className="bg-white shadow-md"
    >
      <Page
        pageIndex={index}
        width={width}
        renderTextLayer={false}
        renderAnnotationLayer={false}
        onRenderSuccess={() => setRendered(true)}
        loading={<div style={{ width, height: width * 1.3 }} />}
      >
        <FieldOverlay regions={regions} {...overlay} />
      </Page>
    </section>
  );
}
