/**
 * v1 feedback (spec §4.2 "PUT and PATCH …/feedback", §7.2; API-FACTS v1 "Feedback"): the caller's
 * validated values for a document's fields, kept in SQLite (`v1_feedback`, v1-store.ts).
 *
 * The spec leaves the semantics open; ours, documented in docs/reference-service.md:
 * - `PUT` replaces the stored feedback, `PATCH` merges into it field by field (a field sent as `null`
 *   is cleared). Both are idempotent: the same request twice stores the same outcome.
 * - The answer lists every field of the document's product, `null` where nothing is stored, sorted by
 *   name as the recorded body is (products/invoices/feedback_response/empty.json).
 * - `GET` on the same path, returning the stored feedback, is an extension of ours.
 *
 * The payload is read a little more liberally than the browser sends it (packages/contract/src/v1/schemas.ts
 * V1FeedbackRequest): a field is `null`, an object of scalars (`{ value }`, or an object field's keys
 * such as a locale's) or a list of such objects; field names must be the product's.
 */
import { z } from 'zod';
import { ProblemError } from '@extraction-review/contract/problem';
import type { V1Product } from '../models/model-catalog';

const Scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);
const Entry = z
  .record(z.string().regex(/^[a-z0-9_]+$/), Scalar)
  .refine((entry) => Object.keys(entry).length > 0, { error: 'an empty object carries no value' });
const FieldFeedback = z.union([z.null(), Entry, z.array(Entry)]);

const FeedbackBody = z.strictObject({
  feedback: z
    .record(z.string(), FieldFeedback)
    .refine((fields) => Object.keys(fields).length > 0, { error: 'send at least one field' }),
});

export type FieldFeedback = z.infer<typeof FieldFeedback>;
export type StoredFeedback = Record<string, FieldFeedback>;

/**
 * The request's feedback, checked against the product's field names. The body is read as JSON
 * whatever its Content-Type says, since official clients send it without one (API-FACTS v1).
 */
export function parseFeedback(text: string, product: V1Product): StoredFeedback {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ProblemError(
      '400-003',
      'The body is not JSON: send { "feedback": { "<field>": { "value": … } } }.',
    );
  }
  const parsed = FeedbackBody.safeParse(json);
  if (!parsed.success) {
    throw new ProblemError('400-003', 'The feedback payload is malformed.', {
      errors: parsed.error.issues.map((issue) => ({
        pointer: `#/${issue.path.map(String).join('/')}`,
        detail: `${issue.path.map(String).join('.') || 'body'}: ${issue.message}`,
      })),
    });
  }
  const known = new Set(product.fields.map((field) => field.name));
  const unknown = Object.keys(parsed.data.feedback).filter((name) => !known.has(name));
  if (unknown.length > 0) {
    throw new ProblemError(
      '400-003',
      `${product.account}/${product.name} has no field ${unknown.join(', ')}.`,
      { errors: unknown.map((name) => ({ pointer: `#/feedback/${name}`, detail: `unknown field ${name}` })) },
    );
  }
  return parsed.data.feedback;
}

/** PUT replaces; PATCH lays the sent fields over the stored ones. */
export function combineFeedback(
  method: 'PUT' | 'PATCH',
  stored: StoredFeedback | undefined,
  sent: StoredFeedback,
): StoredFeedback {
  return method === 'PUT' ? { ...sent } : { ...stored, ...sent };
}

/** Every field of the product, `null` where nothing is stored, sorted by name. */
export function feedbackJson(product: V1Product, stored: StoredFeedback | undefined): StoredFeedback {
  const names = product.fields.map((field) => field.name).sort();
  return Object.fromEntries(names.map((name) => [name, stored?.[name] ?? null]));
}
