/**
 * The grid covers the lower part of the window; the page stays visible above it. The viewer reveals a
 * selected value anywhere in its own box, which may be under the grid: this scrolls the viewer so
 * that the row's region (drawn by the viewer's highlight layer, `.row-region`) sits in the strip of
 * page left above the grid. Nothing happens when the row has no region on the pages drawn, or when
 * it is in that strip already.
 */

const MARGIN = 16;

export function revealRowAbove(row: string, gridTop: number, doc: Document = document): void {
  const region = [...doc.querySelectorAll<SVGElement>('.field-highlight .row-region')].find(
    (el) => el.getAttribute('data-row') === row,
  );
  if (!region) return;
  const scroller = scrollParent(region);
  if (!scroller) return;
  const box = region.getBoundingClientRect();
  const view = scroller.getBoundingClientRect();
  const top = view.top + MARGIN;
  const bottom = Math.min(view.bottom, gridTop) - MARGIN;
  if (bottom <= top) return;
  if (box.top >= top && box.bottom <= bottom) return;
  // Centred in the strip; a row taller than the strip shows its top.
  const delta = box.height > bottom - top ? box.top - top : (box.top + box.bottom) / 2 - (top + bottom) / 2;
  scroller.scrollTop += delta;
}

function scrollParent(el: Element): HTMLElement | null {
  for (let p = el.parentElement; p; p = p.parentElement) {
    const { overflowY } = getComputedStyle(p);
    if ((overflowY === 'auto' || overflowY === 'scroll') && p.scrollHeight > p.clientHeight) return p;
  }
  return null;
}
