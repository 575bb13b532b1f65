import { describe, expect, it } from 'vitest';
import { boxToPolygon } from '@extraction-review/review-domain/viewer/geometry';
import {
  joinWords,
  moveWord,
  runBetween,
  toPageWords,
  unionPolygon,
  wordAt,
  wordsInBox,
  wordsOfRegions,
  type WordInput,
} from './pick-words';

/** A word at a box (normalised), as the words source gives it. */
const w = (text: string, x0: number, y0: number, x1: number, y1: number): WordInput => ({
  text,
  polygon: boxToPolygon({ x0, y0, x1, y1 }),
});

// Two lines, given out of order (as a PDF's content stream or OCR may give them).
const page = toPageWords([
  w('1,234.50', 0.7, 0.5, 0.8, 0.52),
  w('Total', 0.1, 0.5, 0.18, 0.52),
  w('Invoice', 0.1, 0.1, 0.2, 0.12),
  w('due:', 0.19, 0.501, 0.25, 0.521),
  w('No.', 0.22, 0.1, 0.26, 0.12),
  w('77', 0.27, 0.101, 0.3, 0.121),
]);
const named = (text: string) => page.find((p) => p.text === text) ?? expect.fail(`no word ${text}`);

describe('toPageWords', () => {
  it('puts words in reading order: lines top to bottom, each left to right', () => {
    expect(page.map((p) => p.text)).toEqual(['Invoice', 'No.', '77', 'Total', 'due:', '1,234.50']);
    expect(page.map((p) => p.line)).toEqual([0, 0, 0, 1, 1, 1]);
    expect(page.map((p) => p.order)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('leaves out empty words', () => {
    expect(toPageWords([w(' ', 0, 0, 0.1, 0.1)])).toEqual([]);
  });
});

describe('wordAt', () => {
  it('finds the word under a point', () => {
    expect(wordAt(page, [0.75, 0.51])?.text).toBe('1,234.50');
  });
  it('forgives a click just beside a word, not one far away', () => {
    expect(wordAt(page, [0.802, 0.51])?.text).toBe('1,234.50');
    expect(wordAt(page, [0.5, 0.51])).toBeNull();
  });
  it('takes the nearest centre where boxes overlap', () => {
    const overlapping = toPageWords([w('a', 0.1, 0.1, 0.3, 0.2), w('b', 0.25, 0.1, 0.45, 0.2)]);
    expect(wordAt(overlapping, [0.28, 0.15])?.text).toBe('b');
  });
});

describe('wordsInBox', () => {
  it('takes the words at least half inside a dragged box, in reading order', () => {
    const picked = wordsInBox(page, { x0: 0.26, y0: 0.53, x1: 0.05, y1: 0.49 });
    expect(picked.map((p) => p.text)).toEqual(['Total', 'due:']);
  });
  it('leaves out a word barely touched', () => {
    expect(wordsInBox(page, { x0: 0.78, y0: 0.49, x1: 0.9, y1: 0.53 })).toEqual([]);
  });
});

describe('runBetween and joinWords', () => {
  it('takes the run between two words either way round, across lines', () => {
    const run = runBetween(page, named('1,234.50'), named('77'));
    expect(joinWords(run)).toBe('77 Total due: 1,234.50');
    expect(runBetween(page, named('77'), named('1,234.50'))).toEqual(run);
  });
  it('joins in reading order whatever the order given', () => {
    expect(joinWords([named('No.'), named('Invoice')])).toBe('Invoice No.');
  });
});

describe('unionPolygon', () => {
  it('is the box round the words', () => {
    expect(unionPolygon([named('Total'), named('1,234.50')])).toEqual(
      boxToPolygon({ x0: 0.1, y0: 0.5, x1: 0.8, y1: 0.52 }),
    );
    expect(unionPolygon([])).toBeNull();
  });
});

describe('wordsOfRegions', () => {
  it("gives the words a value's regions cover, in reading order: where the keyboard's pick starts", () => {
    const regions = [
      boxToPolygon({ x0: 0.69, y0: 0.49, x1: 0.81, y1: 0.53 }),
      boxToPolygon({ x0: 0.09, y0: 0.49, x1: 0.26, y1: 0.53 }),
    ];
    expect(wordsOfRegions(page, regions).map((p) => p.text)).toEqual(['Total', 'due:', '1,234.50']);
  });

  it('gives none for a region over no word, or no region', () => {
    expect(wordsOfRegions(page, [boxToPolygon({ x0: 0.5, y0: 0.8, x1: 0.6, y1: 0.9 })])).toEqual([]);
    expect(wordsOfRegions(page, [])).toEqual([]);
  });
});

describe('moveWord', () => {
  it('steps through reading order with left and right, stopping at the ends', () => {
    expect(moveWord(page, null, 'right')?.text).toBe('Invoice');
    expect(moveWord(page, named('77'), 'right')?.text).toBe('Total');
    expect(moveWord(page, named('Invoice'), 'left')?.text).toBe('Invoice');
  });
  it('goes to the nearest word across on the line above or below', () => {
    expect(moveWord(page, named('No.'), 'down')?.text).toBe('due:');
    expect(moveWord(page, named('1,234.50'), 'up')?.text).toBe('77');
    expect(moveWord(page, named('Total'), 'down')?.text).toBe('Total');
  });
});

describe('toPageWords on a page turned a quarter', () => {
  it("keeps the reader's order for text running down the page, a line per column", () => {
    // "Total: 1,234.56" and below it "Due: now", turned clockwise: columns from right to left.
    const turned = toPageWords([
      w('Total:', 0.6, 0.1, 0.62, 0.2),
      w('1,234.56', 0.6, 0.25, 0.62, 0.4),
      w('Due:', 0.5, 0.1, 0.52, 0.16),
      w('now', 0.5, 0.2, 0.52, 0.25),
    ]);
    expect(turned.map((p) => [p.text, p.line])).toEqual([
      ['Total:', 0],
      ['1,234.56', 0],
      ['Due:', 1],
      ['now', 1],
    ]);
  });
});
