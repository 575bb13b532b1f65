/**
 * The earlier prediction API (`/v1`) as zod schemas; the types are inferred from them.
 *
 * Every v1 body carries `api_request`. Its `prediction` objects differ per product (invoices, receipts,
 * passports, custom APIs ...), so the fields are read generically: the keys every product shares are typed
 * (`value`, `confidence`, `polygon`, `page_id` ...) and every other key is kept as it came
 * (`z.looseObject`): the review shows and edits them, and feedback sends them back. The envelope, job and
 * document keep zod's default (unknown keys accepted and dropped), as in the v2 schemas.
 *
 * Liberal where the recorded bodies (`../shared/fixtures/mindee-test-data/v1`) differ from the spec; each
 * case names its fixture.
 */
import { z } from 'zod';
import { FieldName, Id, ScalarValue, Timestamp } from '../common-schemas';

// ─── Envelope and errors ─────────────────────────────────────────────────────────────────────────────

/**
 * `api_request.error` and `job.error`: `{}` when all is well, else some of `code`, `message`, `details`.
 * `details` is a sentence or an object (`{ document: ["error message"] }`, errors/error_400_with_object_in_detail.json);
 * `code` may be missing (same file) and so may `details` (errors/error_400_no_details.json).
 */
export const V1Error = z.object({
  code: z.string().optional(),
  message: z.string().optional(),
  details: z.union([z.string(), z.record(z.string(), z.unknown())]).optional(),
});
export type V1Error = z.infer<typeof V1Error>;

export function isEmptyV1Error(error: V1Error): boolean {
  return error.code === undefined && error.message === undefined && error.details === undefined;
}

export const ApiRequest = z.object({
  error: V1Error,
  /** The resource names in the body, such as `["document", "job"]`. */
  resources: z.array(z.string()),
  /** `success` or `failure`; not reliable on its own (a 400 says `success` in error_400_with_object_in_detail.json). */
  status: z.string(),
  /** What v1 clients pick the error kind from (API-FACTS v1). */
  status_code: z.int(),
  /** The URL called; not always absolute (`account/api_name` in errors/error_403_*.json). */
  url: z.string(),
});
export type ApiRequest = z.infer<typeof ApiRequest>;

/** Any v1 body that reports a failure: only the envelope. */
export const V1ErrorResponse = z.object({ api_request: ApiRequest });
export type V1ErrorResponse = z.infer<typeof V1ErrorResponse>;

// ─── Job ─────────────────────────────────────────────────────────────────────────────────────────────

export const V1JobStatus = z.enum(['waiting', 'processing', 'completed', 'failed']);
export type V1JobStatus = z.infer<typeof V1JobStatus>;

export const V1Job = z.object({
  id: Id,
  issued_at: Timestamp,
  available_at: Timestamp.nullable().default(null),
  status: V1JobStatus,
  /** Absent from some recorded completed jobs (products/bank_statement_fr/response_v1/complete.json). */
  error: V1Error.default({}),
  /** Given by the enqueue response (rewritten by our app server to `/api/v1/...`). */
  polling_url: z.string().min(1).optional(),
});
export type V1Job = z.infer<typeof V1Job>;

export const V1_TERMINAL_JOB_STATUSES: ReadonlySet<V1JobStatus> = new Set(['completed', 'failed']);

// ─── Prediction ──────────────────────────────────────────────────────────────────────────────────────

/**
 * A v1 point `[x, y]`. Not bounded to 0..1: some products answer outside the page
 * (products/us_driver_license/response_v1/complete.json `contour`, down to -0.046) or in pixels
 * (products/idcard_fr/response_v1/complete.json `mrz1`, 208.286). The viewer decides what it can draw.
 */
export const V1Point = z.tuple([z.number(), z.number()]);
export type V1Point = z.infer<typeof V1Point>;

/**
 * A polygon, or `[]` when the field has none. A polygon with a missing coordinate (`[null, null]`,
 * products/generated/response_v1/bad_polygons_driver_license_v1.json) is read as "no polygon": the field
 * stays reviewable and nothing is drawn in a wrong place.
 */
export const V1Polygon = z
  .array(z.tuple([z.number().nullable(), z.number().nullable()]))
  .transform((points): V1Point[] =>
    points.every((p): p is V1Point => p[0] !== null && p[1] !== null) ? points : [],
  );
export type V1Polygon = z.infer<typeof V1Polygon>;

/** A word of a custom (API Builder) list field. */
export const V1ListFieldValue = z.looseObject({
  content: z.string().nullable(),
  confidence: z.number().optional(),
  polygon: V1Polygon.optional(),
  page_id: z.int().nullable().optional(),
});
export type V1ListFieldValue = z.infer<typeof V1ListFieldValue>;

/**
 * One field of a prediction. Every key is optional: products combine them freely (an amount has `value`,
 * `confidence`, `polygon`, `page_id`; a locale adds `language`, `currency`; a tax `rate`, `base`, `code`; a
 * custom API has `values`; a cropper zone `bounding_box`, `quadrangle`, `rectangle`). Other keys are kept.
 */
export const V1PredictionField = z.looseObject({
  value: ScalarValue.optional(),
  /** 0..1, a number (never a level as in v2). */
  confidence: z.number().nullable().optional(),
  polygon: V1Polygon.optional(),
  bounding_box: V1Polygon.optional(),
  quadrangle: V1Polygon.optional(),
  rectangle: V1Polygon.optional(),
  /** The page the field was found on, in document-level predictions. */
  page_id: z.int().nullable().optional(),
  raw_value: z.string().nullable().optional(),
  /** Custom APIs: the words making up the value. */
  values: z.array(V1ListFieldValue).optional(),
});
export type V1PredictionField = z.infer<typeof V1PredictionField>;

/** Feature name → one field, or a list of them (line items, taxes, given names ...). */
export const V1Prediction = z.record(z.string(), z.union([V1PredictionField, z.array(V1PredictionField)]));
export type V1Prediction = z.infer<typeof V1Prediction>;

// ─── Extras and OCR ──────────────────────────────────────────────────────────────────────────────────

export const V1CropperZone = z.looseObject({
  bounding_box: V1Polygon.optional(),
  polygon: V1Polygon.optional(),
  quadrangle: V1Polygon.optional(),
  rectangle: V1Polygon.optional(),
});

/** Page or document extras (extras/cropper/complete.json, extras/full_text_ocr/complete.json); others kept. */
export const V1Extras = z.looseObject({
  cropper: z.looseObject({ cropping: z.array(V1CropperZone) }).optional(),
  full_text_ocr: z
    .looseObject({ content: z.string(), language: z.string().nullable().optional() })
    .optional(),
});
export type V1Extras = z.infer<typeof V1Extras>;

export const V1OcrWord = z.object({
  text: z.string(),
  confidence: z.number(),
  polygon: V1Polygon,
});
export type V1OcrWord = z.infer<typeof V1OcrWord>;

/** Word-level OCR (`document.ocr`, extras/ocr/complete.json); `{}` when not asked for. */
export const V1Ocr = z.looseObject({
  'mvision-v1': z.object({ pages: z.array(z.object({ all_words: z.array(V1OcrWord) })) }).optional(),
});
export type V1Ocr = z.infer<typeof V1Ocr>;

// ─── Document ────────────────────────────────────────────────────────────────────────────────────────

export const V1Page = z.object({
  /** The page index, 0-based. */
  id: z.int().min(0),
  /** Clockwise rotation that makes the page upright: 0, 90, 180, 270, or null when unknown. */
  orientation: z.object({ value: z.number().nullable() }).default({ value: null }),
  /** Absent from some recorded pages (products/invoices/response_v4/complete.json). */
  extras: V1Extras.default({}),
  prediction: V1Prediction,
});
export type V1Page = z.infer<typeof V1Page>;

export const V1Product = z.looseObject({
  name: z.string(),
  type: z.string().optional(),
  version: z.string().optional(),
  features: z.array(z.string()).optional(),
});
export type V1Product = z.infer<typeof V1Product>;

export const V1Inference = z.object({
  started_at: Timestamp,
  finished_at: Timestamp,
  /** Seconds. */
  processing_time: z.number(),
  /**
   * true: polygons are already in the upright frame; false: in the raw frame, turn them with the page;
   * null: no orientation information. Absent from older products (expense_receipts/response_v3), which
   * is the same as null.
   */
  is_rotation_applied: z.boolean().nullable().default(null),
  extras: V1Extras.default({}),
  prediction: V1Prediction,
  pages: z.array(V1Page),
  /** Present in asynchronous results. */
  product: V1Product.optional(),
});
export type V1Inference = z.infer<typeof V1Inference>;

export const V1Document = z.object({
  id: Id,
  name: z.string(),
  n_pages: z.int().min(0),
  inference: V1Inference,
  ocr: V1Ocr.optional(),
});
export type V1Document = z.infer<typeof V1Document>;

// ─── Response bodies ─────────────────────────────────────────────────────────────────────────────────

/** `POST .../predict_async` → 202: the job, `waiting`, with its `polling_url`. */
export const V1EnqueueResponse = z.object({ api_request: ApiRequest, job: V1Job });
export type V1EnqueueResponse = z.infer<typeof V1EnqueueResponse>;

/** `GET .../documents/{id}` (and the 302 target of the queue): the document, with its job when asynchronous. */
export const V1DocumentResponse = z.object({
  api_request: ApiRequest,
  document: V1Document,
  job: V1Job.optional(),
});
export type V1DocumentResponse = z.infer<typeof V1DocumentResponse>;

/** A body with a job and no document: waiting, processing, or failed (async/get_failed_job_error.json). */
export const V1JobResponse = z.object({ api_request: ApiRequest, job: V1Job });
export type V1JobResponse = z.infer<typeof V1JobResponse>;

/**
 * `GET .../documents/queue/{job_id}`: the job while it runs; once completed the service answers 302 and a
 * browser follows it transparently, so the body may be the document instead. Told apart by `document`
 * (tried first: the job-only shape would also accept a document body and drop the document).
 */
export const V1QueueResponse = z.union([V1DocumentResponse, V1JobResponse]);
export type V1QueueResponse = z.infer<typeof V1QueueResponse>;

export function hasDocument(body: V1QueueResponse): body is V1DocumentResponse {
  return 'document' in body;
}

/** `POST .../predict`: the document, synchronously. */
export const V1PredictResponse = z.object({ api_request: ApiRequest, document: V1Document });
export type V1PredictResponse = z.infer<typeof V1PredictResponse>;

/** What a v1 webhook receives: no envelope; no document when the job failed (async/get_completed_empty.json). */
export const V1WebhookBody = z.object({ job: V1Job, document: V1Document.optional() });
export type V1WebhookBody = z.infer<typeof V1WebhookBody>;

// ─── Requests ──────────────────────────────────────────────────────────────────────────────────────

/** A document to predict on: a file, its base64 content, or a public HTTPS URL. */
export const V1DocumentInput = z.union([
  z.strictObject({
    file: z
      .instanceof(Blob, { error: 'Expected a file' })
      .refine((blob) => blob.size > 0, { error: 'The file is empty' }),
    filename: z.string().min(1).optional(),
  }),
  z.strictObject({ base64: z.string().min(1, { error: 'The base64 content is empty' }) }),
  z.strictObject({ url: z.url({ protocol: /^https$/, error: 'Expected a public https:// URL' }) }),
]);
export type V1DocumentInput = z.infer<typeof V1DocumentInput>;

// ─── Feedback ────────────────────────────────────────────────────────────────────────────────────────

/** The validated value of one field, or null to clear it. */
export const V1FeedbackValue = z.strictObject({ value: ScalarValue });

/** One row of a list field (a line item, a tax ...): its own keys with their validated values. */
export const V1FeedbackListItem = z
  .record(FieldName, ScalarValue)
  .refine((item) => Object.keys(item).length > 0, { error: 'A list item needs at least one key' });

/**
 * The feedback we send (`PUT`/`PATCH /v1/documents/{id}/feedback`): every field the caller uses, with its
 * validated value (API-FACTS v1 "Feedback"). Strict: field names as in the prediction, at least one field.
 */
export const V1FeedbackRequest = z.strictObject({
  feedback: z
    .record(FieldName, z.union([V1FeedbackValue, z.null(), z.array(V1FeedbackListItem)]))
    .refine((fields) => Object.keys(fields).length > 0, { error: 'Send at least one field' }),
});
export type V1FeedbackRequest = z.infer<typeof V1FeedbackRequest>;
export type V1Feedback = V1FeedbackRequest['feedback'];

/**
 * The answer: every field of the product, `null` where unset (products/invoices/feedback_response/empty.json).
 * Values are read as they come: what one product stores is not what another does.
 */
export const V1FeedbackResponse = z.object({
  api_request: ApiRequest,
  feedback: z.record(z.string(), z.unknown()),
});
export type V1FeedbackResponse = z.infer<typeof V1FeedbackResponse>;

// ─── Workflows (outside the spec; v1/workflows/*.json) ───────────────────────────────────────────────

/** `POST /v1/workflows/{id}/executions`: not used by the app, kept so the corpus is checked whole. */
export const V1WorkflowExecutionResponse = z.object({
  api_request: ApiRequest,
  execution: z.object({
    id: Id,
    workflow_id: Id,
    status: z.string(),
    priority: z.string().nullable().optional(),
    type: z.string().optional(),
    file: z.object({ name: z.string(), alias: z.string().nullable().default(null) }),
    batch_name: z.string().nullable().default(null),
    created_at: Timestamp.nullable().default(null),
    uploaded_at: Timestamp.nullable().default(null),
    reviewed_at: Timestamp.nullable().default(null),
    inference: z.unknown(),
    reviewed_prediction: z.unknown(),
  }),
});
export type V1WorkflowExecutionResponse = z.infer<typeof V1WorkflowExecutionResponse>;

// ─── Addressing a product ────────────────────────────────────────────────────────────────────────────

const PathSegment = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, { error: 'Use letters, digits, "_", "-" and "." only' })
  .refine((s) => s !== '.' && s !== '..');

/**
 * A v1 API: `account` (the ready-made ones live under `mindee`), `name`, `version` (`4`, or `v4`; the
 * path writes `v4`, API-FACTS v1).
 */
export const V1ProductRef = z.strictObject({
  account: PathSegment,
  name: PathSegment,
  version: z
    .union([
      z.int().min(1),
      z.string().regex(/^v?\d+(\.\d+)?$/, { error: 'Expected a version such as 4 or v4' }),
    ])
    .transform((v) => String(v).replace(/^v/, '')),
});
export type V1ProductRef = z.input<typeof V1ProductRef>;
