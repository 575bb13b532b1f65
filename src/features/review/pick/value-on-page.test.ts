import { describe, expect, it } from 'vitest';
import { boxToPolygon } from '@extraction-review/review-domain/viewer/geometry';
import { toPageWords } from './pick-words';
import {
  amountReadings,
  checkValueOnPage,
  dateReadings,
  distance,
  textKey,
  typedValue,
} from './value-on-page';

describe('amountReadings', () => {
  it.each([
    ['1 234,50', 1234.5],
    ['1,234.50', 1234.5],
    ['1234.5', 1234.5],
    ['1.234,50', 1234.5],
    ["1'234.50", 1234.5],
    ['1\u202f234,50', 1234.5],
    ['$1,234.50', 1234.5],
    ['EUR 1 234,50', 1234.5],
    ['1 234,50 €', 1234.5],
    ['-12.00', -12],
    ['(12.00)', -12],
    ['12,5', 12.5],
    ['1,234,567', 1234567],
    ['0', 0],
  ])('reads %s as %d', (text, value) => {
    expect(amountReadings(text)).toContain(value);
  });

  it('reads a lone separator before three digits both ways', () => {
    expect(amountReadings('1,234').sort()).toEqual([1.234, 1234].sort());
    expect(amountReadings('1.234').sort()).toEqual([1.234, 1234].sort());
  });

  it.each([
    ['1 234,5O', 1234.5],
    ['l2.50', 12.5],
    ['S0.00', 50],
    ['1B.00', 18],
  ])('forgives OCR confusions: %s', (text, value) => {
    expect(amountReadings(text)).toContain(value);
  });

  it.each(['Total', 'INV-0077', '2026-03-15', '1,2,3', '12.', '', 'SOS', '1.234.5,6'])(
    '%s is no amount',
    (text) => {
      expect(amountReadings(text)).toEqual([]);
    },
  );
});

describe('dateReadings', () => {
  it.each([
    ['2026-03-15', ['2026-03-15']],
    ['03/15/2026', ['2026-03-15']],
    ['15/03/2026', ['2026-03-15']],
    ['15.03.2026', ['2026-03-15']],
    ['15-03-26', ['2026-03-15']],
    ['2026/03/15', ['2026-03-15']],
    ['15 March 2026', ['2026-03-15']],
    ['March 15, 2026', ['2026-03-15']],
    ['Mar 15 2026', ['2026-03-15']],
    ['15-Mar-2026', ['2026-03-15']],
    ['15 mars 2026', ['2026-03-15']],
    ['1er février 2026', ['2026-02-01']],
    ['15. März 2026', ['2026-03-15']],
    ['2026-03-15 10:30:00', ['2026-03-15']],
  ])('reads %s', (text, readings) => {
    expect(dateReadings(text)).toEqual(readings);
  });

  it('reads an ambiguous date both ways', () => {
    expect(dateReadings('03/04/2026').sort()).toEqual(['2026-03-04', '2026-04-03']);
  });

  it.each(['2026-02-30', '13/13/2026', 'Total', '1234.50', '15 Foo 2026'])('%s is no date', (text) => {
    expect(dateReadings(text)).toEqual([]);
  });
});

describe('textKey', () => {
  it('ignores accents, case, spacing and punctuation', () => {
    expect(textKey('Café  Müller, S.A.')).toBe(textKey('cafe muller sa'));
    expect(textKey('Straße')).toBe(textKey('STRASSE'));
  });
  it('folds OCR confusions', () => {
    expect(textKey('B0LT 5')).toBe(textKey('8OIT S'));
    expect(textKey('Invoice 1O1')).toBe(textKey('lnvoice l0l'));
  });
});

describe('distance', () => {
  it('counts a swap of two neighbours once', () => {
    expect(distance('123450', '124350')).toBe(1);
    expect(distance('kitten', 'sitting')).toBe(3);
    expect(distance('', 'abc')).toBe(3);
  });
});

describe('typedValue', () => {
  it('makes numbers, preferring two decimals', () => {
    expect(typedValue('1 234,50', 'number')).toBe(1234.5);
    expect(typedValue('$1,234', 'number')).toBe(1234);
    expect(typedValue('EUR', 'number')).toBe('EUR');
  });
  it('makes ISO dates: month first with slashes, day first with dots and dashes', () => {
    expect(typedValue('03/15/2026', 'date')).toBe('2026-03-15');
    expect(typedValue('03/04/2026', 'date')).toBe('2026-03-04');
    expect(typedValue('03.04.2026', 'date')).toBe('2026-04-03');
    expect(typedValue('15 March 2026', 'date')).toBe('2026-03-15');
  });
  it('finds the classification value, even misread', () => {
    const options = ['credit card', 'cash', 'bank transfer'];
    expect(typedValue('CASH', 'classification', options)).toBe('cash');
    expect(typedValue('Bank Transfer', 'classification', options)).toBe('bank transfer');
    expect(typedValue('Bank Tranfser', 'classification', options)).toBe('bank transfer');
    expect(typedValue('cheque', 'classification', options)).toBe('cheque');
  });
  it('reads yes and no', () => {
    expect(typedValue('Yes', 'boolean')).toBe(true);
    expect(typedValue('no', 'boolean')).toBe(false);
  });
  it('keeps text as it is', () => {
    expect(typedValue('  ACME  Corp ', 'text')).toBe('ACME  Corp');
    expect(typedValue('  ', 'text')).toBeNull();
  });
});

describe('checkValueOnPage', () => {
  const line = (y: number, ...texts: string[]) =>
    texts.map((text, i) => ({
      text,
      polygon: boxToPolygon({ x0: 0.1 * i, y0: y, x1: 0.1 * i + 0.08, y1: y + 0.02 }),
    }));
  const words = toPageWords([
    ...line(0.1, 'Invoice', 'No.', 'INV-0077'),
    ...line(0.2, 'Date:', '15', 'March', '2026'),
    ...line(0.3, 'Supplier:', 'Café', 'Müller'),
    ...line(0.5, 'Subtotal', '1 234,50'),
    ...line(0.6, 'Tax', '246,90'),
    ...line(0.7, 'Total', 'EUR', '1', '481,4O'),
  ]);
  const pages = [{ page: 0, words }];

  it.each([
    [1234.5, 'number'],
    ['1,234.50', 'number'],
    ['1234.5', 'number'],
    [1481.4, 'number'],
    ['2026-03-15', 'date'],
    ['03/15/2026', 'date'],
    ['cafe muller', 'text'],
    ['CAFÉ  MÜLLER', 'text'],
    ['INV-0O77', 'text'],
  ] as const)('finds %s (%s)', (value, type) => {
    expect(checkValueOnPage(value, type, pages)).toEqual({ found: true, candidates: [] });
  });

  it('catches a typo in an amount and offers the printed one first, where it is', () => {
    const check = checkValueOnPage('1243.50', 'number', pages);
    expect(check.found).toBe(false);
    expect(check.candidates[0]).toMatchObject({ text: '1 234,50', value: 1234.5, page: 0 });
    expect(check.candidates[0]?.polygon).toEqual(boxToPolygon({ x0: 0.1, y0: 0.5, x1: 0.18, y1: 0.52 }));
  });

  it('offers the nearest date for a date not on the page', () => {
    const check = checkValueOnPage('2026-03-16', 'date', pages);
    expect(check.found).toBe(false);
    expect(check.candidates[0]?.value).toBe('2026-03-15');
  });

  it('offers the nearest text', () => {
    const check = checkValueOnPage('Cafe Muler', 'text', pages);
    expect(check.found).toBe(false);
    expect(check.candidates[0]?.text).toBe('Café Müller');
  });

  it('does not check booleans nor empty values', () => {
    expect(checkValueOnPage(true, 'boolean', pages).found).toBe(true);
    expect(checkValueOnPage(null, 'number', pages).found).toBe(true);
  });

  it('has no candidates when nothing on the page reads as the type', () => {
    expect(
      checkValueOnPage('12.00', 'number', [{ page: 0, words: toPageWords(line(0.1, 'Hello')) }]),
    ).toEqual({
      found: false,
      candidates: [],
    });
  });

  it('finds a value across a line break, and in a column beside another', () => {
    const wrapped = toPageWords([...line(0.1, 'Bill', 'to:', 'Northwind'), ...line(0.13, 'Traders', 'Ltd')]);
    expect(checkValueOnPage('Northwind Traders Ltd', 'text', [{ page: 0, words: wrapped }]).found).toBe(true);
    // Two columns: the name wraps in the left one, the right one's words come between in reading order.
    const at = (x: number, y: number, text: string) => ({
      text,
      polygon: boxToPolygon({ x0: x, y0: y, x1: x + 0.08, y1: y + 0.02 }),
    });
    const columns = toPageWords([
      at(0.1, 0.1, 'Northwind'),
      at(0.6, 0.1, 'Invoice'),
      at(0.7, 0.1, 'INV-9'),
      at(0.1, 0.13, 'Traders'),
      at(0.6, 0.13, 'Date'),
    ]);
    expect(checkValueOnPage('Northwind Traders', 'text', [{ page: 0, words: columns }]).found).toBe(true);
    const split = toPageWords([...line(0.1, 'Due', '15', 'March'), ...line(0.13, '2026')]);
    expect(checkValueOnPage('2026-03-15', 'date', [{ page: 0, words: split }]).found).toBe(true);
  });

  it('compares amounts whatever their format: 2,608.20 = 2608.2 = 2 608,20', () => {
    const printed = toPageWords(line(0.1, 'Total', '2', '608,20'));
    for (const typed of ['2,608.20', '2608.2', 2608.2, '2 608,20'])
      expect(checkValueOnPage(typed, 'number', [{ page: 0, words: printed }]).found).toBe(true);
  });

  it('finds a name printed in a logo once its words are among the page’s', () => {
    const logo = [
      // OCR of the logo: big letters, out of the text layer's lines.
      { text: 'NORTHWIND', polygon: boxToPolygon({ x0: 0.05, y0: 0.02, x1: 0.3, y1: 0.08 }) },
      { text: 'traders', polygon: boxToPolygon({ x0: 0.31, y0: 0.03, x1: 0.45, y1: 0.07 }) },
    ];
    const withLogo = toPageWords([...logo, ...line(0.2, 'Invoice', 'INV-1')]);
    expect(checkValueOnPage('Northwind Traders', 'text', [{ page: 0, words: withLogo }]).found).toBe(true);
    const without = toPageWords(line(0.2, 'Invoice', 'INV-1'));
    expect(checkValueOnPage('Northwind Traders', 'text', [{ page: 0, words: without }]).found).toBe(false);
  });

  it('trusts a value picked with a box: it reads as the words under its region', () => {
    // A box over a label column and a value column: its words join in reading order, not as typed.
    const table = toPageWords([...line(0.1, 'Ship', 'Acme'), ...line(0.13, 'to:', 'Works')]);
    const region = boxToPolygon({ x0: 0, y0: 0.09, x1: 0.2, y1: 0.16 });
    const picked = [{ page: 0, polygon: region }];
    const value = 'Ship Acme to: Works';
    const check = checkValueOnPage(value, 'text', [{ page: 0, words: table }], 3, null, { picked });
    expect(check).toEqual({ found: true, candidates: [] });
    // An amount picked: stored as the number it reads.
    const total = toPageWords(line(0.5, 'Total', '$2,608.20'));
    const box = [{ page: 0, polygon: boxToPolygon({ x0: 0.1, y0: 0.49, x1: 0.19, y1: 0.53 }) }];
    expect(
      checkValueOnPage(2608.2, 'number', [{ page: 0, words: total }], 3, null, { picked: box }).found,
    ).toBe(true);
    // Typed over afterwards: checked as typed.
    expect(
      checkValueOnPage(2680.2, 'number', [{ page: 0, words: total }], 3, null, { picked: box }).found,
    ).toBe(false);
  });

  it('offers no pieces of figures for 12.00 when no such amount is printed', () => {
    const page = toPageWords([
      ...line(0.1, 'Item', 'Qty', 'Price'),
      ...line(0.2, '1', 'Widget', '14', '2'),
      ...line(0.3, 'Page', '1', 'of', '2'),
      ...line(0.4, 'Total', '2', '608,20'),
    ]);
    expect(checkValueOnPage('12.00', 'number', [{ page: 0, words: page }])).toEqual({
      found: false,
      candidates: [],
    });
  });

  it('never offers a piece of an amount, and offers whole ones with their decimals', () => {
    const page = toPageWords([...line(0.1, 'Total', '1', '234,50'), ...line(0.2, 'Tax', '12.50')]);
    const check = checkValueOnPage('12.00', 'number', [{ page: 0, words: page }]);
    expect(check.candidates.map((c) => c.text)).toEqual(['12.50']);
    const typo = checkValueOnPage('1243.50', 'number', [{ page: 0, words: page }]);
    expect(typo.candidates.map((c) => c.text)).toEqual(['1 234,50']);
  });

  it('offers whole text runs, not one word of the value', () => {
    const page = toPageWords([...line(0.1, 'Supplier', 'Acme', 'Widgets', 'GmbH'), ...line(0.2, 'Acme')]);
    const check = checkValueOnPage('Acme Widgets GmbX', 'text', [{ page: 0, words: page }]);
    expect(check.candidates.map((c) => c.text)).toEqual(['Acme Widgets GmbH']);
  });

  it('ranks candidates near the field’s label first', () => {
    const page = toPageWords([
      ...line(0.1, 'Subtotal', '101.00'),
      ...line(0.5, 'Shipping', '99.00'),
      ...line(0.8, 'Total', 'due', '110.00'),
    ]);
    const pages = [{ page: 0, words: page }];
    // 100.00 is one digit from each: the label decides.
    expect(
      checkValueOnPage('100.00', 'number', pages, 3, null, { label: 'Total due' }).candidates[0]?.text,
    ).toBe('110.00');
    expect(
      checkValueOnPage('100.00', 'number', pages, 3, null, { label: 'Subtotal' }).candidates[0]?.text,
    ).toBe('101.00');
  });
});
