import { describe, expect, it } from 'vitest';
import { FieldMap } from '@extraction-review/contract/v2/schemas';
import { buildReviewTree } from '../fields/review-tree';
import { schemaHints } from '../fields/schema-hints';
import { extractionFixture } from '@extraction-review/test-kit/recorded-results';
import { correctedFields, exportValue, invalidValues } from './corrected-fields';

describe('correctedFields', () => {
  it.each([
    'standard_field_types.json',
    'deep_nested_fields.json',
    'financial_document/complete_with_coordinates.json',
  ])('gives back the fields unchanged when nothing was corrected (%s)', (name) => {
    const fields = extractionFixture(name).inference.result.fields;
    expect(correctedFields(buildReviewTree(fields))).toEqual(fields);
  });

  it('applies the corrections in the API shape: values typed, items removed and added', () => {
    const fields = extractionFixture('standard_field_types.json').inference.result.fields;
    const nodes = buildReviewTree(fields, {
      values: {
        field_simple_float: '2.25',
        field_simple_int: '12,5',
        field_simple_bool: false,
        field_simple_string: null,
        'field_object.subfield_1': 'corrected',
        'field_object_list[2].subfield_2': 'added row',
        'field_simple_list[2]': 'added item',
      },
      removed: ['field_object_list[0]', 'field_simple_list[0]'],
      added: { field_object_list: 1, field_simple_list: 1 },
      reviewed: [],
    });
    const out = correctedFields(nodes);
    // The exported JSON is what the API layer reads.
    expect(FieldMap.safeParse(out).success).toBe(true);
    expect(out.field_simple_float).toMatchObject({ value: 2.25, confidence: 'High' });
    expect(out.field_simple_int).toMatchObject({ value: '12,5' });
    expect(out.field_simple_bool).toMatchObject({ value: false });
    expect(out.field_simple_string).toMatchObject({ value: null });
    expect(out.field_object).toMatchObject({ fields: { subfield_1: { value: 'corrected' } } });
    expect(out.field_simple_list).toEqual({
      items: [
        { value: 'field_simple_list-1-value', confidence: null, locations: expect.any(Array) },
        { value: 'added item', confidence: null, locations: [] },
      ],
      confidence: null,
    });
    const rows = out.field_object_list;
    expect(
      rows && 'items' in rows ? rows.items.map((i) => ('fields' in i ? i.fields.subfield_2 : null)) : null,
    ).toEqual([
      { value: 'field_object_list-1-subfield_2-value', confidence: null, locations: expect.any(Array) },
      { value: 'added row', confidence: null, locations: [] },
    ]);
    expect(invalidValues(nodes).map((n) => n.path)).toEqual(['field_simple_int']);
  });

  it('turns typed numbers into numbers and blanks into null', () => {
    expect(exportValue({ type: 'number', value: ' 1234.50 ' })).toBe(1234.5);
    expect(exportValue({ type: 'number', value: '1,234.50' })).toBe('1,234.50');
    expect(exportValue({ type: 'text', value: '  ' })).toBeNull();
    expect(exportValue({ type: 'text', value: '007' })).toBe('007');
    expect(exportValue({ type: 'date', value: '2024-03-14' })).toBe('2024-03-14');
  });

  it('adds a row to an empty table with the columns of the schema', () => {
    const hints = schemaHints([
      {
        name: 'taxes',
        type: 'nested_object',
        is_array: true,
        nested_fields: [{ name: 'rate', type: 'number' }],
      },
    ]);
    const nodes = buildReviewTree(
      { taxes: { items: [], confidence: null } },
      { values: { 'taxes[0].rate': '0.2' }, removed: [], added: { taxes: 1 }, reviewed: [] },
      hints,
    );
    expect(correctedFields(nodes)).toEqual({
      taxes: {
        items: [
          {
            fields: { rate: { value: 0.2, locations: [], confidence: null } },
            locations: [],
            confidence: null,
          },
        ],
        confidence: null,
      },
    });
  });
});
