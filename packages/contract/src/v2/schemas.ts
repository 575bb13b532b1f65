/**
 * The extraction API (`/v2`) as zod schemas; the types are inferred from them. One contract for the
 * browser and for our servers (the reference service checks its own output with these).
 *
 * Responses are read liberally, where the real service differs from the spec (each case names its
 * fixture under `../shared/fixtures/mindee-test-data` or its line in API-FACTS.md). Unknown keys are
 * accepted and dropped (zod's default `z.object`), also on field results, where the spec forbids them:
 * - accepted, because a key the service adds tomorrow must not break a review today (the fixture
 *   `financial_document/default_sample.json` already carries an unannounced `result.options`);
 * - dropped, because the inferred types then stay exact (a misspelt property is a compile error, not an
 *   `unknown`), and nothing here sends a response back to the service, so nothing is lost on the way.
 * Where the content itself is open (v1 predictions) the v1 schemas keep every key instead.
 *
 * What we send (enqueue input, data schema) is checked strictly: see request-schemas.ts, re-exported here.
 */
import { z } from 'zod';
import { Id, ServiceUrl, Timestamp } from '../common-schemas';

export * from './request-schemas';

// ─── Jobs ────────────────────────────────────────────────────────────────────────────────────────────

export const JobStatus = z.enum(['Processing', 'Processed', 'Failed']);
export type JobStatus = z.infer<typeof JobStatus>;

/** Status of one webhook call. */
export const ExtendedStatus = z.enum(['Processing', 'Processed', 'Failed', 'Skipped']);
export type ExtendedStatus = z.infer<typeof ExtendedStatus>;

export const ErrorItem = z.object({
  /** JSON Pointer to the request property concerned, in the form `#/model_id`. */
  pointer: z.string().nullable(),
  detail: z.string(),
});
export type ErrorItem = z.infer<typeof ErrorItem>;

/** Problem details (RFC 9457), the body of every v2 error and of `job.error`. */
export const ErrorResponse = z.object({
  status: z.int().min(100).max(599),
  detail: z.string(),
  title: z.string(),
  /** Shaped like `422-001` (API-FACTS "Errors"). */
  code: z.string(),
  errors: z.array(ErrorItem).default([]),
});
export type ErrorResponse = z.infer<typeof ErrorResponse>;

export const WebhookResponse = z.object({
  id: Id,
  created_at: Timestamp.nullable().default(null),
  status: ExtendedStatus.default('Processing'),
  error: ErrorResponse.nullable().default(null),
  /** Absent in recorded bodies (v2/job/ok_processed_webhooks_ok.json); the spec's default is 0. */
  attempts_count: z.int().min(0).default(0),
});
export type WebhookResponse = z.infer<typeof WebhookResponse>;

export const Job = z.object({
  id: Id,
  model_id: Id,
  filename: z.string(),
  alias: z.string().nullable().default(null),
  created_at: Timestamp,
  completed_at: Timestamp.nullable().default(null),
  status: JobStatus,
  polling_url: ServiceUrl,
  /**
   * Filled once processed. Follow it as given: recorded bodies point under `/v2/inferences/{id}`
   * (v2/job/ok_processed_webhooks_ok.json) where the spec says `/v2/products/extraction/results/{id}`.
   */
  result_url: ServiceUrl.nullable().default(null),
  webhooks: z.array(WebhookResponse).default([]),
  error: ErrorResponse.nullable().default(null),
});
export type Job = z.infer<typeof Job>;

export const JobResponse = z.object({ job: Job });
export type JobResponse = z.infer<typeof JobResponse>;

export const TERMINAL_JOB_STATUSES: ReadonlySet<JobStatus> = new Set(['Processed', 'Failed']);

export function isTerminalJobStatus(status: JobStatus): boolean {
  return TERMINAL_JOB_STATUSES.has(status);
}

// ─── Field results ───────────────────────────────────────────────────────────────────────────────────

/** Four levels, `Low` included: the spec lists three, the service sends `Low` (complete_with_coordinates.json). */
export const FieldConfidence = z.enum(['Certain', 'High', 'Medium', 'Low']);
export type FieldConfidence = z.infer<typeof FieldConfidence>;

/** A coordinate relative to the page edge. */
const Coordinate = z
  .number()
  .min(0, { error: 'expected number >= 0' })
  .max(1, { error: 'expected number <= 1' });

/** `[x, y]`, both in 0..1, origin at the top left of the page. */
export const Point = z.tuple([Coordinate, Coordinate]);
export type Point = z.infer<typeof Point>;

export const Polygon = z.array(Point).min(3, { error: 'expected a polygon of at least 3 points' });
export type Polygon = z.infer<typeof Polygon>;

export const FieldLocation = z.object({
  polygon: Polygon,
  /** 0-based page index. */
  page: z.int().min(0),
});
export type FieldLocation = z.infer<typeof FieldLocation>;

export const SimpleValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);
export type SimpleValue = z.infer<typeof SimpleValue>;

const locations = z.array(FieldLocation).default([]);
/** `null` when the confidence option is off; absent on nested items (deep_nested_fields.json). */
const confidence = FieldConfidence.nullable().default(null);

export const SimpleFieldResult = z.object({
  value: SimpleValue,
  locations,
  confidence,
});
export type SimpleFieldResult = z.infer<typeof SimpleFieldResult>;

/**
 * The three field shapes refer to each other. The spec allows one level of nesting (objects of simple
 * fields and lists of simple fields); the service nests deeper: objects inside list items inside objects
 * (deep_nested_fields.json). So one recursive definition (zod 4 getters) serves every level.
 */
export const ObjectFieldResult: z.ZodType<ObjectFieldResult, ObjectFieldResultInput> = z.object({
  get fields() {
    return FieldMap;
  },
  locations,
  confidence,
});
/**
 * The recursive shapes are written out as interfaces: inferred, they would be cut off at a few levels
 * in the declaration files the packages build (`Record<string, unknown>` below), and every consumer
 * outside this package would see a different type.
 */
export interface ObjectFieldResult {
  fields: FieldMap;
  locations: FieldLocation[];
  confidence: FieldConfidence | null;
}
export interface ObjectFieldResultInput {
  fields: FieldMapInput;
  locations?: FieldLocation[] | undefined;
  confidence?: FieldConfidence | null | undefined;
}

/** List fields carry `confidence` but no `locations` (API-FACTS); items are simple fields or objects. */
export const ListFieldResult: z.ZodType<ListFieldResult, ListFieldResultInput> = z.object({
  get items() {
    return z.array(FieldResult);
  },
  confidence,
});
export interface ListFieldResult {
  items: FieldResult[];
  confidence: FieldConfidence | null;
}
export interface ListFieldResultInput {
  items: FieldResultInput[];
  confidence?: FieldConfidence | null | undefined;
}

/** The spec's list inside an object; the same shape as any list, see ObjectFieldResult. */
export const ListSubfieldResult = ListFieldResult;
export type ListSubfieldResult = ListFieldResult;

/**
 * Told apart by key, as the official client does (`mindee-api-python`, `parsing/v2/field/base_field.py`):
 * `items` → list, else `fields` → object, else `value` → simple. The union is tried in that order.
 * See fields.ts for `fieldKind()`.
 */
export const FieldResult: z.ZodType<FieldResult, FieldResultInput> = z.union([
  ListFieldResult,
  ObjectFieldResult,
  SimpleFieldResult,
]);
export type FieldResult = ListFieldResult | ObjectFieldResult | SimpleFieldResult;
export type FieldResultInput =
  ListFieldResultInput | ObjectFieldResultInput | z.input<typeof SimpleFieldResult>;

/** Field name in the data schema → its result. */
export const FieldMap: z.ZodType<FieldMap, FieldMapInput> = z.record(z.string(), FieldResult);
export type FieldMap = Record<string, FieldResult>;
export type FieldMapInput = Record<string, FieldResultInput>;

// ─── Inference ───────────────────────────────────────────────────────────────────────────────────────

/** The text of each page, lines separated by `\n`. */
export const RawText = z.object({ pages: z.array(z.object({ content: z.string() })) });
export type RawText = z.infer<typeof RawText>;

export const Rag = z.object({
  /** The matched document, or null when none matched (rag_not_matched.json). */
  retrieved_document_id: Id.nullable(),
});
export type Rag = z.infer<typeof Rag>;

export const ExtractionResult = z.object({
  fields: FieldMap,
  raw_text: RawText.nullable().default(null),
  /** Absent, not null, in some recorded bodies (financial_document/blank.json). */
  rag: Rag.nullable().default(null),
});
export type ExtractionResult = z.infer<typeof ExtractionResult>;

export const InferenceActiveOptions = z.object({
  raw_text: z.boolean(),
  polygon: z.boolean(),
  confidence: z.boolean(),
  rag: z.boolean(),
  /** Absent from most recorded bodies (financial_document/*.json): not reported, so not active. */
  multipage_context: z.boolean().default(false),
  text_context: z.boolean(),
  data_schema: z.object({ replace: z.boolean() }),
});
export type InferenceActiveOptions = z.infer<typeof InferenceActiveOptions>;

export const InferenceFile = z.object({
  /** File name as sent. */
  name: z.string(),
  alias: z.string().nullable().default(null),
  page_count: z.int().min(1),
  /** Detected from the bytes, not from the name. */
  mime_type: z.string(),
});
export type InferenceFile = z.infer<typeof InferenceFile>;

export const ResourceRef = z.object({ id: Id });
export type ResourceRef = z.infer<typeof ResourceRef>;

export const ExtractionInference = z.object({
  id: Id,
  job: ResourceRef,
  model: ResourceRef,
  file: InferenceFile,
  result: ExtractionResult,
  active_options: InferenceActiveOptions,
});
export type ExtractionInference = z.infer<typeof ExtractionInference>;

/** The result of an inference, and the body of the `extraction-processed` webhook. */
export const ExtractionResponse = z.object({ inference: ExtractionInference });
export type ExtractionResponse = z.infer<typeof ExtractionResponse>;

// ─── Models search (`GET /v2/search/models`, a hosted endpoint outside the spec: v2/search/models.json) ──

/** Model types the hosted service lists; others are accepted, as the list grows. */
export const KNOWN_MODEL_TYPES = ['extraction', 'classification', 'crop', 'ocr', 'split'] as const;

export const ModelWebhook = z.object({ id: Id, name: z.string(), url: z.string() });
export type ModelWebhook = z.infer<typeof ModelWebhook>;

export const Model = z.object({
  id: Id,
  name: z.string(),
  model_type: z.string(),
  /** Absent on some models ("Extraction Without Webhooks Key" in the fixture). */
  webhooks: z.array(ModelWebhook).default([]),
});
export type Model = z.infer<typeof Model>;

export const Pagination = z.object({
  per_page: z.int().min(1),
  page: z.int().min(1),
  total_items: z.int().min(0),
  total_pages: z.int().min(0),
  total_items_unfiltered: z.int().min(0).nullable().default(null),
});
export type Pagination = z.infer<typeof Pagination>;

export const ModelsSearchResponse = z.object({ models: z.array(Model), pagination: Pagination });
export type ModelsSearchResponse = z.infer<typeof ModelsSearchResponse>;
