/**
 * Page geometry of the reference service, in one place: every box and polygon the service writes is
 * relative to the page as it is shown upright (the PDF viewport, so `/Rotate` and the CropBox are
 * already applied), with `[x, y]` in 0..1 and the origin at the top-left corner, as the API's
 * `FieldLocation.polygon` requires. Nothing else in `server/reference` does arithmetic on coordinates.
 */

/** An axis-aligned box in normalised page coordinates (0..1, origin top-left, y down). */
export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export type Point = readonly [number, number];

/** The API's polygon: at least 3 `[x, y]` points, clockwise on screen. */
export type Polygon = [number, number][];

const clamp01 = (v: number): number => Math.min(1, Math.max(0, v));

/**
 * The box around points given in viewport units (pixels of a page `width` × `height`), normalised and
 * clamped to the page: text that runs past the CropBox is cut at the edge, as a viewer would show it.
 */
export function boxAroundPoints(points: readonly Point[], width: number, height: number): Box {
  const xs = points.map(([x]) => x / width);
  const ys = points.map(([, y]) => y / height);
  return {
    x0: clamp01(Math.min(...xs)),
    y0: clamp01(Math.min(...ys)),
    x1: clamp01(Math.max(...xs)),
    y1: clamp01(Math.max(...ys)),
  };
}

export function unionBox(boxes: readonly Box[]): Box {
  if (boxes.length === 0) throw new Error('unionBox needs at least one box');
  return {
    x0: Math.min(...boxes.map((b) => b.x0)),
    y0: Math.min(...boxes.map((b) => b.y0)),
    x1: Math.max(...boxes.map((b) => b.x1)),
    y1: Math.max(...boxes.map((b) => b.y1)),
  };
}

/** Top-left, top-right, bottom-right, bottom-left: clockwise with y pointing down. */
export function boxToPolygon(box: Box): Polygon {
  return [
    [box.x0, box.y0],
    [box.x1, box.y0],
    [box.x1, box.y1],
    [box.x0, box.y1],
  ];
}

export const boxHeight = (box: Box): number => box.y1 - box.y0;
export const boxCenterY = (box: Box): number => (box.y0 + box.y1) / 2;

/** How much of the shorter of two boxes' heights they share, 0..1. */
export function verticalOverlap(a: Box, b: Box): number {
  const shared = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
  const shorter = Math.min(boxHeight(a), boxHeight(b));
  return shorter > 0 ? Math.max(0, shared) / shorter : 0;
}

/** The horizontal gap from `a`'s right edge to `b`'s left edge (negative when they overlap). */
export const horizontalGap = (a: Box, b: Box): number => b.x0 - a.x1;

/** Whether two boxes share some horizontal extent, with `slack` added on both sides of `a`. */
export const overlapsHorizontally = (a: Box, b: Box, slack = 0): boolean =>
  b.x0 <= a.x1 + slack && b.x1 >= a.x0 - slack;

/**
 * The height of a box expressed in page-width units: a box's height is relative to the page height
 * and its gaps to the page width, so comparing a gap with a font size needs the page's aspect ratio
 * (`pageHeight / pageWidth`).
 */
export const heightInWidthUnits = (box: Box, aspect: number): number => boxHeight(box) * aspect;
