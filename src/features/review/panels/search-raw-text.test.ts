import { describe, expect, it } from 'vitest';
import { findMatches, searchPattern, splitAtMatches } from './search-raw-text';

const pages = ['Invoice number: INV-1\nUnit price 10.00', 'Total due\n\nunit   PRICE (*) 5'];

describe('raw-text search', () => {
  it('finds every match on every page, without case, spaces matching any white space', () => {
    const matches = findMatches(pages, 'unit price');
    expect(matches.map((m) => [m.page, m.text])).toEqual([
      [0, 'Unit price'],
      [1, 'unit PRICE'],
    ]);
    expect(matches[1]).toMatchObject({ start: 11, end: 23, before: 'Total due ', after: ' (*) 5' });
  });

  it('takes the query literally (no regular expression), and nothing for a blank query', () => {
    expect(findMatches(pages, '(*)').map((m) => m.text)).toEqual(['(*)']);
    expect(findMatches(pages, '.')).toHaveLength(1);
    expect(findMatches(pages, '   ')).toEqual([]);
    expect(searchPattern('')).toBeNull();
  });

  it('stops at the limit', () => {
    expect(findMatches(['a a a a'], 'a', 2)).toHaveLength(2);
  });

  it('cuts a page into plain pieces around its matches', () => {
    const content = pages[0] ?? '';
    const matches = findMatches([content], 'inv');
    expect(splitAtMatches(content, matches)).toEqual([
      { text: 'Inv', match: 0 },
      { text: 'oice number: ', match: null },
      { text: 'INV', match: 1 },
      { text: '-1\nUnit price 10.00', match: null },
    ]);
    expect(splitAtMatches('<b>x</b>', [])).toEqual([{ text: '<b>x</b>', match: null }]);
  });
});
