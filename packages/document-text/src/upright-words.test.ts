/**
 * A photo taken sideways is read upright and its words' boxes brought back to the picture as stored:
 * the transform (each quarter turn, the inverse of turning a point clockwise), and a picture made
 * with sharp, its text turned a quarter, whose turn is found and whose words land where they are.
 */
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import type { Box } from './geometry';
import { fromSharp } from './ocr/grey-image';
import { closeOrientationDetection } from './ocr/orientation';
import { sharedOcr } from './ocr/tesseract-ocr';
import { readUpright, turnBoxBack } from './upright-words';

/** Turning a normalised point clockwise by `turn` (review-domain's rotatePoint). */
function turnPoint([x, y]: [number, number], turn: 0 | 90 | 180 | 270): [number, number] {
  if (turn === 90) return [1 - y, x];
  if (turn === 180) return [1 - x, 1 - y];
  if (turn === 270) return [y, 1 - x];
  return [x, y];
}

function turnBox(box: Box, turn: 0 | 90 | 180 | 270): Box {
  const [ax, ay] = turnPoint([box.x0, box.y0], turn);
  const [bx, by] = turnPoint([box.x1, box.y1], turn);
  return { x0: Math.min(ax, bx), y0: Math.min(ay, by), x1: Math.max(ax, bx), y1: Math.max(ay, by) };
}

afterAll(async () => {
  await closeOrientationDetection();
  await sharedOcr().close();
});

describe('turnBoxBack', () => {
  const box = { x0: 0.1, y0: 0.2, x1: 0.4, y1: 0.3 };

  it.each([0, 90, 180, 270] as const)('undoes a clockwise turn of %i°', (turn) => {
    const back = turnBoxBack(turnBox(box, turn), turn);
    expect(back.x0).toBeCloseTo(box.x0);
    expect(back.y0).toBeCloseTo(box.y0);
    expect(back.x1).toBeCloseTo(box.x1);
    expect(back.y1).toBeCloseTo(box.y1);
  });

  it('puts a word of the upright picture where it stands in the stored one (a quarter clockwise)', () => {
    // Upright, a word at the top left; stored turned a quarter counter-clockwise (upright = +90°),
    // that corner is at the bottom left.
    expect(turnBoxBack({ x0: 0, y0: 0, x1: 0.5, y1: 0.1 }, 90)).toEqual({ x0: 0, y0: 0.5, x1: 0.1, y1: 1 });
  });
});

describe('readUpright', () => {
  it('finds the turn of a picture taken sideways, and its words in the picture as stored', async () => {
    const lines = ['ACME Supplies Ltd', 'Invoice number INV-2024-0042', 'Total amount due 1,234.56'];
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="500"><rect width="1200" height="500" fill="#fff"/>' +
      lines
        .map(
          (l, i) => `<text x="60" y="${120 + i * 120}" font-family="DejaVu Sans" font-size="56">${l}</text>`,
        )
        .join('') +
      '</svg>';
    // Taken sideways: the text runs upwards (the picture turned a quarter counter-clockwise).
    const image = await fromSharp(sharp(Buffer.from(svg)).flatten({ background: '#ffffff' }).rotate(270));
    expect(image.height).toBeGreaterThan(image.width);
    const { words, turn } = await readUpright(image, sharedOcr());
    expect(turn).toBe(90);
    const total = words.find((w) => w.text === '1,234.56');
    expect(total).toBeDefined();
    // In the stored picture the last line is the rightmost column, running upwards: taller than wide.
    const box = total?.box ?? { x0: 0, y0: 0, x1: 0, y1: 0 };
    expect(box.x0).toBeGreaterThan(0.5);
    expect(box.y1 - box.y0).toBeGreaterThan(box.x1 - box.x0);
  }, 60_000);
});
