/**
 * Page orientation with tesseract's OSD, offline, against the hosted service's own answers: the
 * corpus's multi-receipt photo turned 0/90/180/270 degrees, whose v1 responses say
 * `orientation.value` 0/90/180/270 (the clockwise rotation that makes the page upright).
 */
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fixturesDir } from '@extraction-review/test-kit/fixtures-dir';
import { drawTextPicture } from '@extraction-review/test-kit/reference/documents-images';
import { rotateGrey } from './grey-image';
import { closeOrientationDetection, detectOrientation, detectOrientationWithConfidence } from './orientation';

afterAll(async () => {
  await closeOrientationDetection();
});

const photo = (suffix: string) =>
  path.join(fixturesDir, 'v1/products/multi_receipts_detector', `default_sample${suffix}.jpg`);

describe('detectOrientation', () => {
  it.each([
    ['', 0],
    ['_90', 90],
    ['_180', 180],
    ['_270', 270],
  ])('default_sample%s.jpg → %i, as the hosted service answers', async (suffix, degrees) => {
    expect(await detectOrientation(photo(suffix))).toBe(degrees);
  });

  it('a page of text turned clockwise by 90/180/270 needs the rest of the turn to be upright', async () => {
    const lines = Array.from({ length: 12 }, (_, i) => ({
      text: `Line ${i + 1}: the quick brown fox jumps over the lazy dog`,
      x: 40,
      y: 750 - i * 40,
      size: 14,
    }));
    const { image } = await drawTextPicture({ lines }, 100);
    for (const turn of [0, 90, 180, 270] as const) {
      const turned = await rotateGrey(image, turn);
      expect(await detectOrientation(turned), `turned ${turn}`).toBe((360 - turn) % 360);
    }
  });

  it('a page without text: 0, with no confidence', async () => {
    const blank = { data: new Uint8Array(300 * 400).fill(255), width: 300, height: 400 };
    expect(await detectOrientationWithConfidence(blank)).toEqual({ degrees: 0, confidence: null });
  });
});
