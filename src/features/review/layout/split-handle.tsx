import { useRef, type KeyboardEvent, type PointerEvent } from 'react';
import { clampWidth, VALUES_WIDTH } from './values-width';

interface Props {
  /** The values pane's share of the width, in percent. */
  value: number;
  onChange: (percent: number) => void;
  /** The element both panes share, whose width the pointer's position is measured against. */
  containerRef: React.RefObject<HTMLElement | null>;
}

/**
 * The handle between the page and the values: dragged with the pointer, or focused and moved with
 * the arrow keys (Home and End: the narrowest and widest values pane). It is a window splitter in
 * the ARIA pattern: the value is the values pane's share of the width.
 */
export function SplitHandle({ value, onChange, containerRef }: Props) {
  const dragging = useRef(false);

  const fromPointer = (clientX: number) => {
    const box = containerRef.current?.getBoundingClientRect();
    if (!box || box.width === 0) return;
    // The values pane is on the right: its share is what lies right of the pointer.
    onChange(clampWidth(((box.right - clientX) / box.width) * 100));
  };

  function onKeyDown(event: KeyboardEvent) {
    const next =
      event.key === 'ArrowLeft'
        ? value + VALUES_WIDTH.step
        : event.key === 'ArrowRight'
          ? value - VALUES_WIDTH.step
          : event.key === 'Home'
            ? VALUES_WIDTH.min
            : event.key === 'End'
              ? VALUES_WIDTH.max
              : null;
    if (next === null) return;
    event.preventDefault();
    onChange(clampWidth(next));
  }

  return (
    <div
      role="separator"
      aria-orientation="vertical"
      aria-label="Width of the values (arrow keys)"
      aria-valuenow={value}
      aria-valuemin={VALUES_WIDTH.min}
      aria-valuemax={VALUES_WIDTH.max}
      aria-valuetext={`Values ${String(value)}% of the width`}
      tabIndex={0}
      title="Drag, or focus and use the arrow keys, to widen the page or the values"
      onKeyDown={onKeyDown}
      onPointerDown={(event: PointerEvent) => {
        dragging.current = true;
        event.currentTarget.setPointerCapture(event.pointerId);
        event.preventDefault();
      }}
      onPointerMove={(event: PointerEvent) => {
        if (dragging.current) fromPointer(event.clientX);
      }}
      onPointerUp={(event: PointerEvent) => {
        dragging.current = false;
        event.currentTarget.releasePointerCapture(event.pointerId);
      }}
      onPointerCancel={() => {
        dragging.current = false;
      }}
      className="group hidden w-3 cursor-col-resize touch-none items-center justify-center rounded focus-visible:outline-2 focus-visible:outline-blue-700 xl:flex"
    >
      <span
        aria-hidden="true"
        className="h-12 w-1 rounded-full bg-slate-300 group-hover:bg-blue-600 group-focus-visible:bg-blue-700"
      />
    </div>
  );
}
