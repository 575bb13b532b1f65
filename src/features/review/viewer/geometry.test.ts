import { describe, expect, it } from 'vitest';
import {
  addRotations,
  boundingBox,
  boxToPolygon,
  centreOf,
  fromViewPoint,
  rotatePoint,
  rotatePolygon,
  rotateSize,
  toRotation,
  toSvgPoints,
  toViewPoint,
  unrotatePoint,
  v1PolygonToUpright,
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
