import { describe, expect, it } from 'vitest';
import { check } from '../issues';
import { BusinessRules, FIELD_PATH, ModelSettingsRequest, regexError, RoutingRules } from './model-settings';

const pointers = (input: unknown) => {
  const result = check(BusinessRules, input);
  return result.success ? [] : result.issues.map((i) => [i.pointer, i.message]);
};

describe('BusinessRules', () => {
  it('takes each kind of rule, with the tolerance defaulted', () => {
    const rules = BusinessRules.parse([
      { id: 'a', kind: 'required', field: 'total_net' },
      { id: 'b', kind: 'pattern', field: 'invoice_number', pattern: '^INV-\\d+$' },
      { id: 'c', kind: 'date_range', field: 'date', min: '2024-01-01' },
      { id: 'd', kind: 'one_of', field: 'currency', values: ['EUR', 'USD'] },
      { id: 'e', kind: 'sum', list: 'line_items', item: 'total_price', equals: 'total_net' },
      { id: 'f', kind: 'add', terms: ['total_net', 'total_tax'], equals: 'total_amount', tolerance: 0.5 },
      { id: 'g', kind: 'date_order', earlier: 'date', later: 'due_date' },
    ]);
    expect(rules[4]).toMatchObject({ tolerance: 0.01 });
    expect(rules[5]).toMatchObject({ tolerance: 0.5 });
  });

  it('refuses a regular expression that does not compile, saying why, where', () => {
    expect(pointers([{ id: 'b', kind: 'pattern', field: 'x', pattern: '(unclosed' }])).toEqual([
      ['#/0/pattern', expect.stringMatching(/^Not a regular expression: /)],
    ]);
  });

  it('refuses dates that are not dates, a range without bounds or reversed', () => {
    expect(pointers([{ id: 'c', kind: 'date_range', field: 'date', min: '2024-13-01' }])).toEqual([
      ['#/0/min', 'A date as YYYY-MM-DD'],
    ]);
    expect(pointers([{ id: 'c', kind: 'date_range', field: 'date' }])).toEqual([
      ['#/0/min', 'Give a first date, a last date, or both'],
    ]);
    expect(
      pointers([{ id: 'c', kind: 'date_range', field: 'date', min: '2024-02-01', max: '2024-01-01' }]),
    ).toEqual([['#/0/max', 'The last date comes before the first']]);
  });

  it('refuses bad paths, empty lists, negative tolerances and twice the same id', () => {
    expect(
      pointers([
        { id: 'a', kind: 'required', field: 'line items' },
        { id: 'a', kind: 'one_of', field: 'currency', values: [] },
        { id: 'b', kind: 'add', terms: [], equals: 'total', tolerance: -1 },
        { id: 'c', kind: 'sum', list: 'line_items', item: 'a.b', equals: 'x' },
      ]).map(([pointer]) => pointer),
    ).toEqual(['#/0/field', '#/1/values', '#/2/terms', '#/2/tolerance', '#/3/item', '#/1/id']);
  });

  it('refuses an unknown kind and unknown keys', () => {
    expect(BusinessRules.safeParse([{ id: 'a', kind: 'regex', field: 'x' }]).success).toBe(false);
    expect(BusinessRules.safeParse([{ id: 'a', kind: 'required', field: 'x', extra: 1 }]).success).toBe(
      false,
    );
  });
});

describe('paths and patterns', () => {
  it.each([
    ['total_amount', true],
    ['supplier_address.city', true],
    ['line_items[0].description', true],
    ['line_items[*].total_price', true],
    ['a[1][*].b', true],
    ['', false],
    ['a..b', false],
    ['a[x]', false],
    ['.a', false],
    ['a b', false],
  ])('%s: %s', (path, ok) => {
    expect(FIELD_PATH.test(path)).toBe(ok);
  });

  it('says why a regular expression does not compile', () => {
    expect(regexError('^a+$')).toBeNull();
    expect(regexError('[')).toMatch(/.+/);
  });
});

describe('RoutingRules and the settings request', () => {
  it('defaults to no automatic confirmation', () => {
    expect(RoutingRules.parse({})).toEqual({
      autoConfirm: false,
      minConfidence: 'High',
      requiredFields: [],
      onRuleFailure: true,
      samplePercent: 0,
    });
  });

  it('refuses a sample outside 0..100 and an unknown level', () => {
    expect(RoutingRules.safeParse({ samplePercent: 101 }).success).toBe(false);
    expect(RoutingRules.safeParse({ minConfidence: 'Sure' }).success).toBe(false);
  });

  it('needs the version read', () => {
    const result = check(ModelSettingsRequest, { routing: {}, rules: [] });
    expect(result.success ? [] : result.issues.map((i) => i.pointer)).toEqual(['#/version']);
  });
});
