import { describe, expect, it } from 'vitest';
import {
  numericDateOrder,
  parseBoolean,
  parseClassification,
  parseDate,
  parseNumber,
  parsePercent,
  parseString,
} from './parse-value';

describe('parseNumber', () => {
  it.each([
    ['1,234.56', 1234.56],
    ['1 234,56', 1234.56],
    ['1\u00a0234,56', 1234.56],
    ['1.234,56', 1234.56],
    ["1'234.56", 1234.56],
    ['$1,234.56', 1234.56],
    ['€ 99,90', 99.9],
    ['1234.56 EUR', 1234.56],
    ['USD 1,234,567.00', 1234567],
    ['42', 42],
    ['0.05', 0.05],
    ['-12.50', -12.5],
    ['(12.50)', -12.5],
    ['1,234', 1234],
  ])('%s → %d, unambiguous', (text, value) => {
    expect(parseNumber(text)).toEqual({ value, clean: true });
  });

  it('reads "1.234" as a decimal but says it is a guess', () => {
    expect(parseNumber('1.234')).toEqual({ value: 1.234, clean: false });
  });

  it('doubts digit groups split by spaces without decimals ("232 153 895" may be an id)', () => {
    expect(parseNumber('232 153 895')).toEqual({ value: 232153895, clean: false });
    expect(parseNumber('1 234,56')).toEqual({ value: 1234.56, clean: true });
  });

  it.each(['INV-2024-0042', 'abc', '12/03/2024', '1,23,4.5', '', '1.2.3,4,5'])('rejects %j', (text) => {
    expect(parseNumber(text)).toBeUndefined();
  });
});

describe('parseDate', () => {
  it.each([
    ['2025-03-14', '2025-03-14'],
    ['2025/03/14', '2025-03-14'],
    ['14/03/2025', '2025-03-14'],
    ['14.03.2025', '2025-03-14'],
    ['03/14/2025', '2025-03-14'],
    ['14-03-25', '2025-03-14'],
    ['March 14, 2025', '2025-03-14'],
    ['Mar. 14 2025', '2025-03-14'],
    ['14 March 2025', '2025-03-14'],
    ['14th Mar 2025', '2025-03-14'],
    ['14-Mar-2025', '2025-03-14'],
    ['Sept 1, 2025', '2025-09-01'],
    ['2024-02-29', '2024-02-29'],
  ])('%s → %s', (text, value) => {
    expect(parseDate(text)).toEqual({ value, clean: true });
  });

  it('reads 03/04/2025 day first and says it is ambiguous', () => {
    expect(parseDate('03/04/2025')).toEqual({ value: '2025-04-03', clean: false });
  });

  it('reads an ambiguous date in a known order, as clean', () => {
    expect(parseDate('03/04/2025', 'mdy')).toEqual({ value: '2025-03-04', clean: true });
    expect(parseDate('03/04/2025', 'dmy')).toEqual({ value: '2025-04-03', clean: true });
    // An unambiguous date ignores the order.
    expect(parseDate('26/02/2019', 'mdy')).toEqual({ value: '2019-02-26', clean: true });
    expect(parseDate('26 Feb 16')).toEqual({ value: '2016-02-26', clean: true });
  });

  it('tells the date order a numeric date shows', () => {
    expect(numericDateOrder('26/02/2019')).toBe('dmy');
    expect(numericDateOrder('02/26/2019')).toBe('mdy');
    expect(numericDateOrder('11/02/2019')).toBeUndefined();
    expect(numericDateOrder('2019-02-26')).toBeUndefined();
  });

  it.each(['2025-02-30', '31/04/2025', 'Marsh 14, 2025', '14 Ma 2025', '2025', 'INV-2024-0042', '14 March'])(
    'rejects %j',
    (text) => {
      expect(parseDate(text)).toBeUndefined();
    },
  );
});

describe('parsePercent', () => {
  it.each([
    ['5%', 5],
    ['5.0%', 5],
    ['20,5 %', 20.5],
    ['(8%)', 8],
    ['8%:', 8],
  ])('%s → %d', (text, value) => {
    expect(parsePercent(text)).toEqual({ value, clean: true });
  });

  it.each(['5', '150%', 'abc%', '%'])('rejects %j', (text) => {
    expect(parsePercent(text)).toBeUndefined();
  });
});

describe('other types', () => {
  it('booleans', () => {
    expect(parseBoolean('Yes')).toEqual({ value: true, clean: true });
    expect(parseBoolean('false')).toEqual({ value: false, clean: true });
    expect(parseBoolean('maybe')).toBeUndefined();
  });

  it('classification values, without case or accents, answered as the schema spells them', () => {
    expect(parseClassification('CREDIT note', ['Invoice', 'Credit Note'])).toEqual({
      value: 'Credit Note',
      clean: true,
    });
    expect(parseClassification('Facture', ['Invoice'])).toBeUndefined();
  });

  it('strings', () => {
    expect(parseString(' ACME Ltd, ')).toEqual({ value: 'ACME Ltd', clean: true });
    expect(parseString('Total:')).toEqual({ value: 'Total:', clean: false });
    expect(parseString('  ')).toBeUndefined();
  });
});
