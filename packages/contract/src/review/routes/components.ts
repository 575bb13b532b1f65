/**
 * The named schemas of the review API: each is one entry of the OpenAPI document's
 * `components.schemas` (server/app/review/http/openapi.ts), referred to by `$ref` wherever a route
 * declaration uses it. Requests are read as zod reads them (defaults optional, transforms not run
 * yet), answers as the server writes them. A route's JSON body or answer must be one of these.
 */
import { z } from 'zod';
import { AnalyticsResponse } from '../analytics';
import { BulkRequest, BulkResponse } from '../bulk';
import {
  DeliveryAttempt,
  DeliveryCounts,
  DeliveryDetail,
  DeliveryDetailResponse,
  DeliveryList,
  DeliveryPage,
  DeliveryResponse,
  DeliveryView,
} from '../deliveries';
import {
  ModelFields,
  ModelSettings,
  ModelSettingsRequest,
  ModelsResponse,
  RuleFailure,
} from '../model-settings';
import { PageWordsResponse } from '../page-words';
import { PurgeLogResponse, PurgeRun, PurgeRunModel } from '../purge-log';
import { ExportCount } from '../exports';
import { UncheckedGate, UncheckedGateRequest } from '../unchecked-gate';
import {
  NewSavedQueueRequest,
  SavedQueue,
  SavedQueueList,
  SavedQueueResponse,
  UpdateSavedQueueRequest,
} from '../saved-queues';
import {
  ConfirmRequest,
  CorrectionsRequest,
  DocumentResponse,
  ImportMetadata,
  ImportResponse,
  JobDocumentResponse,
  MIN_PASSWORD_LENGTH,
  NewOperatorRequest,
  OperatorView,
  PostponeRequest,
  PriorityRequest,
  QueueDocument,
  QueuePage,
  QueueQuery,
  ReassignRequest,
  RejectRequest,
  ReviewDocument,
  SessionResponse,
  SetPasswordRequest,
  SetupRequest,
  SignInRequest,
  SignInOptions,
  ProviderSignInStart,
  ProviderCallbackRequest,
  StateCounts,
  TimelineEntry,
  TimelineResponse,
  UpdateOperatorRequest,
  VersionRequest,
} from '../schemas';
import { ErrorResponse } from '../../v2/schemas';

export interface Named {
  schema: z.ZodType;
  description: string;
}

// The routes answer these few bodies without a schema of their own elsewhere.
export const CountsResponse = z.object({ counts: StateCounts });
export const QueueRowResponse = z.object({ document: QueueDocument });
export const OperatorList = z.object({ operators: z.array(OperatorView) });
export const OperatorResponse = z.object({ operator: OperatorView });
export const SignedOut = z.object({ signedOut: z.literal(true) });
export const SetupLinkValid = z.object({ valid: z.literal(true) });
/** A one-time password link, made by an admin: its address (shown once) and when it expires. */
export const PasswordLinkResponse = z.object({
  /** `/set-password?token=…`, under the app's address. */
  path: z.string(),
  expiresAt: z.iso.datetime(),
});
/** The password link can still be used, for this operator. */
export const PasswordLinkValid = z.object({ valid: z.literal(true), name: z.string() });
export const PasswordSet = z.object({ passwordSet: z.literal(true) });
/** The document "take next" would take now (not taken: the review prefetches it). */
export const NextPeek = z.object({ id: z.string() });

/** Every problem-details body of the review API. */
export const Problem = ErrorResponse.extend({
  current: z.union([QueueDocument, ModelSettings, SavedQueue]).optional(),
  failures: z.array(RuleFailure).optional(),
  /** The request's id, as in the `X-Request-Id` answer header: the key to its log lines. */
  request_id: z.string().optional(),
});

/** Read as zod reads them: defaults optional, transforms before they run. */
export const REQUEST_SCHEMAS: Record<string, Named> = {
  SignInRequest: { schema: SignInRequest, description: 'An operator’s name (any case) and password.' },
  ProviderCallbackRequest: {
    schema: ProviderCallbackRequest,
    description:
      'The query string the OpenID Connect provider sent the browser back to `/sign-in` with (`?code=…&state=…&iss=…`, or `?error=…`).',
  },
  SetupRequest: {
    schema: SetupRequest,
    description: `The one-time set-up link’s token and the first admin. The password has at least ${MIN_PASSWORD_LENGTH} characters (422-008 otherwise).`,
  },
  NewOperatorRequest: {
    schema: NewOperatorRequest,
    description: `A new operator. An empty password makes an operator who signs in only through single sign-on; any other has at least ${MIN_PASSWORD_LENGTH} characters (422-008 otherwise).`,
  },
  UpdateOperatorRequest: {
    schema: UpdateOperatorRequest,
    description: 'An operator’s role, and whether they may sign in (`active: false`: deactivated).',
  },
  SetPasswordRequest: {
    schema: SetPasswordRequest,
    description: 'A one-time password link’s token and the password to set.',
  },
  QueueQuery: {
    schema: QueueQuery,
    description: 'The query string of `GET /api/review/documents` (each property is one query parameter).',
  },
  VersionRequest: {
    schema: VersionRequest,
    description:
      'The document’s version as the caller read it: a write based on another version is refused (409-001).',
  },
  ConfirmRequest: {
    schema: ConfirmRequest,
    description:
      'The document’s version as the caller read it, and, when a business rule of its model fails, why it is confirmed anyway (kept in its timeline; 422-009 without it). `uncheckedConfirmed`: how many unchecked values the operator was told of and confirmed anyway (kept in its timeline).',
  },
  NewSavedQueueRequest: {
    schema: NewSavedQueueRequest,
    description: 'A saved queue’s name and the queue filters it keeps (at least one).',
  },
  UpdateSavedQueueRequest: {
    schema: UpdateSavedQueueRequest,
    description:
      'A saved queue’s new name, new filters or both, on the version read: a write based on another version is refused (409-006).',
  },
  UncheckedGateRequest: {
    schema: UncheckedGateRequest,
    description:
      'Whether the model’s unchecked-values gate is strict (no confirmation with unchecked values).',
  },
  ModelSettingsRequest: {
    schema: ModelSettingsRequest,
    description:
      'A model’s routing rules, business rules, feedback setting, preset reasons and retention, on the version read (0 for a model never saved): a write based on another version is refused (409-001).',
  },
  CorrectionsRequest: {
    schema: CorrectionsRequest,
    description:
      'Corrected values, by field path (`total_amount`, `line_items/2/quantity`), on the version read.',
  },
  JsonValue: {
    schema: CorrectionsRequest.shape.corrections.element.shape.value,
    description: 'Any JSON value.',
  },
  RejectRequest: {
    schema: RejectRequest,
    description: 'The version read, and why the document is rejected.',
  },
  PostponeRequest: { schema: PostponeRequest, description: 'The version read, and optionally why.' },
  ReassignRequest: {
    schema: ReassignRequest,
    description: 'The operator to hand the document to: their id or their name.',
  },
  PriorityRequest: {
    schema: PriorityRequest,
    description: 'How soon the document comes up: higher first (0 by default), then the oldest.',
  },
  BulkRequest: {
    schema: BulkRequest,
    description:
      'One action (`assign`, `unassign`, `priority`, `reject`, `delete`) on up to 500 documents, by id, with what the action needs.',
  },
  ImportMetadata: {
    schema: ImportMetadata,
    description:
      'The `metadata` part of `POST /api/review/import` (JSON): a job a browser kept. v2: the model id and job id; v1: the model as `account/name/vN`, and the queue’s job id (or, for a synchronous prediction, the document id).',
  },
};

/** Written as the server writes them. */
export const RESPONSE_SCHEMAS: Record<string, Named> = {
  SavedQueue: {
    schema: SavedQueue,
    description: 'A saved queue: its name, its filters, and how many of its documents are waiting.',
  },
  SavedQueueList: { schema: SavedQueueList, description: 'The team’s saved queues, by name.' },
  SavedQueueResponse: { schema: SavedQueueResponse, description: 'One saved queue.' },
  OperatorView: { schema: OperatorView, description: 'An operator (never their password hash).' },
  SessionResponse: {
    schema: SessionResponse,
    description:
      'Who is signed in, and the CSRF token every later state-changing request sends back in `X-CSRF-Token`.',
  },
  NextPeek: {
    schema: NextPeek,
    description:
      'The id of the document `takeNext` would take now, not taken (another operator may take it first).',
  },
  QueueDocument: {
    schema: QueueDocument,
    description: 'A document in the shared queue. Send `version` back with every write.',
  },
  JobDocumentResponse: {
    schema: JobDocumentResponse,
    description: 'The document an upstream job brought into the review.',
  },
  ReviewDocument: {
    schema: ReviewDocument,
    description:
      'A document with what the review needs: the upstream’s result (or a failed job’s error) and the corrections so far.',
  },
  DocumentResponse: { schema: DocumentResponse, description: 'One document: the answer of every write.' },
  StateCounts: { schema: StateCounts, description: 'How many documents are in each state.' },
  QueuePage: {
    schema: QueuePage,
    description: 'One page of the queue, newest first; pass `nextCursor` as `cursor` for the next one.',
  },
  TimelineEntry: { schema: TimelineEntry, description: 'One event of a document’s history.' },
  TimelineResponse: { schema: TimelineResponse, description: 'A document’s history, oldest first.' },
  ImportResponse: {
    schema: ImportResponse,
    description:
      'The imported document (`imported: true`), or the one that already held this upstream job (`imported: false`).',
  },
  ModelSettings: {
    schema: ModelSettings,
    description:
      'A model’s (v2) or product’s (v1) routing rules, business rules and feedback setting; version 0 and the defaults until an admin saves some.',
  },
  UncheckedGate: {
    schema: UncheckedGate,
    description:
      'A model’s unchecked-values gate: asked (the default) or strict (a confirmation with values at Medium, Low or no confidence not checked is refused, 422-014).',
  },
  PurgeRunModel: {
    schema: PurgeRunModel,
    description: 'What one purge did to one model: files removed, documents deleted.',
  },
  PurgeRun: {
    schema: PurgeRun,
    description:
      'One retention purge: when, which copy or command ran it, what it removed per model, what failed.',
  },
  PurgeLogResponse: {
    schema: PurgeLogResponse,
    description: 'The latest retention purges, newest first.',
  },
  ModelsResponse: {
    schema: ModelsResponse,
    description: 'Every model with documents in the store or saved settings, with its settings.',
  },
  RuleFailure: {
    schema: RuleFailure,
    description: 'A business rule that fails on a document: why, and the fields concerned.',
  },
  DeliveryView: {
    schema: DeliveryView,
    description:
      'A delivery of the way back: what a confirmed document sends afterwards (an integration’s webhook, v1 feedback, v2 RAG), until delivered.',
  },
  DeliveryAttempt: { schema: DeliveryAttempt, description: 'One attempt of a delivery and what it came to.' },
  DeliveryDetail: {
    schema: DeliveryDetail,
    description: 'A delivery with every attempt, oldest first, and what it sends (as built at confirmation).',
  },
  DeliveryCounts: { schema: DeliveryCounts, description: 'How many deliveries are in each state.' },
  DeliveryPage: {
    schema: DeliveryPage,
    description: 'One page of deliveries, newest first; pass `nextCursor` as `cursor` for the next one.',
  },
  DeliveryDetailResponse: { schema: DeliveryDetailResponse, description: 'One delivery, with its attempts.' },
  DeliveryResponse: { schema: DeliveryResponse, description: 'One delivery.' },
  DeliveryList: { schema: DeliveryList, description: 'A document’s deliveries, oldest first.' },
  AnalyticsResponse: {
    schema: AnalyticsResponse,
    description:
      'Where time goes, for a model (or all) and a period: confirmations per day or week, the fields corrected most with examples, time per document and per operator, the queue’s age now (docs/review-store.md, "Where time goes").',
  },
  PageWordsResponse: {
    schema: PageWordsResponse,
    description:
      'The words of one page of a kept file, each with its polygon normalised to the page as displayed (the frame of v2 polygons), from the PDF’s text layer or else from OCR of the page; read once, then kept.',
  },
  BulkResponse: {
    schema: BulkResponse,
    description: 'What a bulk action changed, and each document it left as it was with why.',
  },
  CountsResponse: { schema: CountsResponse, description: 'The counts per state.' },
  QueueRowResponse: {
    schema: QueueRowResponse,
    description:
      'One document as a row of the queue list shows it (the same fields as `QueuePage.documents`).',
  },
  OperatorList: { schema: OperatorList, description: 'Every operator, by name.' },
  OperatorResponse: { schema: OperatorResponse, description: 'One operator.' },
  SignedOut: { schema: SignedOut, description: 'The session has ended.' },
  SetupLinkValid: { schema: SetupLinkValid, description: 'The set-up link can still be used.' },
  SignInOptions: {
    schema: SignInOptions,
    description:
      'How this app signs people in: with a password (PASSWORD_SIGNIN), and with the company’s OpenID Connect provider (its button’s name), if any.',
  },
  ProviderSignInStart: {
    schema: ProviderSignInStart,
    description:
      'The provider’s authorization URL (code flow with PKCE, state and nonce) the browser goes to.',
  },
  PasswordLinkResponse: {
    schema: PasswordLinkResponse,
    description: 'A one-time password link: its path under the app (shown once) and when it expires (a day).',
  },
  PasswordLinkValid: {
    schema: PasswordLinkValid,
    description: 'The password link can still be used; the operator it is for.',
  },
  PasswordSet: { schema: PasswordSet, description: 'The password is set; the operator’s sessions ended.' },
  ModelFields: {
    schema: ModelFields,
    description:
      'The field paths a model’s rules may name, as seen in its latest documents, with their titles.',
  },
  ExportCount: {
    schema: ExportCount,
    description: 'How many confirmed documents an export of these filters holds.',
  },
  Problem: {
    schema: Problem,
    description:
      'Problem details (RFC 9457) in the shape of the hosted service’s v2 ErrorResponse. `code` is stable (docs/errors.md lists them); `errors[]` points into the request with JSON Pointers. A refused write of a document (409-001, 409-002, 403-006) carries `current`, the document as it is now (a model’s settings: the settings as they are now). A confirmation refused for its business rules (422-009) carries `failures`.',
  },
};
