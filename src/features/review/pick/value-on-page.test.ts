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
});
