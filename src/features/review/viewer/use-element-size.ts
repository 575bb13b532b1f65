import { useCallback, useEffect, useLayoutEffect, useState, type RefObject } from 'react';
import type { Size } from '@extraction-review/review-domain/viewer/geometry';

/**
 * The content-box size of an element, kept current by a ResizeObserver (never window `resize`: the
 * viewer's box also changes when the panels beside it do).
 *
 * A ResizeObserver reports after the frame is laid out, so a change the caller makes itself (a
 * column appearing beside the element) would first be drawn at the old size, then again: a page
 * drawn twice. `remeasureOn` names such changes: when it changes, the size is read again before
 * paint.
 */
export function useElementSize(ref: RefObject<HTMLElement | null>, remeasureOn?: unknown): Size | null {
  const [size, setSize] = useState<Size | null>(null);
  const update = useCallback((width: number, height: number) => {
    const w = Math.floor(width);
    const h = Math.floor(height);
    setSize((s) => (s && s.width === w && s.height === h ? s : { width: w, height: h }));
  }, []);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) update(entry.contentRect.width, entry.contentRect.height);
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref, update]);
  useLayoutEffect(() => {
    const el = ref.current;
    // Not laid out (hidden, or no layout engine): keep what the observer reported.
    if (!el || remeasureOn === undefined || (el.clientWidth === 0 && el.clientHeight === 0)) return;
    const style = getComputedStyle(el);
    const padding = (a: string, b: string) => parseFloat(a) + parseFloat(b) || 0;
    update(
      el.clientWidth - padding(style.paddingLeft, style.paddingRight),
      el.clientHeight - padding(style.paddingTop, style.paddingBottom),
    );
  }, [ref, update, remeasureOn]);
  return size;
}

/**
 * A value that follows `value` once it has stopped changing for `delayMs` (at once while nothing was drawn yet):
 * zooming stretches the drawn bitmaps at once and draws them again at the new size once it settles.
 */
export function useSettled(value: number, delayMs: number): number {
  const [settled, setSettled] = useState<number | null>(null);
  // Nothing drawn yet (no value, or 0): no reason to wait.
  const immediate = settled === null || settled === 0;
  useEffect(() => {
    if (settled === value) return;
    const timer = setTimeout(() => setSettled(value), immediate ? 0 : delayMs);
    return () => clearTimeout(timer);
  }, [value, settled, immediate, delayMs]);
  return immediate || settled === null ? value : settled;
}
