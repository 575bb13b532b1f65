/**
 * Building blocks shared by the v1 and v2 schemas.
 *
 * Liberal on purpose: these describe what the service sends, and the recorded bodies in the fixtures
 * (`../shared/fixtures/mindee-test-data`) differ from the spec in small, stable ways.
 */
import { z } from 'zod';

/**
 * An identifier as the service writes it. The spec says UUID, but recorded bodies carry ids such as
 * `12345678-1234-1234-1234-jobid1234567` and `test-model-id` (v2/products/extraction/*.json), so any
 * non-empty string is accepted. What we send is checked strictly (see `Uuid`).
 */
export const Id = z.string().min(1);

/** A UUID in the 8-4-4-4-12 form, any version: what the hosted service checks on input (v2/job/fail_422.json). */
/**
 * A UUID's text, any version, either case (the hosted service's recorded ids are not all RFC 4122,
 * fixtures v2/job/*.json): for checks outside zod, e.g. a path segment.
 */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (text: string): boolean => UUID_PATTERN.test(text);

export const Uuid = z.guid({ error: 'Expected a UUID such as 12345678-1234-1234-1234-123456789abc' });

const ZONELESS_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;

/**
 * An ISO 8601 timestamp. The service writes most of them without a time zone (`2025-07-03T14:27:58.974451`,
 * v2/job/*.json; API-FACTS "Timestamps are ISO 8601 without a zone or with +00:00") and means UTC, while
 * `new Date()` would read a zoneless string as local time. So a zoneless date-time gets a `Z`; anything else
 * passes unchanged rather than failing a whole response over a timestamp.
 */
export const Timestamp = z
  .string()
  .min(1)
  .transform((s) => (ZONELESS_DATE_TIME.test(s) ? `${s}Z` : s));

/**
 * A URL given by the service (`polling_url`, `result_url`). Not `z.url()`: the app server rewrites them to
 * same-origin paths such as `/api/v2/jobs/<id>`, which are not absolute URLs. The HTTP layer decides whether
 * one may be followed (only under our `/api/` base).
 */
export const ServiceUrl = z.string().min(1).max(2083);

/** Field names in a v2 data schema and in v1 feedback: a-z, 0-9 and single `_`, not at either end. */
export const FIELD_NAME_PATTERN = /^[a-z0-9]+(_[a-z0-9]+)*$/;

export const FieldName = z.string().regex(FIELD_NAME_PATTERN, {
  error:
    'Use lowercase letters (a-z), digits and single underscores, not at the start or end (for example total_amount)',
});

/** A JSON scalar as a field value. */
export const ScalarValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);
export type ScalarValue = z.infer<typeof ScalarValue>;
