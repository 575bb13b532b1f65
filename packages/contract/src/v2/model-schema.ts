/**
 * A model's data schema: `GET /v2/extensions/models/{model_id}`, an extension of the reference service
 * (docs/reference-service.md), not of the hosted API, which has no endpoint for it. The review uses it
 * to offer the values of a classification field, and to title fields.
 *
 * On an upstream without the extension (the hosted service answers 404), the schema is `null`: the
 * review then does without, rather than failing.
 *
 * Read liberally like every response (docs/decisions/0003): defaults for the optional members, any
 * field `type` accepted (a type the service adds tomorrow must not hide the whole schema).
 */
import { z } from 'zod';
import { Id } from '../common-schemas';

const fieldMembers = {
  name: z.string(),
  title: z.string(),
  /** One of FIELD_TYPES (request-schemas.ts) on today's services; any string is accepted. */
  type: z.string(),
  is_array: z.boolean().default(false),
  unique_values: z.boolean().default(false),
  description: z.string().default(''),
  guidelines: z.string().nullable().default(null),
  /** The allowed values of a `classification` field; empty for the other types. */
  classification_values: z.array(z.string()).default([]),
};

export const ModelSchemaSubField = z.object(fieldMembers);
export type ModelSchemaSubField = z.infer<typeof ModelSchemaSubField>;

export const ModelSchemaField = z.object({
  ...fieldMembers,
  /** The sub-fields of a `nested_object` field; empty for the other types. */
  nested_fields: z.array(ModelSchemaSubField).default([]),
});
export type ModelSchemaField = z.infer<typeof ModelSchemaField>;

export const ModelSchema = z.object({
  id: Id,
  name: z.string(),
  data_schema: z.object({ fields: z.array(ModelSchemaField) }),
});
export type ModelSchema = z.infer<typeof ModelSchema>;

export const ModelSchemaResponse = z.object({ model: ModelSchema });
export type ModelSchemaResponse = z.infer<typeof ModelSchemaResponse>;
