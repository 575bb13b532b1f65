import { fireEvent, render, screen } from '@testing-library/react';
import { useRef, useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { SplitHandle } from './split-handle';
import { clampWidth, readValuesWidth, VALUES_WIDTH, writeValuesWidth } from './values-width';

function Harness({ start }: { start: number }) {
  const [value, setValue] = useState(start);
  const container = useRef<HTMLDivElement>(null);
  return (
    <div ref={container}>
      <SplitHandle value={value} onChange={setValue} containerRef={container} />
    </div>
  );
}

afterEach(() => window.localStorage.clear());

describe('the split between the page and the values', () => {
  it('is a focusable separator the arrow keys move, within bounds; Home and End go to them', () => {
    render(<Harness start={44} />);
    const split = screen.getByRole('separator', { name: /Width of the values/ });
    expect(split).toHaveAttribute('tabindex', '0');
    expect(split).toHaveAttribute('aria-valuenow', '44');
    fireEvent.keyDown(split, { key: 'ArrowLeft' });
    expect(split).toHaveAttribute('aria-valuenow', String(44 + VALUES_WIDTH.step));
    fireEvent.keyDown(split, { key: 'ArrowRight' });
    fireEvent.keyDown(split, { key: 'ArrowRight' });
    expect(split).toHaveAttribute('aria-valuenow', String(44 - VALUES_WIDTH.step));
    fireEvent.keyDown(split, { key: 'End' });
    expect(split).toHaveAttribute('aria-valuenow', String(VALUES_WIDTH.max));
    fireEvent.keyDown(split, { key: 'ArrowLeft' });
    expect(split).toHaveAttribute('aria-valuenow', String(VALUES_WIDTH.max));
    fireEvent.keyDown(split, { key: 'Home' });
    expect(split).toHaveAttribute('aria-valuenow', String(VALUES_WIDTH.min));
  });

  it('is remembered in this browser; a kept value out of bounds or not a number is not trusted', () => {
    expect(readValuesWidth()).toBe(VALUES_WIDTH.default);
    writeValuesWidth(52);
    expect(readValuesWidth()).toBe(52);
    window.localStorage.setItem('extraction-review:values-width', '99');
    expect(readValuesWidth()).toBe(VALUES_WIDTH.max);
    window.localStorage.setItem('extraction-review:values-width', 'wide');
    expect(readValuesWidth()).toBe(VALUES_WIDTH.default);
    expect(clampWidth(10)).toBe(VALUES_WIDTH.min);
    expect(clampWidth(50.4)).toBe(50);
  });
});
