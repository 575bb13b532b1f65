/**
 * All coordinate arithmetic of the app lives here; nothing else converts between frames.
 *
 * Frames:
 * - **page** (normalised): `[x, y]` in 0..1 with the origin at the top-left corner of the page as
 *   the API describes it. v2 `FieldLocation.polygon` is in this frame, for the page as the service
 *   displays it (PDF `/Rotate` and the crop box already applied).
 * - **upright** (normalised): the page turned clockwise by its orientation so that its text reads
 *   upright. v1 `pages[].orientation.value` is the clockwise rotation that makes the page upright;
 *   with `is_rotation_applied: true` v1 polygons are already in this frame. The proof is in the
 *   fixtures: `v1/products/multi_receipts_detector/` holds one photo turned 0, 90, 180 and 270
 *   degrees, and all four responses carry identical polygons.
 * - **view** (pixels): the upright page turned by the operator's own view rotation and scaled to
 *   the rendered size, origin top-left of the page box on screen.
 *
 * Conversions come in pairs (`toX`/`fromX`), in the manner of pdf.js's
 * `convertToViewportPoint`/`convertToPdfPoint`. Rotations other than multiples of 90 are rejected.
 */

export type Point = readonly [number, number];
export type Polygon = readonly Point[];

/** Quarter turns, clockwise. */
export type Rotation = 0 | 90 | 180 | 270;

export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface Size {
  width: number;
  height: number;
}

/** Normalise any multiple of 90 (negative, or beyond 360) to 0, 90, 180 or 270. */
export function toRotation(degrees: number): Rotation {
  if (!Number.isFinite(degrees) || degrees % 90 !== 0) {
    throw new RangeError(`Rotation must be a multiple of 90 degrees, got ${degrees}`);
  }
  return (((degrees % 360) + 360) % 360) as Rotation satisfies Rotation;
}

/**
 * Turn a normalised point with its page, clockwise by `rotation`. The page's top-left corner goes
 * to the top-right at 90 degrees, to the bottom-right at 180, to the bottom-left at 270.
 */
export function rotatePoint([x, y]: Point, rotation: Rotation): Point {
  switch (rotation) {
    case 0:
      return [x, y];
    case 90:
      return [1 - y, x];
    case 180:
      return [1 - x, 1 - y];
    case 270:
      return [y, 1 - x];
  }
}

export function rotatePolygon(polygon: Polygon, rotation: Rotation): Polygon {
  return rotation === 0 ? polygon : polygon.map((p) => rotatePoint(p, rotation));
}

/** The inverse of `rotatePoint`. */
export function unrotatePoint(point: Point, rotation: Rotation): Point {
  return rotatePoint(point, toRotation(360 - rotation));
}

/** Width and height of a page box after turning it clockwise by `rotation`. */
export function rotateSize(size: Size, rotation: Rotation): Size {
  return rotation === 90 || rotation === 270 ? { width: size.height, height: size.width } : size;
}

/** Compose two clockwise rotations. */
export function addRotations(a: Rotation, b: Rotation): Rotation {
  return toRotation(a + b);
}

export interface ViewTransform {
  /** The operator's clockwise view rotation, applied to the upright page. */
  rotation: Rotation;
  /** Rendered size of the (rotated) page box in pixels. */
  size: Size;
}

/** Upright normalised point → pixel in the view. */
export function toViewPoint(point: Point, view: ViewTransform): Point {
  const [x, y] = rotatePoint(point, view.rotation);
  return [x * view.size.width, y * view.size.height];
}

/** Pixel in the view → upright normalised point. */
export function fromViewPoint([px, py]: Point, view: ViewTransform): Point {
  return unrotatePoint([px / view.size.width, py / view.size.height], view.rotation);
}

/** Axis-aligned bounding box of a polygon, in the polygon's own frame. */
export function boundingBox(polygon: Polygon): Box {
  if (polygon.length === 0) throw new RangeError('A polygon needs at least one point');
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const [x, y] of polygon) {
    x0 = Math.min(x0, x);
    y0 = Math.min(y0, y);
    x1 = Math.max(x1, x);
    y1 = Math.max(y1, y);
  }
  return { x0, y0, x1, y1 };
}

/** The `points` attribute of an SVG `<polygon>` drawn in a `0 0 1 1` viewBox. */
export function toSvgPoints(polygon: Polygon): string {
  return polygon.map(([x, y]) => `${round(x)},${round(y)}`).join(' ');
}

/** A box as a clockwise four-point polygon (screen orientation: y grows downwards). */
export function boxToPolygon({ x0, y0, x1, y1 }: Box): Polygon {
  return [
    [x0, y0],
    [x1, y0],
    [x1, y1],
    [x0, y1],
  ];
}

/** Centre of a polygon's bounding box: the point to scroll into view for a field. */
export function centreOf(polygon: Polygon): Point {
  const { x0, y0, x1, y1 } = boundingBox(polygon);
  return [(x0 + x1) / 2, (y0 + y1) / 2];
}

/**
 * Bring a v1 polygon into the upright frame. `orientation` is the page's `orientation.value` (the
 * clockwise turn that makes it upright) and `isRotationApplied` the inference's flag:
 * - `true`: the service already returned upright coordinates;
 * - `false`: coordinates are in the raw file's frame and turn with the page;
 * - `null`: no orientation information, so the raw frame is taken as upright.
 */
export function v1PolygonToUpright(
  polygon: Polygon,
  orientation: number | null | undefined,
  isRotationApplied: boolean | null | undefined,
): Polygon {
  if (isRotationApplied !== false || orientation == null) return polygon;
  return rotatePolygon(polygon, toRotation(orientation));
}

function round(n: number): number {
  return Math.round(n * 1e6) / 1e6;
}
