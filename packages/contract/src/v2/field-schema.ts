/**
 * The data schema as the extraction reads it: the spec's FieldSchema / SubFieldSchema with every
 * optional member filled in (`unique_values: false`, `guidelines: null`, `classification_values: []`,
 * `nested_fields: []`).
 *
 * One contract: what comes from outside (the `data_schema` request parameter, the models file) is
 * checked with the browser app's own strict schemas (packages/contract/src/v2/request-schemas.ts: unknown keys,
 * name rules, classification and nesting rules, duplicate names), then normalised here with
 * `normaliseFields`. The zod values below only build the internal shape (tests, defaults); they are not
 * a second validation of input.
 */
import { z } from 'zod';
import { check, type ValidationIssue } from '../issues';
import {
  DataSchema as SharedDataSchema,
  DataSchemaReplace as SharedDataSchemaReplace,
  type FieldSchema as SharedFieldSchema,
  type SubFieldSchema as SharedSubFieldSchema,
} from './request-schemas';

const simpleTypes = ['string', 'number', 'date', 'boolean', 'classification'] as const;

const commonMembers = {
  title: z.string(),
  name: z.string(),
  is_array: z.boolean(),
  unique_values: z.boolean().default(false),
  description: z.string(),
  guidelines: z.string().nullable().default(null),
  classification_values: z.array(z.string()).default([]),
};

/** Builds an internal sub-field, defaults filled in. */
export const SubFieldSchema = z.strictObject({ ...commonMembers, type: z.enum(simpleTypes) });

/** Builds an internal field, defaults filled in. */
export const FieldSchema = z.strictObject({
  ...commonMembers,
  type: z.enum([...simpleTypes, 'nested_object', 'object_detection', 'barcode']),
  nested_fields: z.array(SubFieldSchema).default([]),
});

export type SubFieldSchema = z.infer<typeof SubFieldSchema>;
export type FieldSchema = z.infer<typeof FieldSchema>;
export type SimpleFieldType = SubFieldSchema['type'];

function normaliseSubField(field: SharedSubFieldSchema): SubFieldSchema {
  return {
    title: field.title,
    name: field.name,
    is_array: field.is_array,
    unique_values: field.unique_values ?? false,
    description: field.description,
    guidelines: field.guidelines ?? null,
    classification_values: field.classification_values ?? [],
    type: field.type,
  };
}

/** Shared (strictly checked) fields → the internal shape, defaults filled in. */
export function normaliseFields(fields: readonly SharedFieldSchema[]): FieldSchema[] {
  return fields.map((field) => ({
    ...normaliseSubField({ ...field, type: 'string' }),
    type: field.type,
    nested_fields: (field.nested_fields ?? []).map(normaliseSubField),
  }));
}

export type CheckedFields =
  { success: true; fields: FieldSchema[] } | { success: false; issues: ValidationIssue[] };

/** `{ fields: [...] }` (a model's data schema, or `replace` of the request parameter), checked and normalised. */
export function checkDataSchemaFields(value: unknown): CheckedFields {
  const checked = check(SharedDataSchemaReplace, value);
  return checked.success
    ? { success: true, fields: normaliseFields(checked.data.fields) }
    : { success: false, issues: checked.issues };
}

/**
 * The `data_schema` request parameter (`{ replace: { fields } | null }`), checked and normalised:
 * `fields` is the replacement, or null when `replace` is null (the model's own schema stays).
 */
export function checkDataSchemaParameter(
  value: unknown,
): { success: true; fields: FieldSchema[] | null } | { success: false; issues: ValidationIssue[] } {
  const checked = check(SharedDataSchema, value);
  if (!checked.success) return { success: false, issues: checked.issues };
  const { replace } = checked.data;
  return { success: true, fields: replace ? normaliseFields(replace.fields) : null };
}
