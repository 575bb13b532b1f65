import { describe, expect, expectTypeOf, it } from 'vitest';
import { detectFieldKind, fieldKind, isListField, isObjectField, isSimpleField } from './fields';
import { FieldResult, type ListFieldResult, type ObjectFieldResult, type SimpleFieldResult } from './schemas';

const simple = FieldResult.parse({ value: 'ACME', confidence: 'High' });
const object = FieldResult.parse({ fields: { city: { value: 'Paris' } } });
const list = FieldResult.parse({ items: [{ value: 1 }, { value: 2 }] });
const listOfObjects = FieldResult.parse({ items: [{ fields: { rate: { value: 0.2 } } }] });

describe('the inferred field types', () => {
  it('are recursive, not any', () => {
    expectTypeOf<FieldResult>().not.toBeAny();
    expectTypeOf<ObjectFieldResult['fields'][string]>().toEqualTypeOf<FieldResult>();
    expectTypeOf<ListFieldResult['items'][number]>().toEqualTypeOf<FieldResult>();
    expectTypeOf<SimpleFieldResult['value']>().toEqualTypeOf<string | number | boolean | null>();
  });
});

describe('fieldKind', () => {
  it('tells the three shapes apart by key', () => {
    expect([simple, object, list, listOfObjects].map(fieldKind)).toEqual([
      'simple',
      'object',
      'list',
      'list',
    ]);
    expect(isSimpleField(simple) && simple.value).toBe('ACME');
    expect(isObjectField(object) && Object.keys(object.fields)).toEqual(['city']);
    expect(isListField(list) && list.items.length).toBe(2);
  });

  it('fills what the service leaves out', () => {
    expect(simple).toEqual({ value: 'ACME', confidence: 'High', locations: [] });
    expect(object).toEqual({
      fields: { city: { value: 'Paris', confidence: null, locations: [] } },
      confidence: null,
      locations: [],
    });
  });

  it('gives items precedence over fields over value, as the official client does', () => {
    expect(detectFieldKind({ items: [], fields: {}, value: 1 })).toBe('list');
    expect(detectFieldKind({ fields: {}, value: 1 })).toBe('object');
    expect(fieldKind(FieldResult.parse({ items: [], value: 1 }))).toBe('list');
  });

  it('reads raw JSON, and says when it is not a field', () => {
    expect(detectFieldKind({ value: null })).toBe('simple');
    for (const notAField of [null, 1, 'x', [], { confidence: 'High' }])
      expect(detectFieldKind(notAField)).toBeUndefined();
  });

  it('accepts nesting deeper than the spec (deep_nested_fields.json)', () => {
    const deep = FieldResult.parse({
      fields: {
        lines: {
          items: [{ fields: { inner: { fields: { x: { value: 1 } } }, more: { items: [{ value: 2 }] } } }],
        },
      },
    });
    expect(fieldKind(deep)).toBe('object');
  });
});
