/**
 * All coordinate arithmetic of the app lives here; nothing else converts between frames.
 *
 * Frames:
 * - **page** (normalised): `[x, y]` in 0..1 with the origin at the top-left corner of the page as
 *   the API describes it. v2 `FieldLocation.polygon` is in this frame, for the page as the service
 *   displays it (PDF `/Rotate` and the crop box already applied).
 * - **raw** (normalised): the page as the stored file has it, before any v1 orientation turn. v1
 *   polygons are in this frame when `is_rotation_applied` is false.
 * - **upright** (normalised): the page turned clockwise by its orientation so that its text reads
 *   upright. v1 `pages[].orientation.value` is the clockwise rotation that makes the page upright;
 *   with `is_rotation_applied: true` v1 polygons are already in this frame. The proof is in the
 *   fixtures: `v1/products/multi_receipts_detector/` holds one photo turned 0, 90, 180 and 270
 *   degrees, and all four responses carry identical polygons.
 * - **view** (pixels): the upright page turned by the operator's own view rotation and scaled to
 *   the rendered size, origin top-left of the page box on screen.
 * - **content** (pixels): the scrolled content of the viewer, where the page boxes (already turned by
 *   the view rotation) stand one under another, each centred across (`layoutPages`).
 * - **viewport** (pixels): what the scroll container shows: content minus the scroll offset.
 *
 * The viewer never turns polygons: the page box is turned (`pageBoxTransform`) with its bitmap and
 * its overlay, whose SVG keeps the page frame (`viewBox="0 0 1 1"`). The conversions below serve
 * scrolling, zoom anchoring and tests, which need to know where a page point lands on screen.
 *
 * Conversions come in pairs (`toX`/`fromX`), in the manner of pdf.js's
 * `convertToViewportPoint`/`convertToPdfPoint`. Rotations other than multiples of 90 are rejected.
 */

import type { V1Inference, V1Page } from '@extraction-review/contract/v1/schemas';

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

/**
 * A pointer's position on screen (client pixels) → the upright normalised point of the page box it is
 * over, given that box's on-screen rectangle (`getBoundingClientRect`, already turned by the view
 * rotation): how a click or a drag on a page becomes a point of the field polygons' frame.
 */
export function clientToPagePoint(
  [cx, cy]: Point,
  rect: { left: number; top: number; width: number; height: number },
  rotation: Rotation,
): Point {
  return fromViewPoint([cx - rect.left, cy - rect.top], {
    rotation,
    size: { width: rect.width, height: rect.height },
  });
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

/** A box grown by `margin` on every side. */
export function growBox({ x0, y0, x1, y1 }: Box, margin: number): Box {
  return { x0: x0 - margin, y0: y0 - margin, x1: x1 + margin, y1: y1 + margin };
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

/**
 * The clockwise turn that shows a v1 page's stored image upright: `orientation.value`, except when
 * `is_rotation_applied` is null (or absent, which the schema reads as null). The spec defines null as
 * "no orientation information", and every recorded response with null also has `orientation.value:
 * null` on every page (41 of them in the corpus; the 5 without the flag have 0 or null). So the page
 * is shown as stored, the frame in which `v1PolygonToUpright` leaves such polygons: page and
 * polygons stay together even if a response ever paired null with a turn.
 */
export function v1UprightRotation(
  orientation: V1Page['orientation']['value'] | undefined,
  isRotationApplied: V1Inference['is_rotation_applied'] | undefined,
): Rotation {
  if (isRotationApplied == null || orientation == null) return 0;
  return toRotation(orientation);
}

/** Size of a v1 page as shown upright, from the size of its stored image. */
export function v1UprightSize(
  stored: Size,
  orientation: V1Page['orientation']['value'] | undefined,
  isRotationApplied: V1Inference['is_rotation_applied'] | undefined,
): Size {
  return rotateSize(stored, v1UprightRotation(orientation, isRotationApplied));
}

/**
 * The inverse of `v1PolygonToUpright`: an upright polygon in the frame the response itself uses, for
 * a polygon drawn by the operator to sit beside the service's own.
 */
export function v1PolygonFromUpright(
  polygon: Polygon,
  orientation: V1Page['orientation']['value'] | undefined,
  isRotationApplied: V1Inference['is_rotation_applied'] | undefined,
): Polygon {
  if (isRotationApplied !== false || orientation == null) return polygon;
  const rotation = toRotation(orientation);
  return rotation === 0 ? polygon : polygon.map((p) => unrotatePoint(p, rotation));
}

function round(n: number): number {
  return Math.round(n * 1e6) / 1e6;
}

/** Area of a polygon (shoelace formula), in the square of its frame's units. */
export function polygonArea(polygon: Polygon): number {
  let twice = 0;
  for (let i = 0; i < polygon.length; i++) {
    const [x0, y0] = polygon[i] ?? [0, 0];
    const [x1, y1] = polygon[(i + 1) % polygon.length] ?? [0, 0];
    twice += x0 * y1 - x1 * y0;
  }
  return Math.abs(twice) / 2;
}

// ─── Text runs ───────────────────────────────────────────────────────────────────────────────────

/** A box cut to the page (0..1 on both axes): text running past the page's edge is cut there. */
export function clampBoxToPage({ x0, y0, x1, y1 }: Box): Box {
  const clamp = (v: number) => Math.min(1, Math.max(0, v));
  return { x0: clamp(x0), y0: clamp(y0), x1: clamp(x1), y1: clamp(y1) };
}

// ─── Page box ────────────────────────────────────────────────────────────────────────────────────

/**
 * CSS transform of a page box of its own (unturned) size, centred in a slot of its turned size: the
 * bitmap and the overlay inside turn together, like pdf.js's `data-main-rotation`.
 */
export function pageBoxTransform(rotation: Rotation): string {
  return rotation === 0 ? 'translate(-50%, -50%)' : `translate(-50%, -50%) rotate(${rotation}deg)`;
}

/**
 * The device pixels per CSS pixel to draw a bitmap of `size` CSS pixels with: the screen's own
 * ratio, lowered when the bitmap would exceed `maxPixels` (a zoomed-in page would otherwise ask for a
 * canvas of hundreds of megabytes; the browser stretches the smaller one).
 */
export function renderPixelRatio(size: Size, devicePixelRatio: number, maxPixels: number): number {
  const area = size.width * size.height;
  if (area <= 0) return devicePixelRatio;
  return Math.min(devicePixelRatio, Math.sqrt(maxPixels / area));
}

/**
 * A TIFF/EXIF orientation (tag 274, 1..8) as the canvas transform `[a, b, c, d, e, f]` that draws the
 * stored picture upright, with the upright size. Anything else is taken as 1 (as stored).
 */
export function orientationTransform(
  orientation: number,
  stored: Size,
): { size: Size; matrix: readonly [number, number, number, number, number, number] } {
  const { width: w, height: h } = stored;
  const turned = { width: h, height: w };
  switch (orientation) {
    case 2:
      return { size: stored, matrix: [-1, 0, 0, 1, w, 0] };
    case 3:
      return { size: stored, matrix: [-1, 0, 0, -1, w, h] };
    case 4:
      return { size: stored, matrix: [1, 0, 0, -1, 0, h] };
    case 5:
      return { size: turned, matrix: [0, 1, 1, 0, 0, 0] };
    case 6:
      return { size: turned, matrix: [0, 1, -1, 0, h, 0] };
    case 7:
      return { size: turned, matrix: [0, -1, -1, 0, h, w] };
    case 8:
      return { size: turned, matrix: [0, -1, 1, 0, 0, w] };
    default:
      return { size: stored, matrix: [1, 0, 0, 1, 0, 0] };
  }
}

// ─── Layout: pages in the content frame ──────────────────────────────────────────────────────────

export interface PageSlot {
  /** The turned page box in the content frame, in pixels. */
  top: number;
  left: number;
  width: number;
  height: number;
  /** The page box before the view rotation (the size the bitmap is drawn at), in pixels. */
  box: Size;
}

export interface PageLayout {
  rotation: Rotation;
  /** Pixels per unit of the pages' natural size (PDF points, image pixels). */
  scale: number;
  slots: readonly PageSlot[];
  /** The content's size, in pixels. */
  width: number;
  height: number;
}

export interface LayoutInput {
  /** Each page's natural size as displayed (PDF `/Rotate` applied, pictures upright). */
  sizes: readonly Size[];
  /** The width the widest turned page fills at zoom 1 (the viewport's width less the padding). */
  fitWidth: number;
  /** 1 = fit width. */
  zoom: number;
  rotation: Rotation;
  /** Space between pages, and round the content. */
  gap: number;
  padding: number;
}

/**
 * Pages one under another at one scale: at zoom 1 the widest page (as turned) fills `fitWidth`,
 * so pages of different sizes keep their proportions; each page is centred across the content.
 */
export function layoutPages({ sizes, fitWidth, zoom, rotation, gap, padding }: LayoutInput): PageLayout {
  const widest = Math.max(0, ...sizes.map((s) => rotateSize(s, rotation).width));
  const scale = widest > 0 && fitWidth > 0 ? (fitWidth / widest) * zoom : 0;
  const width = Math.max(fitWidth, widest * scale) + 2 * padding;
  let top = padding;
  const slots = sizes.map((size) => {
    const turned = rotateSize(size, rotation);
    const slot: PageSlot = {
      top,
      left: (width - turned.width * scale) / 2,
      width: turned.width * scale,
      height: turned.height * scale,
      box: { width: size.width * scale, height: size.height * scale },
    };
    top += slot.height + gap;
    return slot;
  });
  const height = slots.length > 0 ? top - gap + padding : 2 * padding;
  return { rotation, scale, slots, width, height };
}

/** Index of the first slot whose bottom edge is at or below `y` (binary search), or slots.length. */
function firstEndingAfter(slots: readonly PageSlot[], y: number): number {
  let lo = 0;
  let hi = slots.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const s = slots[mid];
    if (s && s.top + s.height < y) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export interface ViewportRect {
  /** The scroll offset: the viewport's top-left corner in the content frame. */
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * The pages to mount: those meeting the viewport grown by `overscan` pixels above and below, as an
 * inclusive range, or null when none does (no pages, or an empty viewport).
 */
export function pagesInWindow(
  layout: PageLayout,
  viewport: Pick<ViewportRect, 'top' | 'height'>,
  overscan: number,
): { first: number; last: number } | null {
  const { slots } = layout;
  if (slots.length === 0 || viewport.height <= 0) return null;
  const top = viewport.top - overscan;
  const bottom = viewport.top + viewport.height + overscan;
  const first = firstEndingAfter(slots, top);
  let last = first - 1;
  while (last + 1 < slots.length && (slots[last + 1]?.top ?? Infinity) <= bottom) last++;
  return last >= first ? { first, last } : null;
}

/**
 * The page the operator is looking at: the one showing the most of its height in the viewport
 * (the earlier page on a tie); the last page once the content is scrolled to its end.
 */
export function pageInView(layout: PageLayout, viewport: Pick<ViewportRect, 'top' | 'height'>): number {
  const { slots } = layout;
  if (slots.length === 0) return 0;
  const bottom = viewport.top + viewport.height;
  if (bottom >= layout.height - 1 && viewport.top > 0) return slots.length - 1;
  let best = 0;
  let bestShown = -1;
  for (let i = firstEndingAfter(slots, viewport.top); i < slots.length; i++) {
    const s = slots[i];
    if (!s || s.top > bottom) break;
    const shown = Math.min(bottom, s.top + s.height) - Math.max(viewport.top, s.top);
    if (shown > bestShown + 0.5) {
      best = i;
      bestShown = shown;
    }
  }
  return best;
}

/** An upright normalised point of a page → its pixel in the content frame. */
export function pageToContentPoint(layout: PageLayout, page: number, point: Point): Point {
  const slot = layout.slots[page];
  if (!slot) throw new RangeError(`No page ${page} in a layout of ${layout.slots.length}`);
  const [x, y] = toViewPoint(point, { rotation: layout.rotation, size: slot });
  return [slot.left + x, slot.top + y];
}

/**
 * A pixel of the content frame → the page it falls on (or the nearest page, for a point between
 * pages) and its upright normalised point there (outside 0..1 when it is off the page).
 */
export function contentToPagePoint(layout: PageLayout, [x, y]: Point): { page: number; point: Point } | null {
  const { slots } = layout;
  if (slots.length === 0) return null;
  let page = Math.min(firstEndingAfter(slots, y), slots.length - 1);
  const next = slots[page];
  const previous = slots[page - 1];
  // In the gap above `next`: take whichever page is nearer.
  if (next && previous && y < next.top && y - (previous.top + previous.height) < next.top - y) page--;
  const slot = slots[page];
  if (!slot) return null;
  return {
    page,
    point: fromViewPoint([x - slot.left, y - slot.top], { rotation: layout.rotation, size: slot }),
  };
}

/** The bounding box, in the content frame, of a polygon (upright normalised) on a page. */
export function polygonContentBox(layout: PageLayout, page: number, polygon: Polygon): Box {
  return boundingBox(polygon.map((p) => pageToContentPoint(layout, page, p)));
}

/**
 * The scroll offset that keeps the content point under `anchor` (a pixel of the viewport) under it
 * after the layout changes (zoom, rotation, resize, pages measured): the point is carried through its
 * page's upright frame, so it stays on the same spot of the same page.
 */
export function anchoredScroll(
  before: PageLayout,
  after: PageLayout,
  scroll: { left: number; top: number },
  anchor: Point,
): { left: number; top: number } {
  const [ax, ay] = anchor;
  const found = contentToPagePoint(before, [scroll.left + ax, scroll.top + ay]);
  if (!found || found.page >= after.slots.length) return scroll;
  const [x, y] = pageToContentPoint(after, found.page, found.point);
  return { left: Math.max(0, x - ax), top: Math.max(0, y - ay) };
}

/**
 * The scroll offset that shows `box` (content frame): unchanged along an axis where the box is
 * already in view (with `margin` pixels to spare), centred on it along an axis where it is not.
 * Null when nothing needs to move.
 */
export function revealScroll(
  box: Box,
  viewport: ViewportRect,
  margin: number,
): { left: number; top: number } | null {
  const axis = (lo: number, hi: number, start: number, length: number): number => {
    if (lo >= start + margin && hi <= start + length - margin) return start;
    return Math.max(0, (lo + hi) / 2 - length / 2);
  };
  const left = axis(box.x0, box.x1, viewport.left, viewport.width);
  const top = axis(box.y0, box.y1, viewport.top, viewport.height);
  return left === viewport.left && top === viewport.top ? null : { left, top };
}

/** The scroll offset that puts a page's top edge `margin` pixels below the viewport's top. */
export function pageTopScroll(layout: PageLayout, page: number, margin: number): number {
  const slot = layout.slots[page];
  return slot ? Math.max(0, slot.top - margin) : 0;
}

/**
 * The zoom after a ctrl/cmd-wheel turn: exponential in the wheel's travel, so that a trackpad pinch
 * (many small deltas) and a mouse wheel (a few large ones) zoom alike.
 */
export function zoomForWheel(zoom: number, deltaY: number, deltaMode: number): number {
  const pixels = deltaMode === 1 ? deltaY * 16 : deltaMode === 2 ? deltaY * 800 : deltaY;
  return zoom * Math.exp(-pixels * 0.002);
}
