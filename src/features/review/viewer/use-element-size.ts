import { useEffect, useState, type RefObject } from 'react';
import type { Size } from './geometry';

/**
 * The content-box size of an element, kept current by a ResizeObserver (never window `resize`: the
 * viewer's box also changes when the panels beside it do).
 */
export function useElementSize(ref: RefObject<HTMLElement | null>): Size | null {
  const [size, setSize] = useState<Size | null>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const observer = new ResizeObserver(([entry]) => {
      if (!entry) return;
      const width = Math.floor(entry.contentRect.width);
      const height = Math.floor(entry.contentRect.height);
      setSize((s) => (s && s.width === width && s.height === height ? s : { width, height }));
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
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
