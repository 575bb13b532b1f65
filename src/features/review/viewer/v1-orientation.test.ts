// @vitest-environment node
/**
 * geometry.ts's v1 orientation functions against the recorded responses: `multi_receipts_detector`
 * holds one photo stored four ways (`default_sample.jpg`, `_90`, `_180`, `_270`) with the service's
 * answer for each. sharp turns and crops the real pixels, independently of geometry.ts, so a mapping
 * that puts a polygon in the wrong place lands on the wrong pixels and fails.
 *
 * The service only answered `is_rotation_applied: true` for these photos. The raw-frame polygons
 * (`false`, and `null`, which means no orientation information) are the recorded upright polygons turned
 * back; the pixel checks show they do cover the same receipt in the stored file.
 */
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { fixturesDir } from '@extraction-review/test-kit/fixtures-dir';
import { V1PredictResponse, type V1Inference } from '@extraction-review/contract/v1/schemas';
import {
  boundingBox,
  toRotation,
  v1PolygonFromUpright,
  v1PolygonToUpright,
  v1UprightRotation,
  v1UprightSize,
  type Polygon,
  type Rotation,
  type Size,
} from '@extraction-review/review-domain/viewer/geometry';

const dir = path.join(fixturesDir, 'v1/products/multi_receipts_detector');
const orientations = [0, 90, 180, 270] as const;
const flags: V1Inference['is_rotation_applied'][] = [true, false, null];

const imagePath = (o: Rotation) => path.join(dir, o === 0 ? 'default_sample.jpg' : `default_sample_${o}.jpg`);

function load(o: Rotation) {
  const name = o === 0 ? 'complete.json' : `complete_${o}.json`;
  const body = V1PredictResponse.parse(
    JSON.parse(fs.readFileSync(path.join(dir, 'response_v1', name), 'utf8')),
  );
  const { inference } = body.document;
  const page = inference.pages[0];
  if (!page) throw new Error(`${name} has no page`);
  const receipts = inference.prediction.receipts;
  if (!Array.isArray(receipts)) throw new Error(`${name} has no list of receipts`);
  const polygons = receipts.map((r) => r.bounding_box ?? []);
  return { inference, page, polygons };
}

const responses = new Map(orientations.map((o) => [o, load(o)] as const));
const response = (o: Rotation) => {
  const r = responses.get(o);
  if (!r) throw new Error(`no response for ${o}`);
  return r;
};

async function storedSize(o: Rotation): Promise<Size> {
  const { width, height } = await sharp(imagePath(o)).metadata();
  return { width, height };
}

const THUMB = { width: 24, height: 64 };

/**
 * The part of a stored photo under `polygon`'s bounding box once the photo is turned by `turn`, then
 * turned by `after` and shrunk to a small grey thumbnail to compare with another.
 */
async function thumbnail(o: Rotation, turn: Rotation, polygon: Polygon, after: Rotation): Promise<Buffer> {
  const shown = await turned(o, turn);
  const { width, height } = shown.info;
  const box = boundingBox(polygon);
  const left = Math.round(box.x0 * width);
  const top = Math.round(box.y0 * height);
  // One pipeline per turn: sharp turns before it extracts whatever order the calls are written in.
  const crop = await sharp(shown.data, { raw: shown.info })
    .extract({
      left,
      top,
      width: Math.round(box.x1 * width) - left,
      height: Math.round(box.y1 * height) - top,
    })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return sharp(crop.data, { raw: crop.info })
    .rotate(after)
    .resize({ ...THUMB, fit: 'fill' })
    .greyscale()
    .raw()
    .toBuffer();
}

const decode = (o: Rotation, turn: Rotation) =>
  sharp(imagePath(o)).rotate(turn).raw().toBuffer({ resolveWithObject: true });

/** A stored photo's pixels turned by `turn`, decoded once per photo and turn. */
const decoded = new Map<string, ReturnType<typeof decode>>();
function turned(o: Rotation, turn: Rotation) {
  const key = `${o}/${turn}`;
  let pixels = decoded.get(key);
  if (!pixels) {
    pixels = decode(o, turn);
    decoded.set(key, pixels);
  }
  return pixels;
}

/** A stored photo turned by `turn`, shrunk to a small grey thumbnail. */
async function wholePhoto(o: Rotation, turn: Rotation): Promise<Buffer> {
  const { data, info } = await turned(o, turn);
  return sharp(data, { raw: info }).resize(64, 64, { fit: 'fill' }).greyscale().raw().toBuffer();
}

function meanDifference(a: Buffer, b: Buffer): number {
  expect(a.length).toBe(b.length);
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs((a[i] ?? 0) - (b[i] ?? 0));
  return sum / a.length;
}

function expectSamePolygon(actual: Polygon, expected: Polygon) {
  expect(actual).toHaveLength(expected.length);
  actual.forEach(([x, y], i) => {
    expect(x).toBeCloseTo(expected[i]?.[0] ?? NaN, 9);
    expect(y).toBeCloseTo(expected[i]?.[1] ?? NaN, 9);
  });
}

// The receipts, as the service placed them on the upright photo.
const upright = response(0).polygons;
// A tall receipt away from the centre: turned the wrong way, its box falls on other pixels.
const RECEIPT = 3;

describe('v1 orientation: the recorded photo stored four ways', () => {
  it('reads the orientation the service reported for each stored photo, rotation applied', () => {
    for (const o of orientations) {
      const { inference, page } = response(o);
      expect(page.orientation.value).toBe(o);
      expect(inference.is_rotation_applied).toBe(true);
    }
  });

  it.each(orientations)(
    'turns the photo stored at %i degrees upright by orientation.value (sharp agrees pixel for pixel)',
    async (o) => {
      const rotation = v1UprightRotation(o, true);
      expect(rotation).toBe(o);
      const [reference, shown] = await Promise.all([wholePhoto(0, 0), wholePhoto(o, rotation)]);
      expect(meanDifference(shown, reference)).toBeLessThan(3);
      if (o === 90 || o === 270) {
        // The opposite quarter turn leaves the photo upside down, far from the reference.
        expect(meanDifference(await wholePhoto(o, toRotation(-o)), reference)).toBeGreaterThan(8);
      }
      expect(v1UprightSize(await storedSize(o), o, true)).toEqual(await storedSize(0));
      expect(v1UprightSize(await storedSize(o), o, false)).toEqual(await storedSize(0));
    },
  );
});

describe.each(orientations)('v1 orientation %i', (o) => {
  const recorded = response(o).polygons;
  // What the service would answer for this file with no turn applied: the same receipts in the
  // stored file's own frame.
  const raw = upright.map((p) => v1PolygonFromUpright(p, o, false));

  it.each(flags)(
    'is_rotation_applied %s: the receipt lands on its own pixels in the page as shown',
    async (flag) => {
      const given = flag === true ? recorded : raw;
      const polygon = given[RECEIPT] ?? [];
      const turn = v1UprightRotation(o, flag);
      const mapped = v1PolygonToUpright(polygon, o, flag);

      if (flag === null) {
        // No orientation information: the page stays as stored, and so do its polygons.
        expect(turn).toBe(0);
        expect(v1UprightSize(await storedSize(o), o, flag)).toEqual(await storedSize(o));
        expect(mapped).toBe(polygon);
      } else {
        // Turned upright, every receipt is where the service put it on the upright photo.
        expect(turn).toBe(o);
        given.forEach((p, i) => expectSamePolygon(v1PolygonToUpright(p, o, flag), upright[i] ?? []));
      }

      // The page as shown is the upright photo turned by `turn - o`: each crop is turned back upright
      // before the comparison, so both are thumbnails of a standing receipt.
      const back = toRotation(o - turn);
      const reference = await thumbnail(0, 0, upright[RECEIPT] ?? [], 0);
      const shown = await thumbnail(o, turn, mapped, back);
      expect(meanDifference(shown, reference)).toBeLessThan(8);

      if (o !== 0) {
        // The check can fail: read under the other convention, the polygon covers other pixels.
        const misread = flag === false ? polygon : v1PolygonToUpright(polygon, o, false);
        const misplaced = await thumbnail(o, turn, misread, back);
        expect(meanDifference(misplaced, reference)).toBeGreaterThan(12);
      }
    },
  );

  it.each(flags)('is_rotation_applied %s: upright → response frame → upright round-trips', (flag) => {
    for (const polygon of upright) {
      const back = v1PolygonFromUpright(polygon, o, flag);
      expectSamePolygon(v1PolygonToUpright(back, o, flag), polygon);
    }
    for (const polygon of flag === true ? recorded : raw) {
      expectSamePolygon(v1PolygonFromUpright(v1PolygonToUpright(polygon, o, flag), o, flag), polygon);
    }
  });
});

describe('v1 orientation without information', () => {
  it('shows the page as stored when orientation.value is null, whatever the flag', () => {
    const polygon = upright[0] ?? [];
    for (const flag of flags) {
      expect(v1UprightRotation(null, flag)).toBe(0);
      expect(v1UprightRotation(undefined, flag)).toBe(0);
      expect(v1UprightSize({ width: 3, height: 5 }, null, flag)).toEqual({ width: 3, height: 5 });
      expect(v1PolygonToUpright(polygon, null, flag)).toBe(polygon);
      expect(v1PolygonFromUpright(polygon, null, flag)).toBe(polygon);
    }
  });

  it('rejects an orientation that is not a quarter turn', () => {
    expect(() => v1UprightRotation(45, true)).toThrow(RangeError);
    expect(() => v1PolygonFromUpright([[0, 0]], 45, false)).toThrow(RangeError);
  });
});
