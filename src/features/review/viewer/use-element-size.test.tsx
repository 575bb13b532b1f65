import { render, screen } from '@testing-library/react';
import { useRef } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useElementSize } from './use-element-size';

/** An observer that never reports, as when the change is made in the same frame as the read. */
class SilentResizeObserver {
  observe() {}
  disconnect() {}
  unobserve() {}
}

function Box({ remeasureOn }: { remeasureOn?: unknown }) {
  const ref = useRef<HTMLDivElement>(null);
  const size = useElementSize(ref, remeasureOn);
  return (
    <div ref={ref} data-testid="box">
      {size ? `${size.width}×${size.height}` : 'unmeasured'}
    </div>
  );
}

function layOut(el: HTMLElement, width: number, height: number) {
  Object.defineProperty(el, 'clientWidth', { configurable: true, value: width });
  Object.defineProperty(el, 'clientHeight', { configurable: true, value: height });
}

beforeEach(() => vi.stubGlobal('ResizeObserver', SilentResizeObserver));
afterEach(() => vi.unstubAllGlobals());

describe('useElementSize', () => {
  it('reads the size again, before paint, when the caller says the layout around it changed', () => {
    const { rerender } = render(<Box remeasureOn={1} />);
    const box = screen.getByTestId('box');
    layOut(box, 612.7, 900);
    // Nothing changed for the hook: the observer has not reported.
    rerender(<Box remeasureOn={1} />);
    expect(box).toHaveTextContent('unmeasured');
    // A column appeared beside it: read at once, not one frame later (the page would be drawn twice).
    rerender(<Box remeasureOn={2} />);
    expect(box).toHaveTextContent('612×900');
  });

  it('keeps the observed size while the element is not laid out', () => {
    const { rerender } = render(<Box remeasureOn={1} />);
    rerender(<Box remeasureOn={2} />);
    expect(screen.getByTestId('box')).toHaveTextContent('unmeasured');
  });
});
