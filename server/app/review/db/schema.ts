/**
 * The review store's tables, as Kysely sees them. One schema for both engines (SQLite embedded,
 * PostgreSQL for a team): times are integer milliseconds since the epoch (`bigint` on PostgreSQL, read
 * back as numbers), JSON is kept as text, identifiers are UUIDs made by the app. The migrations
 * (migrations.ts) create exactly this.
 */
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { DocumentState, OperatorRole } from '../model/review-types';

export interface OperatorsTable {
  id: string;
  /** As the admin wrote it. */
  name: string;
  /** `name` lower-cased: names are unique whatever their case. */
  name_key: string;
  role: OperatorRole;
  /** Argon2id (PHC string); null for an operator who signs in only through the company proxy. */
  password_hash: string | null;
  created_at: number;
  updated_at: number;
  /** When an admin deactivated them (signed out, refused at sign-in); null while active. */
  deactivated_at: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface PasswordLinksTable {
  /** SHA-256 (hex) of the one-time password link's token: the token itself is never stored. */
  token_hash: string;
  operator_id: string;
  /** The admin who made it. */
  created_by: string | null;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** An OpenID Connect identity linked to an operator (migration 0017-oidc-identities). */
export interface OidcIdentitiesTable {
  /** The provider's issuer URL, as its ID tokens name it. */
  issuer: string;
  /** The provider's stable id of the person (`sub`). */
  subject: string;
  operator_id: string;
  created_at: number;
  last_sign_in_at: number;
}

export interface SessionsTable {
  /** SHA-256 (hex) of the cookie's token: the token itself is never stored. */
  token_hash: string;
  operator_id: string;
  /** Sent back in `X-CSRF-Token` by every state-changing request of this session. */
  csrf_token: string;
  created_at: number;
  expires_at: number;
  last_seen_at: number;
}

export interface SetupTokensTable {
  /** SHA-256 (hex) of the one-time set-up link's token. */
  token_hash: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface DocumentsTable {
  id: string;
  api_version: 'v2' | 'v1';
  /** v2: the model id; v1: `account/name/vN`. */
  model_key: string;
  file_name: string;
  alias: string | null;
  mime_type: string | null;
  /** Where the file store keeps the file; null until it is kept. */
  file_key: string | null;
  file_bytes: number | null;
  file_sha256: string | null;
  /** The upstream's job (v2 job id, v1 queue id), then its result (v2 inference id, v1 document id). */
  upstream_job_id: string | null;
  upstream_result_id: string | null;
  uploaded_by: string | null;
  state: DocumentState;
  /** The operator holding it (`in_review`), until `lease_expires_at`. */
  holder_id: string | null;
  lease_expires_at: number | null;
  /**
   * Who held it before its current holder took it over (an expired lease, an admin's reassignment);
   * written by the same statement that takes it, so it is never a guess.
   */
  previous_holder_id: string | null;
  /** Who decided (confirmed, rejected, postponed) and when. */
  decided_by: string | null;
  decided_at: number | null;
  /** Why it was rejected or postponed. */
  reason: string | null;
  /** Higher first; then oldest first. */
  priority: number;
  /** Incremented by every write: a write based on another version is refused (409). */
  version: number;
  fields_total: number;
  fields_to_review: number;
  /** The upstream's answer (v2 inference response, v1 document response), as JSON text. */
  result_json: string | null;
  /** A failed job's problem, as JSON text. */
  error_json: string | null;
  created_at: number;
  updated_at: number;
  /** When the result arrived: the document's age in the queue counts from here. */
  ready_at: number | null;
  /** The pipeline that sent it through the gateway (/v2, /v1); null for the app's own uploads. */
  integration_id: string | null;
  /**
   * Which upstream took it (intake/upstream-identity.ts: its URL's origin and path, never a key); null
   * for documents kept before migration 0005. Only a copy with that upstream follows its job.
   */
  upstream_id: string | null;
  /** The job follower's lease (intake/job-follower.ts): the copy following the job now, until then. */
  follow_holder: string | null;
  follow_until: number | null;
  /** When the job is next looked at, and the back-off so far; null: 1.5 s after `created_at`. */
  next_check_at: number | null;
  check_interval_ms: number | null;
  /**
   * A postponed document comes back by itself at this time (migration 0008): from then on it counts as
   * `to_review` (model/queue-state.ts). Null: postponed until someone takes it.
   */
  postponed_until: number | null;
  /**
   * The document's total amount (model/document-amount.ts says which field), for the queue's amount
   * filter; null without a result or such a value (migration 0012).
   */
  total_amount: number | null;
  /**
   * The operator an admin assigned it to (migration 0013): "next" gives it to them first and never to
   * anyone else, until it is decided (confirmed, rejected) or unassigned; null: the team's.
   */
  assigned_to: ColumnType<string | null, string | null | undefined, string | null>;
  assigned_at: ColumnType<number | null, number | null | undefined, number | null>;
  /**
   * When the retention rule removed its kept file (migration 0014-retention; `file_key` is then null):
   * the review says so instead of a viewer that fails. Null while the file is kept.
   */
  file_removed_at: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface IntegrationsTable {
  id: string;
  name: string;
  /** `name` lower-cased: names are unique whatever their case. */
  name_key: string;
  /** SHA-256 (hex) of the integration key: the key itself is shown once and never stored. */
  key_hash: string;
  /** The key's first characters, to tell keys apart in lists (`erk_3f9a…`). */
  key_hint: string;
  /** Where confirmed documents' validated results are POSTed; null for none. */
  webhook_url: string | null;
  /** Signs those webhooks (HMAC-SHA256 of the raw body): needed to sign, so kept as is. */
  webhook_secret: string | null;
  created_at: number;
  /** A revoked key is refused (401); the integration's documents stay. */
  revoked_at: number | null;
  last_used_at: number | null;
  /** Requests per minute the gateway takes from it (`integrations -- set-limit`); null: no limit. */
  requests_per_minute: ColumnType<number | null, number | null | undefined, number | null>;
}

/** Failed sign-ins of a name from a client address, in the window that began with the first (0015). */
export interface SignInFailuresTable {
  /** The name as tried, lower-cased (operator-store nameKey), whether or not an operator has it. */
  name_key: string;
  /** The client address as the trusted proxy reports it. */
  address: string;
  failures: number;
  /** When these failures stop counting: the first one's time plus the window. */
  expires_at: number;
}

/** A fixed-window counter (0015): `integration:<id>`, `setup:<address>`, `password-link:<address>`. */
export interface RequestCountsTable {
  counter_key: string;
  count: number;
  /** When the window ends: the next request after it starts a new one. */
  expires_at: number;
}

/** Per model, whether its unchecked-values gate is strict (migration 0009-unchecked-gate). */
export interface UncheckedGatesTable {
  api_version: 'v2' | 'v1';
  model_key: string;
  /** 1: strict; 0: the operator is asked. */
  strict: number;
  updated_at: number;
  updated_by: string | null;
}

export interface ModelSettingsTable {
  api_version: 'v2' | 'v1';
  /** v2: the model id; v1: `account/name/vN`. */
  model_key: string;
  /** When a document goes to an operator rather than being confirmed on its own (JSON text). */
  routing_json: string;
  /** The business rules checked in the review and before routing (JSON text). */
  rules_json: string;
  /** v1: send the corrections as feedback (PATCH) when a document is confirmed. 0 or 1. */
  feedback_enabled: number;
  /** The reasons the review offers (JSON text); null: the defaults (migration 0012-preset-reasons). */
  reasons_json: string | null;
  /** Retention (migration 0014-retention): days after the decision; null: kept for ever. */
  files_after_days: ColumnType<number | null, number | null | undefined, number | null>;
  documents_after_days: ColumnType<number | null, number | null | undefined, number | null>;
  version: number;
  updated_at: number;
  updated_by: string | null;
}

export type DeliveryKind = 'webhook' | 'v1_feedback' | 'v2_rag';
export type DeliveryState = 'pending' | 'delivered' | 'failed';

export interface DeliveriesTable {
  id: Generated<number>;
  document_id: string;
  integration_id: string | null;
  kind: DeliveryKind;
  /** The confirmation this delivery is for (a document reopened and confirmed again gets new ones). */
  decided_at: number;
  state: DeliveryState;
  attempts: number;
  next_attempt_at: number;
  /** Taken by one app-server copy until then (an attempt in flight); expired → anyone may retry. */
  lease_until: number | null;
  last_status: number | null;
  last_error: string | null;
  /** What is sent, JSON text, built at confirmation. */
  payload_json: string;
  created_at: number;
  updated_at: number;
  delivered_at: number | null;
}

export interface DeliveryAttemptsTable {
  id: Generated<number>;
  delivery_id: number;
  at: number;
  /** `delivered`, `status`, `timeout`, `network`. */
  outcome: string;
  status: number | null;
  error: string | null;
  duration_ms: number;
}

export interface CorrectionsTable {
  id: Generated<number>;
  document_id: string;
  /** The field's path in the review (`line_items/2/quantity`). */
  field_path: string;
  /** The corrected value, as JSON text. */
  value_json: string;
  /** The value before this correction (the extracted one, or the previous correction), JSON text. */
  previous_json: string | null;
  author_id: string;
  created_at: number;
  /** The document's version this correction made. */
  document_version: number;
}

export interface AuditEventsTable {
  id: Generated<number>;
  document_id: string | null;
  kind: string;
  actor_id: string | null;
  at: number;
  /** What else the event says (field, before, after, reason…), JSON text. */
  data_json: string | null;
}

/**
 * The copies' background work (migration 0006, background/job-table.ts): one row per thing to do,
 * taken under a lease by one copy at a time.
 */
export interface BackgroundJobsTable {
  id: Generated<number>;
  /** The handler that runs it (`follow-job`, `delivery`). */
  kind: string;
  /** What it is about, unique per kind (a document's id, a delivery's id). */
  key: string;
  /** Which copies may run it (the job follower: the upstream that took the job); null: any. */
  scope: string | null;
  payload_json: string;
  /** `failed`: its handler threw as often as its kind allows; kept, not run again. */
  state: 'pending' | 'failed';
  run_at: number;
  /** Failed runs in a row. */
  attempts: number;
  /** The runner (one per process run) holding it, until `lease_until`; expired → anyone takes it. */
  lease_owner: string | null;
  lease_until: number | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
}

/** What kind of upstream id the gateway handed an integration (gateway/ownership.ts). */
export type GatewayIdKind = 'job' | 'inference' | 'document' | 'rag_document';

export interface GatewayIdsTable {
  api_version: 'v2' | 'v1';
  /** A job (v2, v1 queue), an inference (v2), a document (v1 prediction), a RAG document (v2). */
  kind: GatewayIdKind;
  /** As the upstream wrote it, lower-cased (ids are UUIDs, whatever their case). */
  upstream_id: string;
  /** The integration whose call the upstream answered with this id. */
  integration_id: string;
  created_at: number;
}

/** A saved queue: a named set of the queue's filters, shared by the team (migration 0011-saved-filters). */
export interface SavedQueuesTable {
  id: string;
  name: string;
  /** `name` trimmed and lower-cased: names are unique whatever their case. */
  name_key: string;
  /** The filters (contract `SavedQueueFilters`), JSON text. */
  filters_json: string;
  version: number;
  created_at: number;
  created_by: string | null;
  updated_at: number;
  updated_by: string | null;
}

/** One retention purge (migration 0016-purge-log): what it did, for the admins' log. */
/**
 * Documents per model and stored state (migration 0018), kept by triggers; on PostgreSQL the latest
 * changes wait in `queue_count_changes` until store/queue-counts.ts folds them in.
 */
export interface QueueCountsTable {
  model_key: string;
  state: DocumentState;
  n: number | string;
}

export interface QueueCountChangesTable {
  id: Generated<number>;
  model_key: string;
  state: DocumentState;
  /** The net change of one statement (negative when documents left the state). */
  n: number | string;
}

export interface PurgeRunsTable {
  id: string;
  started_at: number;
  finished_at: number;
  /** Which app-server copy (host and process) or command ran it. */
  copy: string;
  trigger: 'sweep' | 'command';
  files_removed: number;
  documents_deleted: number;
  /** Per model: `[{ apiVersion, model, filesRemoved, documentsDeleted }]`, JSON text. */
  models_json: string;
  /** What failed (messages without personal data), JSON text. */
  errors_json: string;
}

export interface ReviewDatabaseSchema {
  operators: OperatorsTable;
  sessions: SessionsTable;
  setup_tokens: SetupTokensTable;
  password_links: PasswordLinksTable;
  oidc_identities: OidcIdentitiesTable;
  documents: DocumentsTable;
  corrections: CorrectionsTable;
  audit_events: AuditEventsTable;
  integrations: IntegrationsTable;
  model_settings: ModelSettingsTable;
  unchecked_gates: UncheckedGatesTable;
  deliveries: DeliveriesTable;
  delivery_attempts: DeliveryAttemptsTable;
  gateway_ids: GatewayIdsTable;
  background_jobs: BackgroundJobsTable;
  saved_queues: SavedQueuesTable;
  purge_runs: PurgeRunsTable;
  queue_counts: QueueCountsTable;
  queue_count_changes: QueueCountChangesTable;
  sign_in_failures: SignInFailuresTable;
  request_counts: RequestCountsTable;
}

export type OperatorRow = Selectable<OperatorsTable>;
export type DocumentRow = Selectable<DocumentsTable>;
export type NewDocumentRow = Insertable<DocumentsTable>;
export type DocumentUpdate = Updateable<DocumentsTable>;
export type CorrectionRow = Selectable<CorrectionsTable>;
export type AuditEventRow = Selectable<AuditEventsTable>;
export type IntegrationRow = Selectable<IntegrationsTable>;
export type ModelSettingsRow = Selectable<ModelSettingsTable>;
export type DeliveryRow = Selectable<DeliveriesTable>;
export type DeliveryAttemptRow = Selectable<DeliveryAttemptsTable>;
export type BackgroundJobRow = Selectable<BackgroundJobsTable>;
export type SavedQueueRow = Selectable<SavedQueuesTable>;
export type PurgeRunRow = Selectable<PurgeRunsTable>;
