/**
 * The spec's FieldSchema / SubFieldSchema (data schema of a model, and later of the `data_schema`
 * request parameter), validated with zod. Field names follow the hosted service's rule: a-z, 0-9 and
 * `_`, no leading or trailing `_` (API-FACTS).
 */
import { z } from 'zod';

const fieldName = z
  .string()
  .regex(/^[a-z0-9](?:[a-z0-9_]*[a-z0-9])?$/, 'use a-z, 0-9 and _, with no leading or trailing _');

const simpleTypes = ['string', 'number', 'date', 'boolean', 'classification'] as const;

const commonMembers = {
  title: z.string().min(1),
  name: fieldName,
  is_array: z.boolean(),
  unique_values: z.boolean().default(false),
  description: z.string(),
  guidelines: z.string().nullable().default(null),
  classification_values: z.array(z.string()).default([]),
};

export const SubFieldSchema = z.strictObject({ ...commonMembers, type: z.enum(simpleTypes) });

export const FieldSchema = z.strictObject({
  ...commonMembers,
  type: z.enum([...simpleTypes, 'nested_object', 'object_detection', 'barcode']),
  nested_fields: z.array(SubFieldSchema).default([]),
});

export type SubFieldSchema = z.infer<typeof SubFieldSchema>;
export type FieldSchema = z.infer<typeof FieldSchema>;
export type SimpleFieldType = SubFieldSchema['type'];
