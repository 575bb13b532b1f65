/**
 * What we send to the extraction API, checked strictly before it leaves the browser: unknown keys are
 * errors (a misspelt `guideline` would otherwise be dropped silently by the service), and every rule the
 * spec states in prose is a check with a message a form can show next to the exact path.
 *
 * Forms reuse these schemas; `check()` in issues.ts gives `{ path, pointer, message }` per problem.
 */
import { z } from 'zod';
import { FieldName, Uuid } from '../common-schemas';
import { check, type Checked, type ValidationIssue } from '../issues';

// ─── Data schema replacement ─────────────────────────────────────────────────────────────────────────

export const FIELD_TYPES = [
  'string',
  'number',
  'date',
  'boolean',
  'classification',
  'nested_object',
  'object_detection',
  'barcode',
] as const;
export const FieldType = z.enum(FIELD_TYPES);
export type FieldType = z.infer<typeof FieldType>;

/** Sub-fields of a nested object take only the scalar types. */
export const SUBFIELD_TYPES = ['string', 'number', 'date', 'boolean', 'classification'] as const;
export const SubFieldType = z.enum(SUBFIELD_TYPES);
export type SubFieldType = z.infer<typeof SubFieldType>;

/** "About 25 fields at most is recommended" (API-FACTS): a hint for the editor, not a rule. */
export const RECOMMENDED_MAX_FIELDS = 25;

const nonBlank = (what: string) =>
  z.string().refine((s) => s.trim() !== '', { error: `${what} cannot be empty` });

const fieldMembers = {
  /** Display name; it also steers the extraction. */
  title: nonBlank('The title'),
  name: FieldName,
  is_array: z.boolean(),
  /** Removes duplicates from an array field. */
  unique_values: z.boolean().optional(),
  description: nonBlank('The description'),
  guidelines: z.string().nullable().optional(),
  classification_values: z.array(nonBlank('A classification value')).optional(),
};

/**
 * The rules below also run when other members of the same field are invalid (`when`), so a form shows
 * every problem at once; they read the value defensively, as it may be only partly valid.
 */
const always = { when: () => true };

type Loose = Record<string, unknown>;

const asRecord = (value: unknown): Loose | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Loose) : undefined;

function checkFieldRules(
  raw: unknown,
  ctx: z.core.$RefinementCtx<unknown>,
  knownTypes: readonly string[],
): void {
  const field = asRecord(raw);
  if (!field || typeof field.type !== 'string' || !knownTypes.includes(field.type)) return;
  const values = Array.isArray(field.classification_values) ? (field.classification_values as unknown[]) : [];
  if (field.type === 'classification' && values.length === 0)
    ctx.addIssue({
      code: 'custom',
      path: ['classification_values'],
      message: 'A classification field needs at least one value',
    });
  if (field.type !== 'classification' && values.length > 0)
    ctx.addIssue({
      code: 'custom',
      path: ['classification_values'],
      message: 'Only classification fields take classification_values',
    });
  values.forEach((value, i) => {
    if (values.indexOf(value) !== i)
      ctx.addIssue({
        code: 'custom',
        path: ['classification_values', i],
        message: `Duplicate value ${JSON.stringify(value)}`,
      });
  });
  if (field.unique_values === true && field.is_array === false)
    ctx.addIssue({
      code: 'custom',
      path: ['unique_values'],
      message: 'unique_values applies only when is_array is true',
    });
  const nested = Array.isArray(field.nested_fields) ? field.nested_fields : [];
  if (field.type === 'nested_object' && nested.length === 0)
    ctx.addIssue({
      code: 'custom',
      path: ['nested_fields'],
      message: 'A nested_object field needs at least one nested field',
    });
  if (field.type !== 'nested_object' && nested.length > 0)
    ctx.addIssue({
      code: 'custom',
      path: ['nested_fields'],
      message: 'Only nested_object fields take nested_fields',
    });
}

function checkUniqueNames(
  fields: unknown,
  ctx: z.core.$RefinementCtx<unknown>,
  prefix: readonly PropertyKey[],
): void {
  if (!Array.isArray(fields)) return;
  const seen = new Set<string>();
  fields.forEach((raw, i) => {
    const name = asRecord(raw)?.name;
    if (typeof name !== 'string') return;
    if (seen.has(name))
      ctx.addIssue({
        code: 'custom',
        path: [...prefix, i, 'name'],
        message: `Duplicate field name "${name}"`,
      });
    seen.add(name);
  });
}

export const SubFieldSchema = z
  .strictObject({ ...fieldMembers, type: SubFieldType })
  .superRefine((field, ctx) => checkFieldRules(field, ctx, SUBFIELD_TYPES), always);
export type SubFieldSchema = z.infer<typeof SubFieldSchema>;

export const FieldSchema = z
  .strictObject({
    ...fieldMembers,
    type: FieldType,
    nested_fields: z.array(SubFieldSchema).optional(),
  })
  .superRefine((field, ctx) => {
    checkFieldRules(field, ctx, FIELD_TYPES);
    checkUniqueNames(asRecord(field)?.nested_fields, ctx, ['nested_fields']);
  }, always);
export type FieldSchema = z.infer<typeof FieldSchema>;

export const DataSchemaReplace = z
  .strictObject({ fields: z.array(FieldSchema).min(1, { error: 'Add at least one field' }) })
  .superRefine((replace, ctx) => checkUniqueNames(asRecord(replace)?.fields, ctx, ['fields']), always);
export type DataSchemaReplace = z.infer<typeof DataSchemaReplace>;

/**
 * The `data_schema` parameter: replaces the model's data schema for one inference. Sent as a JSON string;
 * `replace: null` keeps the model's own schema.
 */
export const DataSchema = z.strictObject({ replace: DataSchemaReplace.nullable() });
export type DataSchema = z.infer<typeof DataSchema>;

/**
 * For a JSON editor: parse the text and check it, with a syntax error reported at the root
 * (`JSON.parse` gives no path).
 */
export function checkDataSchemaText(text: string): Checked<DataSchema> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const issue: ValidationIssue = {
      path: '(root)',
      pointer: '#',
      message: `Not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
    };
    return { success: false, issues: [issue] };
  }
  return check(DataSchema, value);
}

// ─── Enqueue ─────────────────────────────────────────────────────────────────────────────────────────

/** "Files up to 100 MB" (API-FACTS "Limits"). */
export const MAX_FILE_BYTES = 100 * 1024 * 1024;

const SOURCES = ['file', 'url', 'file_base64'] as const;

/**
 * Input of `enqueueExtraction`. Exactly one source: `file` (a Blob or File), `url` (public HTTPS) or
 * `file_base64`. Options left out are not sent, so the model's defaults apply (API-FACTS: booleans "only
 * when set").
 */
export const EnqueueExtractionInput = z
  .strictObject({
    model_id: Uuid,
    file: z
      .instanceof(Blob, { error: 'Expected a file' })
      .refine((blob) => blob.size > 0, { error: 'The file is empty' })
      .refine((blob) => blob.size <= MAX_FILE_BYTES, { error: 'The file is larger than 100 MB' })
      .optional(),
    url: z
      .url({ protocol: /^https$/, error: 'Expected a public https:// URL' })
      .max(2048, { error: 'The URL is longer than 2048 characters' })
      .optional(),
    file_base64: z.string().min(15, { error: 'Base64 content is at least 15 characters' }).optional(),
    /** Name to give the file (an uploaded File's own name is used otherwise). */
    filename: nonBlank('The file name').optional(),
    /** Free-form identifier returned in the job and the result. */
    alias: z.string().optional(),
    webhook_ids: z.array(Uuid).optional(),
    raw_text: z.boolean().optional(),
    polygon: z.boolean().optional(),
    confidence: z.boolean().optional(),
    rag: z.boolean().optional(),
    text_context: z.string().optional(),
    data_schema: DataSchema.optional(),
  })
  .superRefine((input, ctx) => {
    const given = SOURCES.filter((key) => input[key] !== undefined);
    if (given.length === 0)
      ctx.addIssue({ code: 'custom', path: ['file'], message: 'Choose a file, or give a URL' });
    for (const key of given.slice(1))
      ctx.addIssue({
        code: 'custom',
        path: [key],
        message: `Give only one of file, url and file_base64 (${given[0]} is already set)`,
      });
  });
export type EnqueueExtractionInput = z.infer<typeof EnqueueExtractionInput>;

// ─── Models search ───────────────────────────────────────────────────────────────────────────────────

export const SearchModelsParams = z.strictObject({
  /** Part of the model name. */
  name: z.string().optional(),
  model_type: z.string().optional(),
  page: z.int().min(1).optional(),
  per_page: z.int().min(1).optional(),
});
export type SearchModelsParams = z.infer<typeof SearchModelsParams>;
