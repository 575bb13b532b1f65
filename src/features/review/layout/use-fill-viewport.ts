import { useLayoutEffect, useState, type RefObject } from 'react';

/** Below this the review is not squeezed further: the page scrolls instead. */
const MIN_HEIGHT_PX = 480;
/** Room kept under the review (the page's own padding). */
const BOTTOM_GAP_PX = 8;

/**
 * The height that makes the element reach the window's foot from where it starts on the page, when
 * `active` (side by side: the page and the values each scroll inside it, the decision bar stays in
 * view). Whatever stands above it (the header, a status line) is measured, not guessed, and measured
 * again when the window or the page changes size.
 */
export function useFillViewport(ref: RefObject<HTMLElement | null>, active: boolean): number | undefined {
  const [height, setHeight] = useState<number | undefined>(undefined);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!active || !element) {
      setHeight(undefined);
      return;
    }
    const measure = () => {
      const top = element.getBoundingClientRect().top + window.scrollY;
      setHeight(Math.max(MIN_HEIGHT_PX, Math.floor(window.innerHeight - top - BOTTOM_GAP_PX)));
    };
    measure();
    window.addEventListener('resize', measure);
    // What stands above may grow or shrink (a banner appears): the body's size changes with it.
    const observer = new ResizeObserver(measure);
    observer.observe(document.body);
    return () => {
      window.removeEventListener('resize', measure);
      observer.disconnect();
    };
  }, [ref, active]);
  return height;
}

/** Whether a media query matches now, followed as it changes. */
export function useMediaQuery(query: string): boolean {
  const [matches, setMatches] = useState(() =>
    typeof window.matchMedia === 'function' ? window.matchMedia(query).matches : false,
  );
  useLayoutEffect(() => {
    if (typeof window.matchMedia !== 'function') return;
    const list = window.matchMedia(query);
    const update = () => setMatches(list.matches);
    update();
    list.addEventListener('change', update);
    return () => list.removeEventListener('change', update);
  }, [query]);
  return matches;
}
