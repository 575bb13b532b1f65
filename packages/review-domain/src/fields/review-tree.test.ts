import { describe, expect, it } from 'vitest';
import { extractionFixture } from '@extraction-review/test-kit/recorded-results';
import { flattenFields } from './flatten-fields';
import {
  buildReviewTree,
  leavesOf,
  simpleNodes,
  titleFromPath,
  titleLookup,
  titlesInContext,
  type ListNode,
  type ObjectNode,
  type ReviewNode,
} from './review-tree';
import { humanFieldName, itemTitle, schemaHints } from './schema-hints';

const find = (nodes: readonly ReviewNode[], path: string): ReviewNode | undefined => {
  for (const node of nodes) {
    if (node.path === path) return node;
    const inner =
      node.kind === 'object'
        ? find(node.children, path)
        : node.kind === 'list'
          ? find(
              node.items.map((i) => i.node),
              path,
            )
          : undefined;
    if (inner) return inner;
  }
  return undefined;
};

describe('buildReviewTree', () => {
  it('reads every field kind of standard_field_types.json, with typed values', () => {
    const fields = extractionFixture('standard_field_types.json').inference.result.fields;
    const nodes = buildReviewTree(fields);
    expect(nodes.map((n) => [n.path, n.kind])).toEqual([
      ['field_simple_string', 'simple'],
      ['field_simple_float', 'simple'],
      ['field_simple_int', 'simple'],
      ['field_simple_zero', 'simple'],
      ['field_simple_bool', 'simple'],
      ['field_simple_null', 'simple'],
      ['field_simple_list', 'list'],
      ['field_object', 'object'],
      ['field_object_list', 'list'],
    ]);
    expect(simpleNodes(nodes).map((n) => [n.path, n.value, n.type, n.confidence])).toEqual([
      ['field_simple_string', 'field_simple_string-value', 'text', 'Certain'],
      ['field_simple_float', 1.1, 'number', 'High'],
      ['field_simple_int', 12, 'number', 'Medium'],
      ['field_simple_zero', 0, 'number', 'Low'],
      ['field_simple_bool', true, 'boolean', null],
      ['field_simple_null', null, 'text', null],
      ['field_simple_list[0]', 'field_simple_list-0-value', 'text', 'Medium'],
      ['field_simple_list[1]', 'field_simple_list-1-value', 'text', null],
      ['field_object.subfield_1', 'field_object-subfield_1-value', 'text', 'High'],
      ['field_object.subfield_2', 'field_object-subfield_2-value', 'text', null],
      ['field_object_list[0].subfield_1', 'field_object_list-0-subfield_1-value', 'text', 'Low'],
      ['field_object_list[0].subfield_2', 'field_object_list-0-subfield_2-value', 'text', null],
      ['field_object_list[1].subfield_1', 'field_object_list-1-subfield_1-value', 'text', null],
      ['field_object_list[1].subfield_2', 'field_object_list-1-subfield_2-value', 'text', null],
    ]);
    const simpleList = find(nodes, 'field_simple_list') as ListNode;
    expect(simpleList.itemKind).toBe('simple');
    const table = find(nodes, 'field_object_list') as ListNode;
    expect(table.itemKind).toBe('object');
    expect(table.columns).toEqual([
      { name: 'subfield_1', title: 'Subfield 1', kind: 'simple' },
      { name: 'subfield_2', title: 'Subfield 2', kind: 'simple' },
    ]);
  });

  it('follows the nesting of deep_nested_fields.json: lists in objects, objects in list items', () => {
    const fields = extractionFixture('deep_nested_fields.json').inference.result.fields;
    const nodes = buildReviewTree(fields);
    expect(simpleNodes(nodes).map((n) => n.path)).toEqual([
      'field_simple',
      'field_object.sub_object_simple',
      'field_object.sub_object_list[0].sub_object_list_sub_list_simple',
      'field_object.sub_object_list[1].sub_object_list_sub_list_object_subobject_1',
      'field_object.sub_object_list[1].sub_object_list_sub_list_object_subobject_2',
      'field_object.sub_object_object.sub_object_object_sub_object_simple',
      'field_object.sub_object_object.sub_object_object_sub_object_object.sub_object_object_sub_object_object_simple_1',
      'field_object.sub_object_object.sub_object_object_sub_object_object.sub_object_object_sub_object_object_simple_2',
      'field_object.sub_object_object.sub_object_object_sub_object_list[0].sub_object_object_sub_object_list_simple',
      'field_object.sub_object_object.sub_object_object_sub_object_list[0].sub_object_object_sub_object_list_object.sub_object_object_sub_object_list_object_subobject_1',
      'field_object.sub_object_object.sub_object_object_sub_object_list[0].sub_object_object_sub_object_list_object.sub_object_object_sub_object_list_object_subobject_2',
    ]);
    // A list inside an object (ListSubfieldResult) whose items do not share their sub-fields: the union.
    const inner = find(nodes, 'field_object.sub_object_list') as ListNode;
    expect(inner.columns.map((c) => c.name)).toEqual([
      'sub_object_list_sub_list_simple',
      'sub_object_list_sub_list_object_subobject_1',
      'sub_object_list_sub_list_object_subobject_2',
    ]);
    const deep = find(nodes, 'field_object.sub_object_object.sub_object_object_sub_object_list') as ListNode;
    expect(deep.columns).toEqual([
      {
        name: 'sub_object_object_sub_object_list_simple',
        title: 'Sub object object sub object list simple',
        kind: 'simple',
      },
      {
        name: 'sub_object_object_sub_object_list_object',
        title: 'Sub object object sub object list object',
        kind: 'object',
      },
    ]);
    // Items without a confidence (deep_nested_fields.json omits it) read as unknown.
    expect(simpleNodes(nodes).every((n) => n.confidence === null)).toBe(true);
  });

  it('keeps polygons and the confidence of list items and objects (complete_with_coordinates.json)', () => {
    const fields = extractionFixture('financial_document/complete_with_coordinates.json').inference.result
      .fields;
    const nodes = buildReviewTree(fields);
    const lineItems = find(nodes, 'line_items') as ListNode;
    expect(lineItems.items).toHaveLength(3);
    expect(lineItems.columns.map((c) => c.name)).toContain('description');
    const description = find(nodes, 'line_items[0].description');
    expect(description).toMatchObject({
      kind: 'simple',
      value: 'Front and rear brake cables',
      confidence: 'High',
    });
    const leaves = leavesOf(nodes);
    expect(leaves.find((l) => l.path === 'line_items[0].quantity')?.locations[0]?.page).toBe(0);
    expect((find(nodes, 'locale') as ObjectNode).confidence).toBe('Medium');
  });

  it('applies corrections, removed items and added items, by path', () => {
    const fields = extractionFixture('standard_field_types.json').inference.result.fields;
    const nodes = buildReviewTree(fields, {
      values: { field_simple_string: 'fixed', 'field_object_list[2].subfield_1': 'new row' },
      removed: ['field_object_list[0]'],
      added: { field_object_list: 1, field_simple_list: 1 },
      reviewed: ['field_simple_int'],
    });
    expect(find(nodes, 'field_simple_string')).toMatchObject({
      value: 'fixed',
      edited: true,
      original: 'field_simple_string-value',
    });
    expect(find(nodes, 'field_simple_int')).toMatchObject({ reviewed: true, edited: false });
    const table = find(nodes, 'field_object_list') as ListNode;
    expect(table.items.map((i) => [i.path, i.removed, i.added])).toEqual([
      ['field_object_list[0]', true, false],
      ['field_object_list[1]', false, false],
      ['field_object_list[2]', false, true],
    ]);
    expect(find(nodes, 'field_object_list[2].subfield_1')).toMatchObject({
      value: 'new row',
      added: true,
      locations: [],
    });
    expect(find(nodes, 'field_simple_list[2]')).toMatchObject({ kind: 'simple', value: null, added: true });
    // Removed items leave the viewer and the navigation.
    expect(leavesOf(nodes).some((l) => l.path.startsWith('field_object_list[0]'))).toBe(false);
  });

  it('types values from the model schema: classification values, dates, numbers, empty tables', () => {
    const hints = schemaHints([
      { name: 'document_type', type: 'classification', classification_values: ['invoice', 'receipt'] },
      { name: 'date', type: 'date' },
      { name: 'total', type: 'number' },
      {
        name: 'line_items',
        type: 'nested_object',
        is_array: true,
        nested_fields: [
          { name: 'description', type: 'string' },
          { name: 'quantity', type: 'number' },
        ],
      },
    ]);
    const nodes = buildReviewTree(
      {
        document_type: { value: 'invoice', locations: [], confidence: 'High' },
        date: { value: null, locations: [], confidence: 'Low' },
        total: { value: null, locations: [], confidence: 'Low' },
        line_items: { items: [], confidence: null },
      },
      { values: {}, removed: [], added: { line_items: 1 }, reviewed: [] },
      hints,
    );
    expect(find(nodes, 'document_type')).toMatchObject({
      type: 'classification',
      options: ['invoice', 'receipt'],
    });
    expect(find(nodes, 'date')).toMatchObject({ type: 'date' });
    expect(find(nodes, 'total')).toMatchObject({ type: 'number' });
    const table = find(nodes, 'line_items') as ListNode;
    expect(table.itemKind).toBe('object');
    expect(table.columns.map((c) => c.name)).toEqual(['description', 'quantity']);
    expect(find(nodes, 'line_items[0].quantity')).toMatchObject({ type: 'number', added: true });
  });

  it('cannot add to an empty list whose item shape is unknown', () => {
    const [list] = buildReviewTree({ tags: { items: [], confidence: null } }) as ListNode[];
    expect(list?.itemKind).toBe('empty');
    expect(list?.template).toBeNull();
  });

  it.each([
    'standard_field_types.json',
    'deep_nested_fields.json',
    'financial_document/complete_with_coordinates.json',
  ])('names the leaves as flattenFields does, which the viewer harness uses (%s)', (name) => {
    const fields = extractionFixture(name).inference.result.fields;
    expect(leavesOf(buildReviewTree(fields))).toEqual(flattenFields(fields));
  });
});

describe('titles', () => {
  it('reads the schema’s titles, items numbered, and makes a name human where the schema gives none', () => {
    const fields = {
      supplier_address: {
        fields: { street_number: { value: '12', locations: [], confidence: null } },
        locations: [],
        confidence: null,
      },
      line_items: {
        items: [
          {
            fields: { unitPrice: { value: 2, locations: [], confidence: null } },
            locations: [],
            confidence: null,
          },
        ],
        confidence: null,
      },
    };
    const hints = schemaHints([
      {
        name: 'supplier_address',
        title: 'Supplier address',
        type: 'nested_object',
        nested_fields: [{ name: 'street_number', title: 'Street number', type: 'string' }],
      },
      { name: 'line_items', title: 'Line items', type: 'nested_object', is_array: true, nested_fields: [] },
    ]);
    const nodes = buildReviewTree(fields, undefined, hints);
    expect(find(nodes, 'supplier_address')?.title).toBe('Supplier address');
    expect(find(nodes, 'supplier_address.street_number')?.title).toBe('Street number');
    const list = find(nodes, 'line_items') as ListNode;
    expect(list.items[0]?.node.title).toBe('Line item 1');
    expect(list.columns).toEqual([{ name: 'unitPrice', title: 'Unit price', kind: 'simple' }]);
    expect(humanFieldName('total_amount')).toBe('Total amount');
  });

  it('titles each value with what it belongs to, an item standing for its list', () => {
    const nodes = buildReviewTree(
      {
        supplier_address: {
          fields: { city: { value: 'Paris', locations: [], confidence: 'High' } },
          locations: [],
          confidence: null,
        },
        line_items: {
          items: [
            {
              fields: { unit_price: { value: 2, locations: [], confidence: 'High' } },
              locations: [],
              confidence: null,
            },
          ],
          confidence: null,
        },
        reference_numbers: { items: [{ value: 'R1', locations: [], confidence: 'High' }], confidence: null },
        total: { value: 2, locations: [], confidence: 'High' },
      },
      undefined,
      schemaHints([{ name: 'line_items', title: 'Line Items', type: 'nested_object', is_array: true }]),
    );
    expect(Object.fromEntries(titlesInContext(nodes))).toEqual({
      supplier_address: 'Supplier address',
      'supplier_address.city': 'Supplier address › City',
      line_items: 'Line Items',
      'line_items[0]': 'Line Item 1',
      'line_items[0].unit_price': 'Line Item 1 › Unit price',
      reference_numbers: 'Reference numbers',
      'reference_numbers[0]': 'Reference number 1',
      total: 'Total',
    });
    // A path the tree does not hold (an item since removed) is titled from the path alone.
    const titleOf = titleLookup(nodes);
    expect(titleOf('line_items[0].unit_price')).toBe('Line Item 1 › Unit price');
    expect(titleOf('line_items[3].unit_price')).toBe('Line item 4 › Unit price');
  });

  it('titles a field from its path alone as the value rows name it', () => {
    expect(titleFromPath('supplier_address.street_number')).toBe('Supplier address › Street number');
    expect(titleFromPath('line_items[1].unitPrice')).toBe('Line item 2 › Unit price');
    expect(titleFromPath('taxes[0]')).toBe('Tax 1');
    expect(titleFromPath('invoice_number')).toBe('Invoice number');
  });

  it('names one item of a list in the singular when its title reads as an English plural', () => {
    expect(
      [
        'Line items',
        'Taxes',
        'Addresses',
        'Companies',
        'Reference numbers',
        'Status',
        'Data',
        'Boxes',
        'Is',
      ].map(itemTitle),
    ).toEqual(['Line item', 'Tax', 'Address', 'Company', 'Reference number', 'Status', 'Data', 'Box', 'Is']);
  });
});
