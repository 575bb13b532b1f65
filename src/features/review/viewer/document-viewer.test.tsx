import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useEffect, type ReactNode } from 'react';
import { configure } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FieldLeaf } from '@extraction-review/review-domain/fields/flatten-fields';
import { initialViewerState, type ViewerState } from '../viewer-state';
import DocumentViewer from './document-viewer';
import { FieldTitlesContext } from '../field-titles';

// pdf.js cannot run in jsdom (TOOLCHAIN.md): react-pdf's pdf.js opens a document of `pages` letter
// pages, or one that fails to open when the file says "broken".
vi.mock('react-pdf', () => {
  const letter = { width: 612, height: 792 };
  return {
    pdfjs: {
      GlobalWorkerOptions: {},
      getDocument: ({ data }: { data: Uint8Array }) => {
        const text = new TextDecoder().decode(data);
        const numPages = Number(/pages=(\d+)/.exec(text)?.[1] ?? 1);
        return {
          promise: text.includes('broken')
            ? Promise.reject(new Error('Invalid PDF structure.'))
            : Promise.resolve({ numPages, getPage: async () => ({ getViewport: () => letter }) }),
          destroy: async () => undefined,
        };
      },
    },
    Page: ({
      pageIndex,
      onRenderSuccess,
      children,
    }: {
      pageIndex: number;
      onRenderSuccess?: () => void;
      children: ReactNode;
    }) => {
      // Once per drawing, as react-pdf does (not whenever the callback changes).
      // eslint-disable-next-line react-hooks/exhaustive-deps
      useEffect(() => onRenderSuccess?.(), []);
      return (
        <div className="page-bitmap" data-testid={`bitmap-${pageIndex}`}>
          {children}
        </div>
      );
    },
  };
});

class FixedResizeObserver {
  constructor(private callback: ResizeObserverCallback) {}
  observe(target: Element) {
    const contentRect = { width: 800, height: 1200 } as DOMRectReadOnly;
    this.callback([{ target, contentRect } as ResizeObserverEntry], this as unknown as ResizeObserver);
  }
  disconnect() {}
  unobserve() {}
}

// The machine may be busy: give the async steps (file read, document load) room.
configure({ asyncUtilTimeout: 10_000 });

beforeEach(() => {
  vi.stubGlobal('ResizeObserver', FixedResizeObserver);
  Element.prototype.scrollTo = vi.fn() as unknown as typeof Element.prototype.scrollTo;
});
afterEach(() => vi.unstubAllGlobals());

const pdf = (pages: number) => new Blob([`%PDF-1.7 pages=${pages}`], { type: 'application/pdf' });
const leaf = (path: string, page: number, value: string | null = 'x'): FieldLeaf => ({
  path,
  name: path,
  value,
  confidence: 'Medium',
  locations: [
    {
      page,
      polygon: [
        [0.1, 0.1],
        [0.3, 0.1],
        [0.3, 0.15],
        [0.1, 0.15],
      ],
    },
  ],
});
const leaves = [
  leaf('invoice_number', 0, 'INV-1'),
  leaf('total_amount', 2, '1234.56'),
  leaf('date', 0, null),
];

function renderViewer(file: Blob, state: Partial<ViewerState> = {}, dispatch = vi.fn()) {
  const props = { file, leaves, state: { ...initialViewerState, ...state }, dispatch };
  const view = render(<DocumentViewer {...props} />);
  return {
    ...view,
    dispatch,
    rerender: (next: Partial<ViewerState>) =>
      view.rerender(<DocumentViewer {...props} state={{ ...props.state, ...next }} />),
  };
}

describe('DocumentViewer', () => {
  it('gives every page a slot and draws only the pages in view', async () => {
    const { dispatch, container } = renderViewer(pdf(40));
    await waitFor(() => expect(screen.getByTestId('bitmap-0')).toBeInTheDocument());
    // Every page has its slot (a named region), of the right size from the start...
    expect(container.querySelectorAll('section[aria-label$=" of 40"]')).toHaveLength(40);
    expect(container.querySelector('section[aria-label="Page 40 of 40"]')).toHaveStyle({
      height: `${(792 * 768) / 612}px`,
    });
    // ...but only those near the viewport are drawn.
    expect(container.querySelectorAll('.page-scroller [data-testid^="bitmap-"]').length).toBeLessThan(5);
    // Told from an effect after the commit that drew the slots: on a busy machine the check above
    // can pass before it has run (seen in a CI run).
    await waitFor(() => expect(dispatch).toHaveBeenCalledWith({ type: 'documentLoaded', pageCount: 40 }));
    await waitFor(() =>
      expect(container.querySelector('[data-page-index="0"]')).toHaveAttribute('data-rendered', 'true'),
    );
  }, 20_000);

  it('names each polygon by its field title, value and confidence', async () => {
    renderViewer(pdf(3));
    const polygon = await screen.findByRole('img', { name: 'Invoice number: INV-1 (medium confidence)' });
    // The API path stays the polygon's key, as the value row's.
    expect(polygon).toHaveAttribute('data-field-path', 'invoice_number');
    expect(screen.getByRole('img', { name: 'Date: no value (medium confidence)' })).toBeInTheDocument();
  });

  it("names a polygon with the review's titles (the data schema's) when given", async () => {
    const titleOf = (path: string) => (path === 'invoice_number' ? 'Invoice No.' : path);
    render(
      <FieldTitlesContext value={titleOf}>
        <DocumentViewer file={pdf(3)} leaves={leaves} state={initialViewerState} dispatch={vi.fn()} />
      </FieldTitlesContext>,
    );
    expect(
      await screen.findByRole('img', { name: 'Invoice No.: INV-1 (medium confidence)' }),
    ).toBeInTheDocument();
  });

  it('hovers and selects a field from its polygon, without scrolling to it', async () => {
    const { dispatch } = renderViewer(pdf(3));
    const polygon = await screen.findByRole('img', { name: /^Invoice number:/ });
    fireEvent.pointerOver(polygon);
    expect(dispatch).toHaveBeenCalledWith({ type: 'hover', path: 'invoice_number' });
    fireEvent.pointerOut(polygon, { relatedTarget: document.body });
    expect(dispatch).toHaveBeenCalledWith({ type: 'hover', path: null });
    fireEvent.click(polygon);
    expect(dispatch).toHaveBeenCalledWith({ type: 'select', path: 'invoice_number', reveal: false });
  });

  it('highlights the hovered and selected fields’ polygons', async () => {
    const { rerender } = renderViewer(pdf(3));
    const polygon = await screen.findByRole('img', { name: /^Invoice number:/ });
    expect(polygon).not.toHaveAttribute('data-active');
    rerender({ hovered: 'invoice_number' });
    expect(polygon).toHaveAttribute('data-hovered', 'true');
    rerender({ hovered: null, selected: 'invoice_number' });
    expect(polygon).not.toHaveAttribute('data-hovered');
    expect(polygon).toHaveAttribute('data-selected', 'true');
    expect(polygon).toHaveAttribute('data-active', 'true');
  });

  it('carries out a field request and reports the page it showed', async () => {
    const request = { kind: 'field', path: 'total_amount' } as const;
    const { dispatch } = renderViewer(pdf(5), { request });
    await waitFor(() => expect(dispatch).toHaveBeenCalledWith({ type: 'requestDone', request, page: 2 }));
    expect(Element.prototype.scrollTo).toHaveBeenCalled();
  });

  it('moves to a page from its thumbnail and from the toolbar', async () => {
    const { dispatch } = renderViewer(pdf(5));
    fireEvent.click(await screen.findByRole('button', { name: 'Page 4' }));
    expect(dispatch).toHaveBeenCalledWith({ type: 'goToPage', page: 3 });
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(dispatch).toHaveBeenCalledWith({ type: 'nextPage' });
    fireEvent.click(screen.getByRole('button', { name: 'Rotate right' }));
    expect(dispatch).toHaveBeenCalledWith({ type: 'rotate', by: 90 });
    fireEvent.click(screen.getByRole('button', { name: 'Zoom in' }));
    expect(dispatch).toHaveBeenCalledWith({ type: 'zoomIn' });
  });

  it('explains a PDF it cannot open, and what to do', async () => {
    renderViewer(new Blob(['%PDF-1.7 broken']));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('This PDF could not be displayed');
    expect(alert).toHaveTextContent('upload it again');
    expect(alert).toHaveTextContent('values are still listed');
  });

  it('explains a type it cannot draw', async () => {
    renderViewer(new Blob([new Uint8Array([0, 0, 0, 24, ...new TextEncoder().encode('ftypheic')])]));
    expect(await screen.findByRole('alert')).toHaveTextContent('It is a HEIC/HEIF photo');
  });

  it('zooms with ctrl + wheel', async () => {
    const { dispatch } = renderViewer(pdf(2));
    // The pages' scroll box once the document is open (a first one stands in while it opens).
    await screen.findByTestId('bitmap-0');
    const scroller = screen.getByRole('region', { name: 'Document pages' });
    act(() => {
      scroller.dispatchEvent(
        new WheelEvent('wheel', { deltaY: -100, ctrlKey: true, bubbles: true, cancelable: true }),
      );
    });
    expect(dispatch).toHaveBeenCalledWith({ type: 'zoomTo', zoom: expect.closeTo(Math.exp(0.2), 5) });
  });
});
