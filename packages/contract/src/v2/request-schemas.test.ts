import { describe, expect, it } from 'vitest';
import { check, type ValidationIssue } from '../issues';
import { checkDataSchemaText, DataSchema, EnqueueExtractionInput, MAX_FILE_BYTES } from './request-schemas';

const MODEL_ID = '12345678-1234-1234-1234-123456789abc';

function issues(result: ReturnType<typeof check>): Pick<ValidationIssue, 'pointer' | 'message'>[] {
  return result.success ? [] : result.issues.map(({ pointer, message }) => ({ pointer, message }));
}

const field = (overrides: Record<string, unknown> = {}) => ({
  name: 'total_amount',
  title: 'Total amount',
  is_array: false,
  type: 'number',
  description: 'The total to pay, taxes included.',
  ...overrides,
});

describe('EnqueueExtractionInput', () => {
  const file = new Blob(['%PDF-1.7 ...'], { type: 'application/pdf' });

  it('accepts a file, a URL or base64 content, with options', () => {
    for (const source of [
      { file },
      { url: 'https://example.com/a.pdf' },
      { file_base64: 'JVBERi0xLjcgLi4uLi4u' },
    ]) {
      expect(check(EnqueueExtractionInput, { model_id: MODEL_ID, ...source }).success).toBe(true);
    }
    const full = {
      model_id: MODEL_ID,
      file,
      filename: 'a.pdf',
      alias: 'my-ref',
      webhook_ids: ['87654321-4321-4321-4321-cba987654321'],
      raw_text: true,
      polygon: false,
      confidence: true,
      rag: false,
      text_context: 'An invoice from ACME.',
      data_schema: { replace: { fields: [field()] } },
    };
    expect(check(EnqueueExtractionInput, full)).toEqual({ success: true, data: full });
  });

  it('accepts the non-RFC UUIDs the service itself uses', () => {
    expect(
      check(EnqueueExtractionInput, { model_id: '87654321-4321-4321-4321-CBA987654321', file }).success,
    ).toBe(true);
  });

  it('needs exactly one source', () => {
    expect(issues(check(EnqueueExtractionInput, { model_id: MODEL_ID }))).toEqual([
      { pointer: '#/file', message: 'Choose a file, or give a URL' },
    ]);
    expect(
      issues(check(EnqueueExtractionInput, { model_id: MODEL_ID, file, url: 'https://example.com/a.pdf' })),
    ).toEqual([
      { pointer: '#/url', message: 'Give only one of file, url and file_base64 (file is already set)' },
    ]);
  });

  it('names each bad parameter', () => {
    const result = check(EnqueueExtractionInput, {
      model_id: 'test-model-id',
      url: 'http://example.com/a.pdf',
      webhook_ids: ['nope'],
      polygon: 'true',
      pages: 3,
    });
    expect(issues(result)).toEqual([
      { pointer: '#/model_id', message: 'Expected a UUID such as 12345678-1234-1234-1234-123456789abc' },
      { pointer: '#/url', message: 'Expected a public https:// URL' },
      { pointer: '#/webhook_ids/0', message: 'Expected a UUID such as 12345678-1234-1234-1234-123456789abc' },
      { pointer: '#/polygon', message: 'expected boolean, received string "true"' },
      { pointer: '#/pages', message: 'unexpected key' },
    ]);
  });

  it('refuses empty and oversized files, long URLs and short base64', () => {
    const big = { size: MAX_FILE_BYTES + 1 } as Blob;
    Object.setPrototypeOf(big, Blob.prototype);
    expect(issues(check(EnqueueExtractionInput, { model_id: MODEL_ID, file: new Blob([]) }))).toEqual([
      { pointer: '#/file', message: 'The file is empty' },
    ]);
    expect(issues(check(EnqueueExtractionInput, { model_id: MODEL_ID, file: big }))).toEqual([
      { pointer: '#/file', message: 'The file is larger than 100 MB' },
    ]);
    expect(
      issues(
        check(EnqueueExtractionInput, { model_id: MODEL_ID, url: `https://example.com/${'a'.repeat(2048)}` }),
      ),
    ).toEqual([{ pointer: '#/url', message: 'The URL is longer than 2048 characters' }]);
    expect(issues(check(EnqueueExtractionInput, { model_id: MODEL_ID, file_base64: 'abc' }))).toEqual([
      { pointer: '#/file_base64', message: 'Base64 content is at least 15 characters' },
    ]);
  });

  it('points into the data schema', () => {
    const result = check(EnqueueExtractionInput, {
      model_id: MODEL_ID,
      file,
      data_schema: { replace: { fields: [field({ name: 'Total Amount' })] } },
    });
    expect(issues(result)).toEqual([
      {
        pointer: '#/data_schema/replace/fields/0/name',
        message:
          'Use lowercase letters (a-z), digits and single underscores, not at the start or end (for example total_amount)',
      },
    ]);
  });
});

describe('DataSchema', () => {
  it('accepts the parameter recorded with data_schema_replace.json, and replace: null', () => {
    const recorded = {
      replace: {
        fields: [
          {
            name: 'test_replace',
            title: 'Test Replace',
            is_array: false,
            type: 'string',
            description: 'A static value for testing.',
            guidelines: "IMPORTANT: always return this exact string: 'a test value'",
          },
        ],
      },
    };
    expect(check(DataSchema, recorded).success).toBe(true);
    expect(check(DataSchema, { replace: null }).success).toBe(true);
  });

  it('accepts every field type, nested objects and classifications', () => {
    const schema = {
      replace: {
        fields: [
          field({
            name: 'supplier',
            type: 'nested_object',
            nested_fields: [field({ name: 'name', type: 'string' })],
          }),
          field({ name: 'kind', type: 'classification', classification_values: ['invoice', 'receipt'] }),
          field({ name: 'tags', type: 'string', is_array: true, unique_values: true }),
          field({ name: 'stamp', type: 'object_detection' }),
          field({ name: 'code', type: 'barcode' }),
          field({ name: 'paid', type: 'boolean', classification_values: [], nested_fields: [] }),
          field({ name: 'due_date', type: 'date', guidelines: null }),
        ],
      },
    };
    expect(check(DataSchema, schema)).toMatchObject({ success: true });
  });

  it.each([
    ['name with a leading underscore', field({ name: '_total' }), '#/replace/fields/0/name'],
    ['name with a double underscore', field({ name: 'total__amount' }), '#/replace/fields/0/name'],
    ['unknown type', field({ type: 'text' }), '#/replace/fields/0/type'],
    ['misspelt member', field({ guideline: 'x' }), '#/replace/fields/0/guideline'],
    ['blank title', field({ title: '  ' }), '#/replace/fields/0/title'],
    ['missing description', field({ description: undefined }), '#/replace/fields/0/description'],
  ])('refuses a %s', (_label, bad, pointer) => {
    const result = check(DataSchema, { replace: { fields: [bad] } });
    expect(result.success).toBe(false);
    expect(result.success ? [] : result.issues.map((i) => i.pointer)).toEqual([pointer]);
  });

  it('states the rules the spec gives in prose, where they apply', () => {
    const result = check(DataSchema, {
      replace: {
        fields: [
          field({ name: 'kind', type: 'classification' }),
          field({ name: 'total', classification_values: ['a'] }),
          field({ name: 'lines', type: 'nested_object' }),
          field({ name: 'notes', type: 'string', nested_fields: [field({ name: 'x', type: 'string' })] }),
          field({ name: 'once', unique_values: true }),
          field({ name: 'kind2', type: 'classification', classification_values: ['a', 'b', 'a'] }),
          field({
            name: 'supplier',
            type: 'nested_object',
            nested_fields: [
              field({ name: 'box', type: 'nested_object' }),
              field({ name: 'box', type: 'barcode' }),
            ],
          }),
          field({ name: 'total' }),
        ],
      },
    });
    expect(issues(result)).toEqual([
      {
        pointer: '#/replace/fields/0/classification_values',
        message: 'A classification field needs at least one value',
      },
      {
        pointer: '#/replace/fields/1/classification_values',
        message: 'Only classification fields take classification_values',
      },
      {
        pointer: '#/replace/fields/2/nested_fields',
        message: 'A nested_object field needs at least one nested field',
      },
      {
        pointer: '#/replace/fields/3/nested_fields',
        message: 'Only nested_object fields take nested_fields',
      },
      {
        pointer: '#/replace/fields/4/unique_values',
        message: 'unique_values applies only when is_array is true',
      },
      { pointer: '#/replace/fields/5/classification_values/2', message: 'Duplicate value "a"' },
      {
        pointer: '#/replace/fields/6/nested_fields/0/type',
        message:
          'expected one of "string", "number", "date", "boolean", "classification", received string "nested_object"',
      },
      {
        pointer: '#/replace/fields/6/nested_fields/1/type',
        message:
          'expected one of "string", "number", "date", "boolean", "classification", received string "barcode"',
      },
      { pointer: '#/replace/fields/6/nested_fields/1/name', message: 'Duplicate field name "box"' },
      { pointer: '#/replace/fields/7/name', message: 'Duplicate field name "total"' },
    ]);
  });

  it('needs at least one field in a replacement', () => {
    expect(issues(check(DataSchema, { replace: { fields: [] } }))).toEqual([
      { pointer: '#/replace/fields', message: 'Add at least one field' },
    ]);
  });

  it('reads the text of a JSON editor', () => {
    expect(checkDataSchemaText('{"replace": null}')).toEqual({ success: true, data: { replace: null } });
    const broken = checkDataSchemaText('{"replace": ');
    expect(broken.success).toBe(false);
    expect(broken.success ? [] : broken.issues[0]).toMatchObject({ path: '(root)', pointer: '#' });
    expect(broken.success ? '' : broken.issues[0]?.message).toMatch(/^Not valid JSON: /);
  });
});
