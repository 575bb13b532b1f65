import { useEffect, type RefObject } from 'react';

/**
 * Pan by dragging: with the middle button, or the left button while Space is held (as in image
 * editors). Scrolling, the keyboard and the scroll bars pan as usual.
 */
export function useDragPan(ref: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    let space = false;
    let drag: { id: number; x: number; y: number } | null = null;

    const onKeyDown = (e: KeyboardEvent) => {
      if (e.code !== 'Space' || e.target !== el) return;
      // Space alone would scroll a page down; held, it arms the drag instead.
      e.preventDefault();
      space = true;
      el.dataset.pan = 'ready';
    };
    const onKeyUp = (e: KeyboardEvent) => {
      if (e.code !== 'Space') return;
      space = false;
      if (!drag) delete el.dataset.pan;
    };
    const onPointerDown = (e: PointerEvent) => {
      if (!(e.button === 1 || (e.button === 0 && space))) return;
      e.preventDefault();
      drag = { id: e.pointerId, x: e.clientX, y: e.clientY };
      el.setPointerCapture(e.pointerId);
      el.dataset.pan = 'dragging';
    };
    const onPointerMove = (e: PointerEvent) => {
      if (!drag || e.pointerId !== drag.id) return;
      el.scrollBy(drag.x - e.clientX, drag.y - e.clientY);
      drag = { ...drag, x: e.clientX, y: e.clientY };
    };
    const onPointerUp = (e: PointerEvent) => {
      if (!drag || e.pointerId !== drag.id) return;
      drag = null;
      if (space) el.dataset.pan = 'ready';
      else delete el.dataset.pan;
    };
    el.addEventListener('keydown', onKeyDown);
    el.addEventListener('keyup', onKeyUp);
    el.addEventListener('pointerdown', onPointerDown);
    el.addEventListener('pointermove', onPointerMove);
    el.addEventListener('pointerup', onPointerUp);
    el.addEventListener('pointercancel', onPointerUp);
    return () => {
      el.removeEventListener('keydown', onKeyDown);
      el.removeEventListener('keyup', onKeyUp);
      el.removeEventListener('pointerdown', onPointerDown);
      el.removeEventListener('pointermove', onPointerMove);
      el.removeEventListener('pointerup', onPointerUp);
      el.removeEventListener('pointercancel', onPointerUp);
    };
  }, [ref]);
}
