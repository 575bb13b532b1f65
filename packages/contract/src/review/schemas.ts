/**
 * The review API's vocabulary (the app server's review store, server/app/review/): shared by the server,
 * which builds its answers with these schemas, and the browser, which parses them.
 *
 * A document's life in the queue:
 *
 *   processing ──▶ to_review ──take──▶ in_review ──▶ confirmed | rejected | postponed
 *        │             ▲                  │  (lease expired, or released)
 *        ▼             └──────────────────┘
 *      failed          an admin may reopen a decided document (→ to_review) or reassign a held one
 *
 * `in_review` is held by one operator under a lease; an expired lease counts as `to_review` at once,
 * with no sweeper (server/app/review/model/queue-state.ts).
 */
import { z } from 'zod';

export const DocumentState = z.enum([
  'processing',
  'failed',
  'to_review',
  'in_review',
  'confirmed',
  'rejected',
  'postponed',
]);
export type DocumentState = z.infer<typeof DocumentState>;

/** The states a document can be decided into. */
export const Decision = z.enum(['confirmed', 'rejected', 'postponed']);
export type Decision = z.infer<typeof Decision>;

export const OperatorRole = z.enum(['admin', 'operator']);
export type OperatorRole = z.infer<typeof OperatorRole>;

export const ApiVersion = z.enum(['v2', 'v1']);
export type ApiVersion = z.infer<typeof ApiVersion>;

/** Password rules, checked by the server (server/app/review/auth/passwords.ts) and by the forms first. */
export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 1024;

// ─── Operators and sessions ──────────────────────────────────────────────────────────────────────────

export const OperatorRef = z.object({ id: z.string(), name: z.string().nullable() });
export type OperatorRef = z.infer<typeof OperatorRef>;

export const OperatorView = z.object({
  id: z.string(),
  name: z.string(),
  role: OperatorRole,
  hasPassword: z.boolean(),
  createdAt: z.iso.datetime(),
  /** When an admin deactivated them (signed out, refused at sign-in); absent or null: active. */
  deactivatedAt: z.iso.datetime().nullable().optional(),
});
export type OperatorView = z.infer<typeof OperatorView>;

/** `POST /api/session`. */
export const SignInRequest = z.strictObject({
  name: z.string().trim().min(1, { error: 'Give your name' }).max(200),
  password: z.string().min(1, { error: 'Give your password' }).max(1024),
});
export type SignInRequest = z.infer<typeof SignInRequest>;

/**
 * `GET`/`POST /api/session` (200): who is signed in, and the token every later state-changing request
 * sends back in `X-CSRF-Token`.
 */
export const SessionResponse = z.object({ operator: OperatorView, csrfToken: z.string() });
export type SessionResponse = z.infer<typeof SessionResponse>;

/**
 * `GET /api/session/options` (public): how this app signs people in, for the sign-in page. `provider`:
 * the company's OpenID Connect provider (OIDC_*), with the name its button shows; null without one.
 */
export const SignInOptions = z.object({
  passwordSignIn: z.boolean(),
  provider: z.object({ name: z.string() }).nullable(),
});
export type SignInOptions = z.infer<typeof SignInOptions>;

/** `POST /api/session/provider` (200): where the browser goes to sign in with the provider. */
export const ProviderSignInStart = z.object({ authorizationUrl: z.url() });
export type ProviderSignInStart = z.infer<typeof ProviderSignInStart>;

/**
 * `POST /api/session/provider/callback`: the query string the provider sent the browser back to the
 * sign-in page with (`?code=…&state=…`, or `?error=…`), as it came.
 */
export const ProviderCallbackRequest = z.strictObject({
  callback: z.string().min(1, { error: 'Give the query string the provider sent back' }).max(8192),
});
export type ProviderCallbackRequest = z.infer<typeof ProviderCallbackRequest>;

/** `POST /api/setup`: the one-time set-up link's token and the first admin. */
export const SetupRequest = z.strictObject({
  token: z.string().min(1).max(200),
  name: z.string().trim().min(1, { error: 'Give a name' }).max(200),
  password: z.string().max(1024),
});

/** `POST /api/operators` (admins). */
export const NewOperatorRequest = z.strictObject({
  name: z.string().trim().min(1, { error: 'Give a name' }).max(200),
  role: OperatorRole,
  password: z.string().max(1024),
});

/** `PUT /api/operators/{id}/access`: the operator's role, and whether they may sign in. */
export const UpdateOperatorRequest = z.strictObject({
  role: OperatorRole,
  /** False: deactivated (signed out, refused at sign-in); true: active. */
  active: z.boolean(),
});
export type UpdateOperatorRequest = z.infer<typeof UpdateOperatorRequest>;

/** `POST /api/password-links`: a one-time password link's token and the new password. */
export const SetPasswordRequest = z.strictObject({
  token: z.string().min(1).max(200),
  password: z.string().max(1024),
});
export type SetPasswordRequest = z.infer<typeof SetPasswordRequest>;

// ─── Documents in the queue ──────────────────────────────────────────────────────────────────────────

export const QueueDocument = z.object({
  id: z.string(),
  /** Send it back with every write: a write based on another version is refused (409). */
  version: z.int().positive(),
  apiVersion: ApiVersion,
  /** v2: the model id; v1: `account/name/vN`. */
  model: z.string(),
  fileName: z.string(),
  alias: z.string().nullable(),
  state: DocumentState,
  holder: OperatorRef.nullable(),
  leaseExpiresAt: z.iso.datetime().nullable(),
  decidedBy: OperatorRef.nullable(),
  decidedAt: z.iso.datetime().nullable(),
  reason: z.string().nullable(),
  /** A postponed document comes back to the queue at this time (null or absent: when someone takes it). */
  postponedUntil: z.iso.datetime().nullable().optional(),
  priority: z.int(),
  fieldsTotal: z.int().nonnegative(),
  fieldsToReview: z.int().nonnegative(),
  createdAt: z.iso.datetime(),
  readyAt: z.iso.datetime().nullable(),
  upstreamJobId: z.string().nullable(),
  upstreamResultId: z.string().nullable(),
  /** The operator who uploaded it from the app; null when a pipeline sent it (or it was imported). */
  uploadedBy: OperatorRef.nullable(),
  /**
   * The operator an admin assigned it to: their "next" gives it first, nobody else's gives it, until
   * it is confirmed, rejected or unassigned. Null or absent: the team's.
   */
  assignedTo: OperatorRef.nullable().optional(),
  assignedAt: z.iso.datetime().nullable().optional(),
  /**
   * The earliest document whose kept file is byte-identical (same SHA-256) to this one's, when it was
   * uploaded after it; null for the first of its file, or a document without a kept file.
   */
  duplicateOf: z.object({ id: z.string(), fileName: z.string() }).nullable(),
});
export type QueueDocument = z.infer<typeof QueueDocument>;

/** `GET /api/review/jobs/{apiVersion}/{jobId}`: the document an upstream job brought. */
export const JobDocumentResponse = z.object({ document: QueueDocument });
export type JobDocumentResponse = z.infer<typeof JobDocumentResponse>;

/** One document with what the review needs: the upstream's result and the corrections so far. */
export const ReviewDocument = QueueDocument.extend({
  /** The upstream's answer as it came (v2 inference response, v1 document response). */
  result: z.unknown().nullable(),
  /** A failed job's problem. */
  error: z.unknown().nullable(),
  /** The latest corrected value of each corrected field, by path. */
  corrections: z.record(z.string(), z.unknown()),
  /** When the model's retention rule removed its kept file (the document stays); null while kept. */
  fileRemovedAt: z.iso.datetime().nullable().optional(),
});
export type ReviewDocument = z.infer<typeof ReviewDocument>;

/** `POST /api/review/next` (200), `POST /api/review/documents/{id}/take`, and every write's answer. */
export const DocumentResponse = z.object({ document: ReviewDocument });
export type DocumentResponse = z.infer<typeof DocumentResponse>;

export const StateCounts = z.record(DocumentState, z.int().nonnegative());
export type StateCounts = z.infer<typeof StateCounts>;

/** `GET /api/review/documents`: one page, newest first, and the counts per state. */
export const QueuePage = z.object({
  documents: z.array(QueueDocument),
  /** Pass as `cursor` for the next page; null on the last. */
  nextCursor: z.string().nullable(),
  counts: StateCounts,
});
export type QueuePage = z.infer<typeof QueuePage>;

const optionalText = z
  .string()
  .trim()
  .max(500)
  .transform((s) => (s === '' ? undefined : s))
  .optional();

/** An amount in a query string: a plain decimal number, as a number. */
const queryAmount = z
  .union([
    z.number().min(-1e15).max(1e15),
    z
      .string()
      .trim()
      .regex(/^-?\d{1,15}(\.\d{1,6})?$/, { error: 'An amount is a number such as 10000 or 99.5' })
      .transform(Number),
  ])
  .optional();

/**
 * The queue's filters, one set for every reader of the queue: the list (`GET /api/review/documents`),
 * its counts (`GET /api/review/counts`) and the next document (`POST /api/review/next`), so that
 * "Start reviewing" takes what the operator sees.
 */
export const QueueFilterQuery = z.object({
  state: DocumentState.optional(),
  model: optionalText,
  /** Operator id: documents it holds or decided. */
  operator: optionalText,
  /** Operator id: documents it uploaded from the app (the Uploads list's "Mine"). */
  uploadedBy: optionalText,
  /** Received at or after / before (ISO 8601). */
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  /** Searched in file names and aliases. */
  q: optionalText,
  /** The document's total amount at least / at most this (a number: `10000`, `-5.5`). */
  minAmount: queryAmount,
  maxAmount: queryAmount,
  /** Whose assignment: `me`, `anyone`, `nobody`, or an operator's id. */
  assigned: optionalText,
});
export type QueueFilterQuery = z.infer<typeof QueueFilterQuery>;

/** The query string of `GET /api/review/documents` (other parameters, a cache-buster say, are ignored). */
/**
 * The list's order: a column, ascending, or descending with a `-` (`-received`: newest first, the
 * default). Ties are broken by id in the same direction, so paging by cursor stays exact.
 */
export const QUEUE_SORT_KEYS = ['received', 'name', 'model', 'state', 'priority'] as const;
export type QueueSortKey = (typeof QUEUE_SORT_KEYS)[number];
export const QueueSort = z.enum([...QUEUE_SORT_KEYS, ...QUEUE_SORT_KEYS.map((key) => `-${key}` as const)]);
export type QueueSort = z.infer<typeof QueueSort>;

export const QueueQuery = QueueFilterQuery.extend({
  sort: QueueSort.default('-received'),
  cursor: z.string().max(500).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type QueueQuery = z.infer<typeof QueueQuery>;

// ─── Writes ──────────────────────────────────────────────────────────────────────────────────────────

const Version = z.int({ error: 'Send the version you read' }).positive();

export const VersionRequest = z.strictObject({ version: Version });

/**
 * `POST …/confirm`: the version read, and why the document is confirmed although a business rule of
 * its model fails (required then: 422 `422-009` without it, naming each rule).
 */
export const ConfirmRequest = z.strictObject({
  version: Version,
  overrideReason: z
    .string()
    .trim()
    .min(1, { error: 'Say why the document is confirmed although a rule fails' })
    .max(2000)
    .optional(),
  /**
   * The operator was told that this many values at Medium, Low or no confidence were not checked, and
   * confirmed anyway (unchecked-gate.ts): kept in the history with the confirmation.
   */
  uncheckedConfirmed: z.int({ error: 'A count of values' }).min(0).max(1_000_000).optional(),
});
export type ConfirmRequest = z.infer<typeof ConfirmRequest>;

export const CorrectionsRequest = z.strictObject({
  version: Version,
  corrections: z
    .array(
      z.strictObject({
        path: z.string().min(1).max(500),
        value: z.json(),
      }),
    )
    .min(1)
    .max(1000),
});
export type CorrectionsRequest = z.infer<typeof CorrectionsRequest>;

export const RejectRequest = z.strictObject({
  version: Version,
  reason: z.string().trim().min(1, { error: 'Say why the document is rejected' }).max(2000),
});

export const PostponeRequest = z.strictObject({
  version: Version,
  reason: z.string().trim().max(2000).optional(),
  /**
   * When the document comes back to the queue by itself (`to_review` from then on); left out, it stays
   * postponed until someone takes it. A time in the future (422-013 otherwise).
   */
  until: z.iso.datetime({ offset: true, error: 'Give the date as an ISO 8601 time' }).optional(),
});
export type PostponeRequest = z.infer<typeof PostponeRequest>;

export const ReassignRequest = z.strictObject({ operator: z.string().min(1).max(200) });

/** How soon a document comes up: higher first (0 by default); then the oldest. */
export const PriorityRequest = z.strictObject({
  priority: z.int({ error: 'A priority is a whole number' }).min(-1000).max(1000),
});

// ─── Timeline ────────────────────────────────────────────────────────────────────────────────────────

export const TimelineEntry = z.object({
  kind: z.string(),
  at: z.iso.datetime(),
  actor: OperatorRef.nullable(),
  data: z.record(z.string(), z.unknown()).nullable(),
});
export type TimelineEntry = z.infer<typeof TimelineEntry>;

export const TimelineResponse = z.object({ events: z.array(TimelineEntry) });

// ─── Import of the jobs a browser kept ───────────────────────────────────────────────────────────────

/** v1 models are `account/name/vN`; a v2 model id has no slash. */
const V1_MODEL = /^[^/\s]+\/[^/\s]+\/v\d+$/;

/**
 * `POST /api/review/import`, its `metadata` part (JSON): a job this browser kept from before the team
 * queue (src/lib/document-store.ts). The same (apiVersion, upstreamJobId) is imported once.
 */
export const ImportMetadata = z
  .strictObject({
    apiVersion: ApiVersion,
    /** v2: the model id; v1: `account/name/vN`. */
    model: z.string().trim().min(1, { error: 'Give the model' }).max(300),
    fileName: z.string().trim().min(1, { error: 'Give the file’s name' }).max(1000),
    alias: z.string().trim().max(1000).nullish(),
    /** v2: the job id; v1: the queue’s job id (asynchronous) or the document id (synchronous). */
    upstreamJobId: z.string().trim().min(1, { error: 'Give the upstream job’s id' }).max(300),
    /** v2: the inference id; v1: the document id. Read from the result when left out. */
    upstreamResultId: z.string().trim().min(1).max(300).optional(),
  })
  .superRefine((metadata, context) => {
    const v1 = V1_MODEL.test(metadata.model);
    if (metadata.apiVersion === 'v1' && !v1)
      context.addIssue({ code: 'custom', path: ['model'], message: 'A v1 model is account/name/vN' });
    if (metadata.apiVersion === 'v2' && metadata.model.includes('/'))
      context.addIssue({ code: 'custom', path: ['model'], message: 'A v2 model is its id, without a slash' });
  });
export type ImportMetadata = z.input<typeof ImportMetadata>;

/** `POST /api/review/import`: 201 with `imported: true`, or 200 with the document already there. */
export const ImportResponse = z.object({ document: ReviewDocument, imported: z.boolean() });
export type ImportResponse = z.infer<typeof ImportResponse>;
