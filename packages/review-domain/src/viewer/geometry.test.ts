import { describe, expect, it } from 'vitest';
import {
  addRotations,
  clampBoxToPage,
  anchoredScroll,
  boundingBox,
  clientToPagePoint,
  boxToPolygon,
  centreOf,
  contentToPagePoint,
  fromViewPoint,
  growBox,
  layoutPages,
  orientationTransform,
  pageBoxTransform,
  pageInView,
  pagesInWindow,
  pageToContentPoint,
  pageTopScroll,
  polygonArea,
  polygonContentBox,
  renderPixelRatio,
  revealScroll,
  rotatePoint,
  rotatePolygon,
  rotateSize,
  toRotation,
  toSvgPoints,
  toViewPoint,
  unrotatePoint,
  v1PolygonToUpright,
  zoomForWheel,
  type LayoutInput,
  type Point,
  type Rotation,
} from './geometry';

const rotations: Rotation[] = [0, 90, 180, 270];

describe('rotations', () => {
  it('normalises multiples of 90 and rejects anything else', () => {
    expect(toRotation(-90)).toBe(270);
    expect(toRotation(450)).toBe(90);
    expect(toRotation(360)).toBe(0);
    expect(() => toRotation(45)).toThrow(RangeError);
    expect(() => toRotation(Number.NaN)).toThrow(RangeError);
  });

  it('moves the top-left corner clockwise round the page', () => {
    expect(rotatePoint([0, 0], 90)).toEqual([1, 0]);
    expect(rotatePoint([0, 0], 180)).toEqual([1, 1]);
    expect(rotatePoint([0, 0], 270)).toEqual([0, 1]);
  });

  it('keeps points inside the unit square and is undone by unrotatePoint', () => {
    const p: Point = [0.2, 0.7];
    for (const r of rotations) {
      const q = rotatePoint(p, r);
      expect(q[0]).toBeGreaterThanOrEqual(0);
      expect(q[1]).toBeLessThanOrEqual(1);
      const back = unrotatePoint(q, r);
      expect(back[0]).toBeCloseTo(p[0]);
      expect(back[1]).toBeCloseTo(p[1]);
    }
  });

  it('composes: two quarter turns are a half turn', () => {
    const p: Point = [0.1, 0.3];
    expect(rotatePoint(rotatePoint(p, 90), 90)).toEqual(rotatePoint(p, 180));
    expect(addRotations(270, 180)).toBe(90);
  });

  it('swaps width and height on quarter turns', () => {
    expect(rotateSize({ width: 600, height: 800 }, 90)).toEqual({ width: 800, height: 600 });
    expect(rotateSize({ width: 600, height: 800 }, 180)).toEqual({ width: 600, height: 800 });
  });
});

describe('view transform', () => {
  it('maps normalised points to pixels and back for every view rotation', () => {
    const p: Point = [0.25, 0.6];
    for (const rotation of rotations) {
      const view = { rotation, size: rotateSize({ width: 612, height: 792 }, rotation) };
      const px = toViewPoint(p, view);
      const back = fromViewPoint(px, view);
      expect(back[0]).toBeCloseTo(p[0], 10);
      expect(back[1]).toBeCloseTo(p[1], 10);
    }
  });

  it('places a point on the right pixel with a quarter turn', () => {
    // A 600x800 portrait page turned 90 degrees shows as 800x600; its top-left corner is now top-right.
    expect(toViewPoint([0, 0], { rotation: 90, size: { width: 800, height: 600 } })).toEqual([800, 0]);
  });
});

describe('polygons', () => {
  const square = boxToPolygon({ x0: 0.1, y0: 0.2, x1: 0.3, y1: 0.5 });

  it('builds clockwise boxes and finds bounding boxes and centres', () => {
    expect(square).toEqual([
      [0.1, 0.2],
      [0.3, 0.2],
      [0.3, 0.5],
      [0.1, 0.5],
    ]);
    expect(boundingBox(rotatePolygon(square, 180))).toEqual({
      x0: 0.7,
      y0: 0.5,
      x1: 0.9,
      y1: 0.8,
    });
    const [cx, cy] = centreOf(square);
    expect(cx).toBeCloseTo(0.2);
    expect(cy).toBeCloseTo(0.35);
    expect(() => boundingBox([])).toThrow(RangeError);
  });

  it('grows a box on every side', () => {
    const grown = growBox({ x0: 0.25, y0: 0.5, x1: 0.5, y1: 0.75 }, 0.125);
    expect(grown).toEqual({ x0: 0.125, y0: 0.375, x1: 0.625, y1: 0.875 });
  });

  it('writes SVG points with bounded precision', () => {
    expect(toSvgPoints([[0.123456789, 1]])).toBe('0.123457,1');
  });
});

describe('v1 polygons', () => {
  const raw = boxToPolygon({ x0: 0.1, y0: 0.1, x1: 0.2, y1: 0.2 });

  it('leaves polygons alone when rotation was applied or is unknown', () => {
    expect(v1PolygonToUpright(raw, 90, true)).toBe(raw);
    expect(v1PolygonToUpright(raw, 90, null)).toBe(raw);
    expect(v1PolygonToUpright(raw, null, false)).toBe(raw);
  });

  it('turns raw-frame polygons with the page when rotation was not applied', () => {
    expect(v1PolygonToUpright(raw, 90, false)).toEqual(rotatePolygon(raw, 90));
  });
});

// ─── Viewer layout: pages in the content frame ───────────────────────────────────────────────────

const letter = { width: 612, height: 792 };
const landscape = { width: 792, height: 612 };
const input = (over: Partial<LayoutInput> = {}): LayoutInput => ({
  sizes: [letter, letter, letter],
  fitWidth: 612,
  zoom: 1,
  rotation: 0,
  gap: 10,
  padding: 20,
  ...over,
});

describe('page layout', () => {
  it('stacks the pages at one scale, the widest filling the fitted width at zoom 1', () => {
    const layout = layoutPages(input({ sizes: [letter, landscape], fitWidth: 396 }));
    expect(layout.scale).toBeCloseTo(0.5);
    expect(layout.slots[0]).toMatchObject({ top: 20, width: 306, height: 396 });
    expect(layout.slots[1]).toMatchObject({ top: 20 + 396 + 10, width: 396, height: 306 });
    expect(layout.height).toBeCloseTo(20 + 396 + 10 + 306 + 20);
    // Each page centred across the content.
    expect(layout.width).toBe(396 + 40);
    expect(layout.slots[0]?.left).toBeCloseTo((436 - 306) / 2);
    expect(layout.slots[1]?.left).toBeCloseTo(20);
  });

  it('scales with zoom and widens the content past the viewport', () => {
    const layout = layoutPages(input({ zoom: 2 }));
    expect(layout.scale).toBe(2);
    expect(layout.slots[0]).toMatchObject({ left: 20, width: 1224, height: 1584 });
    expect(layout.width).toBe(1224 + 40);
  });

  it('turns the slots with the view rotation, keeping the page box unturned', () => {
    const layout = layoutPages(input({ rotation: 90, fitWidth: 792 }));
    expect(layout.scale).toBe(1);
    expect(layout.slots[0]).toMatchObject({ width: 792, height: 612, box: { width: 612, height: 792 } });
  });

  it('lays out nothing without pages or width', () => {
    expect(layoutPages(input({ sizes: [] })).slots).toEqual([]);
    expect(layoutPages(input({ fitWidth: 0 })).scale).toBe(0);
  });
});

describe('page windowing', () => {
  // 100 pages of 792 px with 10 px gaps: page n starts at 20 + 802 n.
  const layout = layoutPages(input({ sizes: Array.from({ length: 100 }, () => letter) }));

  it('mounts the pages meeting the viewport and its overscan', () => {
    expect(pagesInWindow(layout, { top: 0, height: 900 }, 0)).toEqual({ first: 0, last: 1 });
    expect(pagesInWindow(layout, { top: 0, height: 900 }, 900)).toEqual({ first: 0, last: 2 });
    // Page 50 spans 40 120..40 912.
    expect(pagesInWindow(layout, { top: 40_200, height: 500 }, 0)).toEqual({ first: 50, last: 50 });
    expect(pagesInWindow(layout, { top: 40_200, height: 500 }, 400)).toEqual({ first: 49, last: 51 });
  });

  it('mounts only a handful of pages anywhere in a long document', () => {
    for (let top = 0; top < layout.height; top += 3000) {
      const range = pagesInWindow(layout, { top, height: 900 }, 450);
      expect(range).not.toBeNull();
      if (range) expect(range.last - range.first).toBeLessThanOrEqual(3);
    }
  });

  it('mounts nothing for an empty viewport or past the end', () => {
    expect(pagesInWindow(layout, { top: 0, height: 0 }, 100)).toBeNull();
    expect(pagesInWindow(layout, { top: layout.height + 5000, height: 500 }, 0)).toBeNull();
    expect(pagesInWindow(layoutPages(input({ sizes: [] })), { top: 0, height: 500 }, 0)).toBeNull();
  });

  it('names the page showing the most of itself, and the last page at the end', () => {
    expect(pageInView(layout, { top: 0, height: 900 })).toBe(0);
    expect(pageInView(layout, { top: 500, height: 900 })).toBe(1);
    expect(pageInView(layout, { top: pageTopScroll(layout, 42, 0), height: 900 })).toBe(42);
    expect(pageInView(layout, { top: layout.height - 900, height: 900 })).toBe(99);
  });

  it('scrolls a page to the top of the viewport, with a margin', () => {
    expect(pageTopScroll(layout, 0, 16)).toBe(4);
    expect(pageTopScroll(layout, 3, 16)).toBe(20 + 3 * 802 - 16);
    expect(pageTopScroll(layout, 500, 16)).toBe(0);
  });
});

describe('page ↔ content frame', () => {
  it('maps page points to content pixels and back, at any zoom and rotation', () => {
    const p: Point = [0.2, 0.7];
    for (const rotation of rotations) {
      for (const zoom of [0.5, 1, 2.5]) {
        const layout = layoutPages(input({ rotation, zoom, sizes: [letter, landscape, letter] }));
        const px = pageToContentPoint(layout, 1, p);
        const back = contentToPagePoint(layout, px);
        expect(back?.page).toBe(1);
        expect(back?.point[0]).toBeCloseTo(p[0], 9);
        expect(back?.point[1]).toBeCloseTo(p[1], 9);
      }
    }
  });

  it('puts the top-left corner of the page where the view rotation sends it', () => {
    const layout = layoutPages(input({ rotation: 90, fitWidth: 792 }));
    const slot = layout.slots[0];
    // Turned a quarter clockwise, the page's top-left corner is at the slot's top-right.
    expect(pageToContentPoint(layout, 0, [0, 0])).toEqual([(slot?.left ?? 0) + 792, slot?.top]);
    expect(pageToContentPoint(layout, 0, [0, 1])).toEqual([slot?.left, slot?.top]);
  });

  it('takes the nearer page for a point between pages', () => {
    const layout = layoutPages(input());
    // Page 0 ends at 812, page 1 starts at 822.
    expect(contentToPagePoint(layout, [300, 814])?.page).toBe(0);
    expect(contentToPagePoint(layout, [300, 820])?.page).toBe(1);
    expect(contentToPagePoint(layout, [300, 814])?.point[1]).toBeGreaterThan(1);
    expect(contentToPagePoint(layoutPages(input({ sizes: [] })), [0, 0])).toBeNull();
  });

  it('boxes a polygon in content pixels, turned with the page', () => {
    const layout = layoutPages(input({ rotation: 90, fitWidth: 792 }));
    const box = polygonContentBox(layout, 0, boxToPolygon({ x0: 0.1, y0: 0.2, x1: 0.3, y1: 0.25 }));
    const slot = layout.slots[0];
    // On the turned page, y becomes x from the right and x becomes y.
    expect(box.x0).toBeCloseTo((slot?.left ?? 0) + (1 - 0.25) * 792);
    expect(box.x1).toBeCloseTo((slot?.left ?? 0) + (1 - 0.2) * 792);
    expect(box.y0).toBeCloseTo((slot?.top ?? 0) + 0.1 * 612);
    expect(box.y1).toBeCloseTo((slot?.top ?? 0) + 0.3 * 612);
  });
});

describe('zoom anchoring', () => {
  const sizes = Array.from({ length: 10 }, () => letter);

  it('keeps the point under the anchor in place when zooming', () => {
    const before = layoutPages(input({ sizes, fitWidth: 800 }));
    const after = layoutPages(input({ sizes, fitWidth: 800, zoom: 2 }));
    const scroll = { left: 0, top: 3000 };
    const anchor: Point = [250, 400];
    const under = contentToPagePoint(before, [scroll.left + anchor[0], scroll.top + anchor[1]]);
    const next = anchoredScroll(before, after, scroll, anchor);
    const still = contentToPagePoint(after, [next.left + anchor[0], next.top + anchor[1]]);
    expect(still?.page).toBe(under?.page);
    expect(still?.point[0]).toBeCloseTo(under?.point[0] ?? NaN, 9);
    expect(still?.point[1]).toBeCloseTo(under?.point[1] ?? NaN, 9);
  });

  it('keeps the same spot of the page at the centre when the view turns', () => {
    const before = layoutPages(input({ sizes, fitWidth: 800 }));
    const after = layoutPages(input({ sizes, fitWidth: 800, rotation: 90 }));
    const centre: Point = [410, 450];
    const scroll = { left: 0, top: 5000 };
    const under = contentToPagePoint(before, [centre[0], scroll.top + centre[1]]);
    const next = anchoredScroll(before, after, scroll, centre);
    const still = contentToPagePoint(after, [next.left + centre[0], next.top + centre[1]]);
    expect(still?.page).toBe(under?.page);
    expect(still?.point[0]).toBeCloseTo(under?.point[0] ?? NaN, 9);
    expect(still?.point[1]).toBeCloseTo(under?.point[1] ?? NaN, 9);
  });

  it('never asks for a negative scroll, and leaves an empty document alone', () => {
    const before = layoutPages(input({ sizes, fitWidth: 800 }));
    const after = layoutPages(input({ sizes, fitWidth: 800, zoom: 0.5 }));
    const next = anchoredScroll(before, after, { left: 0, top: 0 }, [400, 300]);
    expect(next.top).toBe(0);
    expect(next.left).toBeGreaterThanOrEqual(0);
    const empty = layoutPages(input({ sizes: [] }));
    expect(anchoredScroll(empty, after, { left: 3, top: 4 }, [0, 0])).toEqual({ left: 3, top: 4 });
  });

  it('zooms exponentially with the wheel, whatever its delta unit', () => {
    expect(zoomForWheel(1, -100, 0)).toBeCloseTo(Math.exp(0.2));
    expect(zoomForWheel(1, 100, 0)).toBeCloseTo(Math.exp(-0.2));
    expect(zoomForWheel(2, -3, 1)).toBeCloseTo(2 * Math.exp(0.096));
    expect(zoomForWheel(1, 0, 0)).toBe(1);
  });
});

describe('revealing a box', () => {
  const viewport = { left: 0, top: 1000, width: 800, height: 600 };

  it('does nothing when the box is in view with its margin', () => {
    expect(revealScroll({ x0: 100, y0: 1100, x1: 300, y1: 1200 }, viewport, 48)).toBeNull();
  });

  it('centres the box along an axis where it is not in view', () => {
    expect(revealScroll({ x0: 100, y0: 3000, x1: 300, y1: 3040 }, viewport, 48)).toEqual({
      left: 0,
      top: 2720,
    });
    expect(revealScroll({ x0: 1500, y0: 1100, x1: 1600, y1: 1200 }, viewport, 48)).toEqual({
      left: 1150,
      top: 1000,
    });
    expect(revealScroll({ x0: 10, y0: 20, x1: 30, y1: 40 }, viewport, 48)).toEqual({ left: 0, top: 0 });
  });
});

describe('page box and bitmaps', () => {
  it('turns the page box about its centre', () => {
    expect(pageBoxTransform(0)).toBe('translate(-50%, -50%)');
    expect(pageBoxTransform(270)).toBe('translate(-50%, -50%) rotate(270deg)');
  });

  it('draws at the screen ratio unless the bitmap would be too large', () => {
    expect(renderPixelRatio({ width: 1000, height: 1000 }, 2, 16e6)).toBe(2);
    expect(renderPixelRatio({ width: 4000, height: 4000 }, 2, 16e6)).toBeCloseTo(1);
    expect(renderPixelRatio({ width: 0, height: 0 }, 1.5, 16e6)).toBe(1.5);
  });

  it('measures polygon areas', () => {
    expect(polygonArea(boxToPolygon({ x0: 0.1, y0: 0.1, x1: 0.3, y1: 0.6 }))).toBeCloseTo(0.1);
    expect(
      polygonArea([
        [0, 0],
        [1, 0],
        [0, 1],
      ]),
    ).toBeCloseTo(0.5);
  });
});

describe('TIFF/EXIF orientation', () => {
  const stored = { width: 40, height: 30 };
  // Where the stored picture's top-left and top-right corners land once upright.
  const apply = ([a, b, c, d, e, f]: readonly number[], [x, y]: Point): Point => [
    (a ?? 0) * x + (c ?? 0) * y + (e ?? 0),
    (b ?? 0) * x + (d ?? 0) * y + (f ?? 0),
  ];
  const cases: [number, Point, Point, { width: number; height: number }][] = [
    [1, [0, 0], [40, 0], stored],
    [2, [40, 0], [0, 0], stored],
    [3, [40, 30], [0, 30], stored],
    [4, [0, 30], [40, 30], stored],
    [5, [0, 0], [0, 40], { width: 30, height: 40 }],
    [6, [30, 0], [30, 40], { width: 30, height: 40 }],
    [7, [30, 40], [30, 0], { width: 30, height: 40 }],
    [8, [0, 40], [0, 0], { width: 30, height: 40 }],
  ];

  it.each(cases)('orientation %i draws the picture upright', (orientation, topLeft, topRight, size) => {
    const t = orientationTransform(orientation, stored);
    expect(t.size).toEqual(size);
    expect(apply(t.matrix, [0, 0])).toEqual(topLeft);
    expect(apply(t.matrix, [40, 0])).toEqual(topRight);
  });

  it('takes an unknown orientation as stored', () => {
    expect(orientationTransform(0, stored)).toEqual(orientationTransform(1, stored));
  });
});

describe('clientToPagePoint', () => {
  const rect = { left: 100, top: 50, width: 300, height: 400 };
  it('reads a click on an upright page', () => {
    expect(clientToPagePoint([250, 150], rect, 0)).toEqual([0.5, 0.25]);
  });
  it('reads a click on a page turned a quarter: the top-left of the screen box is the bottom-left of the page', () => {
    const [x, y] = clientToPagePoint([100, 50], rect, 90);
    expect([x, y]).toEqual([0, 1]);
    // And back: the page point lands where it was clicked.
    expect(toViewPoint([x, y], { rotation: 90, size: { width: 300, height: 400 } })).toEqual([0, 0]);
  });
});

describe('clampBoxToPage', () => {
  it('cuts a box at the page’s edges', () => {
    expect(clampBoxToPage({ x0: -0.1, y0: 0.2, x1: 1.3, y1: 0.4 })).toEqual({
      x0: 0,
      y0: 0.2,
      x1: 1,
      y1: 0.4,
    });
  });
});
