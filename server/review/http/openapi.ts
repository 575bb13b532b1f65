/**
 * The review API as an OpenAPI 3.1 document, served at `GET /api/openapi.json`
 * (create-review-api.ts). Its schemas are generated from the zod schemas the routes use
 * (src/api/review/schemas.ts, and the v2 ErrorResponse for problems) with zod's own
 * `z.toJSONSchema` (draft 2020-12, the dialect of OpenAPI 3.1): request bodies and the query string
 * as zod reads them (`io: 'input'`), answers as the server writes them (`io: 'output'`). Each named
 * schema is one entry of `components.schemas`, referred to by `$ref`.
 *
 * The routes are listed below by hand, from the header comments of session-routes.ts,
 * review-routes.ts, import-routes.ts and operator-routes.ts; openapi.test.ts checks that they are exactly the routes
 * the Hono app serves, and that every `$ref` resolves.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import {
  ModelSettings,
  ModelSettingsRequest,
  ModelsResponse,
  RuleFailure,
} from '../../../src/api/review/model-settings';
import {
  ConfirmRequest,
  CorrectionsRequest,
  DocumentResponse,
  ImportMetadata,
  ImportResponse,
  NewOperatorRequest,
  OperatorView,
  PostponeRequest,
  QueueDocument,
  QueuePage,
  QueueQuery,
  ReassignRequest,
  PriorityRequest,
  RejectRequest,
  ReviewDocument,
  SessionResponse,
  SetupRequest,
  SignInRequest,
  StateCounts,
  TimelineEntry,
  TimelineResponse,
  VersionRequest,
} from '../../../src/api/review/schemas';
import {
  DeliveryAttempt,
  DeliveryCounts,
  DeliveryDetail,
  DeliveryDetailResponse,
  DeliveryList,
  DeliveryPage,
  DeliveryQuery,
  DeliveryResponse,
  DeliveryView,
} from '../../../src/api/review/deliveries';
import { AnalyticsQuery, AnalyticsResponse, AnalyticsTable } from '../../../src/api/review/analytics';
import { ErrorResponse } from '../../../src/api/v2/schemas';
import { PageWordsResponse } from '../../../src/api/review/page-words-schemas';
import { PROBLEM_CONTENT_TYPE, problemCatalog, type ProblemCode } from '../../shared/problem';
import { MIN_PASSWORD_LENGTH } from '../auth/passwords';
import { MAX_IMPORT_FILE_BYTES, MAX_IMPORT_PART_BYTES } from './read-import-form';
import { CSRF_HEADER, SESSION_COOKIE } from './session-auth';
import { SIGN_IN_ATTEMPTS } from './session-routes';

type JsonObject = { [key: string]: unknown };

const ref = (name: string): JsonObject => ({ $ref: `#/components/schemas/${name}` });

// ─── Schemas ─────────────────────────────────────────────────────────────────────────────────────────

interface Named {
  schema: z.ZodType;
  description: string;
}

/** Read as zod reads them: defaults optional, transforms before they run. */
const REQUEST_SCHEMAS: Record<string, Named> = {
  SignInRequest: { schema: SignInRequest, description: 'An operator’s name (any case) and password.' },
  SetupRequest: {
    schema: SetupRequest,
    description: `The one-time set-up link’s token and the first admin. The password has at least ${MIN_PASSWORD_LENGTH} characters (422-008 otherwise).`,
  },
  NewOperatorRequest: {
    schema: NewOperatorRequest,
    description: `A new operator. An empty password makes an operator who signs in only through single sign-on; any other has at least ${MIN_PASSWORD_LENGTH} characters (422-008 otherwise).`,
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
      'The document’s version as the caller read it, and, when a business rule of its model fails, why it is confirmed anyway (kept in its timeline; 422-009 without it).',
  },
  ModelSettingsRequest: {
    schema: ModelSettingsRequest,
    description:
      'A model’s routing rules, business rules and feedback setting, on the version read (0 for a model never saved): a write based on another version is refused (409-001).',
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
  ImportMetadata: {
    schema: ImportMetadata,
    description:
      'The `metadata` part of `POST /api/review/import` (JSON): a job a browser kept. v2: the model id and job id; v1: the model as `account/name/vN`, and the queue’s job id (or, for a synchronous prediction, the document id).',
  },
};

/** Written as the server writes them. */
const RESPONSE_SCHEMAS: Record<string, Named> = {
  OperatorView: { schema: OperatorView, description: 'An operator (never their password hash).' },
  SessionResponse: {
    schema: SessionResponse,
    description: `Who is signed in, and the CSRF token every later state-changing request sends back in \`${CSRF_HEADER}\`.`,
  },
  QueueDocument: {
    schema: QueueDocument,
    description: 'A document in the shared queue. Send `version` back with every write.',
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
  // The routes build these few answers inline, without a schema of their own in src/api/review.
  CountsResponse: {
    schema: z.object({ counts: StateCounts }),
    description: 'The counts per state.',
  },
  OperatorList: {
    schema: z.object({ operators: z.array(OperatorView) }),
    description: 'Every operator, by name.',
  },
  OperatorResponse: { schema: z.object({ operator: OperatorView }), description: 'One operator.' },
  SignedOut: { schema: z.object({ signedOut: z.literal(true) }), description: 'The session has ended.' },
  SetupLinkValid: {
    schema: z.object({ valid: z.literal(true) }),
    description: 'The set-up link can still be used.',
  },
  Problem: {
    schema: ErrorResponse.extend({
      current: z.union([QueueDocument, ModelSettings]).optional(),
      failures: z.array(RuleFailure).optional(),
    }),
    description:
      'Problem details (RFC 9457) in the shape of the hosted service’s v2 ErrorResponse. `code` is stable (docs/errors.md lists them); `errors[]` points into the request with JSON Pointers. A refused write of a document (409-001, 409-002, 403-006) carries `current`, the document as it is now (a model’s settings: the settings as they are now). A confirmation refused for its business rules (422-009) carries `failures`.',
  },
};

function toComponents(named: Record<string, Named>, io: 'input' | 'output'): Record<string, JsonObject> {
  const registry = z.registry<{ id: string; description: string }>();
  for (const [id, { schema, description }] of Object.entries(named))
    registry.add(schema, { id, description });
  const { schemas } = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    io,
    metadata: registry,
    uri: (id) => `#/components/schemas/${id}`,
  });
  const components: Record<string, JsonObject> = {};
  for (const [id, schema] of Object.entries(schemas)) {
    // `$id` and `$schema` belong to a standalone document, not to a component of this one.
    const { $id: _id, $schema: _schema, ...rest } = JSON.parse(JSON.stringify(schema)) as JsonObject;
    components[id] = rest;
  }
  // A recursive part without a name of its own would land in zod's `__shared` entry, which no `$ref`
  // of this document can reach: name it above instead (as JsonValue is).
  if ('__shared' in components) {
    throw new Error(`unnamed recursive schema among ${Object.keys(named).join(', ')}: give it an id`);
  }
  return components;
}

// ─── Routes ──────────────────────────────────────────────────────────────────────────────────────────

type Method = 'get' | 'post' | 'put' | 'delete';

/**
 * - `none`: no session; `optional`: uses the session cookie if present;
 * - `session`: a session (401-011 without); `session+csrf`: a session, and its CSRF token (403-004).
 */
type Auth = 'none' | 'optional' | 'session' | 'session+csrf';

interface Route {
  method: Method;
  path: string;
  operationId: string;
  tag: 'session' | 'review' | 'operators' | 'meta';
  summary: string;
  description?: string;
  auth: Auth;
  admin?: boolean;
  /** A component of REQUEST_SCHEMAS, sent as JSON. */
  body?: string;
  /** Every `{name}` of the path, described. */
  pathParams?: Record<string, { description: string; schema: JsonObject }>;
  query?: JsonObject[];
  /** The success answers, by status. */
  ok: Record<number, JsonObject>;
  /** Route-specific problems, besides those that `auth`, `admin` and `body` imply. */
  problems?: ProblemCode[];
  /** What a code means on this route, when its catalogue title is not enough. */
  notes?: Partial<Record<ProblemCode, string>>;
  /** Specification extensions (`x-…`) of the operation. */
  extensions?: Record<`x-${string}`, JsonObject>;
}

const json = (schema: JsonObject, description: string, headers?: JsonObject): JsonObject => ({
  description,
  ...(headers === undefined ? {} : { headers }),
  content: { 'application/json': { schema } },
});

const SET_COOKIE = {
  'Set-Cookie': {
    description: `The session cookie \`${SESSION_COOKIE}\`: an opaque token, HttpOnly, SameSite=Lax, Secure over HTTPS, Path=/.`,
    schema: { type: 'string' },
  },
};

const DOCUMENT_ID = {
  id: {
    description: 'The document’s id (a UUID: anything else is 404-010).',
    schema: { type: 'string', format: 'uuid' },
  },
};

const MODEL_PARAMS = {
  apiVersion: { description: '`v2` or `v1`.', schema: { type: 'string', enum: ['v2', 'v1'] } },
  model: {
    description:
      'v2: the model id; v1: the product `account/name/vN`, URL-encoded as one segment (`mindee%2Finvoices%2Fv4`).',
    schema: { type: 'string' },
  },
};
const MODEL_NOTES: Route['notes'] = {
  '404-004': 'the API version is not v2 or v1, or the model is not written as that version’s are',
};

/** A write on the document the caller holds, on the version it read. */
const HELD_WRITE: ProblemCode[] = ['403-006', '404-010', '409-001', '409-002'];
const HELD_WRITE_NOTES: Route['notes'] = {
  '403-006':
    'another operator holds the document, or the caller’s lease ran out; `current` is the document as it is now',
  '409-001': 'the version sent is not the document’s any more; `current` is the document as it is now',
  '409-002': 'the document’s state does not allow this; `current` is the document as it is now',
};

const QUEUE_QUERY_DESCRIPTIONS: Record<keyof z.input<typeof QueueQuery>, string> = {
  state: 'Only documents in this state (an expired lease counts as `to_review`).',
  model: 'Only documents of this model (v2: the model id; v1: `account/name/vN`).',
  operator: 'An operator’s id: only documents they hold or decided.',
  from: 'Received at or after this time (ISO 8601, with an offset or Z).',
  to: 'Received before this time (ISO 8601, with an offset or Z).',
  q: 'Searched in file names and aliases, whatever the case.',
  cursor: 'The `nextCursor` of the previous page, as it is (422-008 otherwise).',
  limit: 'How many documents a page holds.',
};

function routes(queueQuery: JsonObject): Route[] {
  const properties = queueQuery.properties as Record<string, JsonObject>;
  const required = new Set((queueQuery.required as string[] | undefined) ?? []);
  const queueParameters = Object.entries(properties).map(([name, schema]) => {
    const description = (QUEUE_QUERY_DESCRIPTIONS as Record<string, string | undefined>)[name];
    if (description === undefined) throw new Error(`QueueQuery.${name} has no description`);
    return { name, in: 'query', required: required.has(name), description, schema };
  });

  return [
    // ─── Session ───
    {
      method: 'post',
      path: '/api/session',
      operationId: 'signIn',
      tag: 'session',
      summary: 'Sign in',
      description: `Opens a session: the \`${SESSION_COOKIE}\` cookie, and the CSRF token in the body. A session cookie sent along is ended first. Sign-in and set-up attempts share a limit of ${SIGN_IN_ATTEMPTS} per client address in 15 minutes.`,
      auth: 'none',
      body: 'SignInRequest',
      ok: { 200: json(ref('SessionResponse'), 'Signed in.', SET_COOKIE) },
      problems: ['401-012', '429-001'],
    },
    {
      method: 'get',
      path: '/api/session',
      operationId: 'getSession',
      tag: 'session',
      summary: 'Who is signed in',
      description:
        'The session of the cookie, if any. Behind the company’s proxy, the single sign-on header (sent only by the proxy) opens a session instead, with a new cookie.',
      auth: 'optional',
      ok: { 200: json(ref('SessionResponse'), 'Signed in, with the session’s CSRF token.') },
      notes: { '401-011': 'nobody is signed in in this browser' },
    },
    {
      method: 'delete',
      path: '/api/session',
      operationId: 'signOut',
      tag: 'session',
      summary: 'Sign out',
      description: 'Ends the session and clears its cookie.',
      auth: 'session+csrf',
      ok: { 200: json(ref('SignedOut'), 'Signed out; the cookie is cleared.', SET_COOKIE) },
    },
    {
      method: 'get',
      path: '/api/setup/{token}',
      operationId: 'checkSetupLink',
      tag: 'session',
      summary: 'Check a set-up link',
      description: 'Whether the one-time set-up link that creates the first admin can still be used.',
      auth: 'none',
      pathParams: {
        token: { description: 'The set-up link’s token (its URL fragment).', schema: { type: 'string' } },
      },
      ok: { 200: json(ref('SetupLinkValid'), 'The link is valid.') },
      problems: ['404-011'],
    },
    {
      method: 'post',
      path: '/api/setup',
      operationId: 'setUp',
      tag: 'session',
      summary: 'Create the first admin',
      description: `Uses up the one-time set-up link: creates the first admin and signs them in. Counted with sign-in attempts (${SIGN_IN_ATTEMPTS} per client address in 15 minutes).`,
      auth: 'none',
      body: 'SetupRequest',
      ok: { 200: json(ref('SessionResponse'), 'The admin, signed in.', SET_COOKIE) },
      problems: ['404-011', '409-003', '429-001'],
      notes: { '422-008': `the body does not fit, or the password is shorter than ${MIN_PASSWORD_LENGTH}` },
    },

    // ─── The queue ───
    {
      method: 'post',
      path: '/api/review/next',
      operationId: 'takeNext',
      tag: 'review',
      summary: 'Take the next document',
      description: 'Takes the next waiting document for the caller, under a lease.',
      auth: 'session+csrf',
      ok: {
        200: json(ref('DocumentResponse'), 'The document, now held by the caller.'),
        204: { description: 'No document is waiting.' },
      },
    },
    {
      method: 'get',
      path: '/api/review/documents',
      operationId: 'listDocuments',
      tag: 'review',
      summary: 'List the queue',
      description:
        'One page of documents, newest first, and the counts per state. A query parameter not listed here is refused (422-008).',
      auth: 'session',
      query: queueParameters,
      ok: { 200: json(ref('QueuePage'), 'One page.') },
      problems: ['422-008'],
      notes: {
        '422-008':
          'a query parameter does not fit (pointer `#/<name>`), or the cursor is not one a page gave',
      },
    },
    {
      method: 'get',
      path: '/api/review/counts',
      operationId: 'countDocuments',
      tag: 'review',
      summary: 'Count documents per state',
      auth: 'session',
      ok: { 200: json(ref('CountsResponse'), 'The counts.') },
    },
    {
      method: 'get',
      path: '/api/review/documents/{id}',
      operationId: 'getDocument',
      tag: 'review',
      summary: 'Read a document',
      description:
        'The document with the upstream’s result and the corrections so far. Taking it is a separate write.',
      auth: 'session',
      pathParams: DOCUMENT_ID,
      ok: { 200: json(ref('DocumentResponse'), 'The document.') },
      problems: ['404-010'],
    },
    {
      method: 'post',
      path: '/api/review/documents/{id}/take',
      operationId: 'takeDocument',
      tag: 'review',
      summary: 'Take a document',
      description:
        'Takes a waiting or postponed document (or one whose lease ran out) under a lease; one the caller holds already has its lease renewed.',
      auth: 'session+csrf',
      pathParams: DOCUMENT_ID,
      ok: { 200: json(ref('DocumentResponse'), 'The document, held by the caller.') },
      problems: ['403-006', '404-010', '409-002'],
      notes: HELD_WRITE_NOTES,
    },
    {
      method: 'post',
      path: '/api/review/documents/{id}/lease',
      operationId: 'renewLease',
      tag: 'review',
      summary: 'Renew the lease',
      description: 'The open review says it is still there: the caller’s lease runs again from now.',
      auth: 'session+csrf',
      pathParams: DOCUMENT_ID,
      ok: { 200: json(ref('DocumentResponse'), 'The document, its lease renewed.') },
      problems: ['403-006', '404-010', '409-002'],
      notes: HELD_WRITE_NOTES,
    },
    {
      method: 'post',
      path: '/api/review/documents/{id}/release',
      operationId: 'releaseDocument',
      tag: 'review',
      summary: 'Release a document',
      description: 'Puts the document the caller holds back in the queue, undecided.',
      auth: 'session+csrf',
      pathParams: DOCUMENT_ID,
      ok: { 200: json(ref('DocumentResponse'), 'The document, back in the queue.') },
      problems: ['403-006', '404-010'],
      notes: {
        '403-006':
          'the caller does not hold the document (whatever its state); `current` is the document as it is now',
      },
    },
    {
      method: 'put',
      path: '/api/review/documents/{id}/corrections',
      operationId: 'saveCorrections',
      tag: 'review',
      summary: 'Save corrections',
      description:
        'Corrections by the holder on the version it read; the version moves on and the lease is renewed.',
      auth: 'session+csrf',
      pathParams: DOCUMENT_ID,
      body: 'CorrectionsRequest',
      ok: { 200: json(ref('DocumentResponse'), 'The document with the corrections.') },
      problems: HELD_WRITE,
      notes: HELD_WRITE_NOTES,
    },
    {
      method: 'post',
      path: '/api/review/documents/{id}/confirm',
      operationId: 'confirmDocument',
      tag: 'review',
      summary: 'Confirm a document',
      description:
        'The business rules of the document’s model are checked on its result with the corrections so far; when one fails, an `overrideReason` is needed, and kept in the timeline with the rules that failed.',
      auth: 'session+csrf',
      pathParams: DOCUMENT_ID,
      body: 'ConfirmRequest',
      ok: { 200: json(ref('DocumentResponse'), 'The document, confirmed.') },
      problems: [...HELD_WRITE, '422-009'],
      notes: {
        ...HELD_WRITE_NOTES,
        '422-009':
          'a business rule fails and no `overrideReason` was given: one item of `errors[]` per rule (pointer `#/fields/<path>` to its first field, detail the reason), and `failures` with every field',
      },
    },
    {
      method: 'post',
      path: '/api/review/documents/{id}/reject',
      operationId: 'rejectDocument',
      tag: 'review',
      summary: 'Reject a document',
      auth: 'session+csrf',
      pathParams: DOCUMENT_ID,
      body: 'RejectRequest',
      ok: { 200: json(ref('DocumentResponse'), 'The document, rejected.') },
      problems: HELD_WRITE,
      notes: HELD_WRITE_NOTES,
    },
    {
      method: 'post',
      path: '/api/review/documents/{id}/postpone',
      operationId: 'postponeDocument',
      tag: 'review',
      summary: 'Postpone a document',
      auth: 'session+csrf',
      pathParams: DOCUMENT_ID,
      body: 'PostponeRequest',
      ok: { 200: json(ref('DocumentResponse'), 'The document, postponed.') },
      problems: HELD_WRITE,
      notes: HELD_WRITE_NOTES,
    },
    {
      method: 'post',
      path: '/api/review/documents/{id}/priority',
      operationId: 'setDocumentPriority',
      tag: 'review',
      summary: 'Set a document’s priority (admins)',
      description: '"Take next" gives the waiting document with the highest priority first, then the oldest.',
      auth: 'session+csrf',
      admin: true,
      pathParams: DOCUMENT_ID,
      body: 'PriorityRequest',
      ok: { 200: json(ref('DocumentResponse'), 'The document, with its new priority.') },
      problems: ['404-010'],
      notes: { '404-010': 'no such document' },
    },
    {
      method: 'post',
      path: '/api/review/documents/{id}/reassign',
      operationId: 'reassignDocument',
      tag: 'review',
      summary: 'Hand a document to an operator (admins)',
      description: 'Hands a waiting, postponed or held document to an operator, under a fresh lease.',
      auth: 'session+csrf',
      admin: true,
      pathParams: DOCUMENT_ID,
      body: 'ReassignRequest',
      ok: { 200: json(ref('DocumentResponse'), 'The document, held by the operator named.') },
      problems: ['404-010', '404-012', '409-002'],
      notes: {
        '404-012': 'no operator with this id or name',
        '409-002': 'the document is processing, failed or decided; `current` is the document as it is now',
      },
    },
    {
      method: 'post',
      path: '/api/review/documents/{id}/reopen',
      operationId: 'reopenDocument',
      tag: 'review',
      summary: 'Reopen a document (admins)',
      description: 'Puts a decided (or held) document back in the queue, its decision cleared.',
      auth: 'session+csrf',
      admin: true,
      pathParams: DOCUMENT_ID,
      ok: { 200: json(ref('DocumentResponse'), 'The document, back in the queue.') },
      problems: ['404-010', '409-002'],
      notes: {
        '409-002':
          'the document is processing, failed or already waiting; `current` is the document as it is now',
      },
    },
    {
      method: 'get',
      path: '/api/review/documents/{id}/file',
      operationId: 'getDocumentFile',
      tag: 'review',
      summary: 'The document’s file',
      description:
        'The file as it was uploaded through the app, kept by the server: the viewer shows it. A kept file is ' +
        'data, never a page: it is served with the type read from its bytes at each answer (never the type ' +
        'it was sent with), `inline` for a document (PDF, JPEG, PNG, WebP, TIFF, HEIC/HEIF), anything else ' +
        'as `application/octet-stream` and `attachment`; always with `X-Content-Type-Options: nosniff` and ' +
        "its own `Content-Security-Policy: default-src 'none'; sandbox; frame-ancestors 'none'`. A kept file never " +
        'changes: it carries an `ETag` with `Cache-Control: private, no-cache`, and a request whose ' +
        '`If-None-Match` names that tag is answered 304, without the bytes.',
      auth: 'session',
      pathParams: DOCUMENT_ID,
      ok: {
        304: { description: 'The copy the client keeps (its `If-None-Match`) is the file.' },
        200: {
          description: 'The bytes of the file.',
          content: {
            'application/pdf': { schema: { type: 'string', contentMediaType: 'application/pdf' } },
            'image/*': { schema: { type: 'string', contentMediaType: 'image/*' } },
            'application/octet-stream': {
              schema: { type: 'string', contentMediaType: 'application/octet-stream' },
            },
          },
        },
      },
      problems: ['404-010'],
      notes: { '404-010': 'no such document, or it has no kept file (sent by URL)' },
    },
    {
      method: 'get',
      path: '/api/review/documents/{id}/pages/{page}/words',
      operationId: 'getPageWords',
      tag: 'review',
      summary: 'The words of a page',
      description:
        'The words of one page of the kept file, for picking a value on the page: from the PDF’s text layer where the page has one, else from OCR of the page (the first call on such a page takes about a second, the next ones read the kept answer). Works for every document with a kept file, whichever service extracted it.',
      auth: 'session',
      pathParams: {
        ...DOCUMENT_ID,
        page: {
          description: 'The page, 0-based (as `FieldLocation.page`).',
          schema: { type: 'integer', minimum: 0 },
        },
      },
      ok: { 200: json(ref('PageWordsResponse'), 'The page’s words, in the order read.') },
      problems: ['404-010'],
      notes: { '404-010': 'no such document or page, or the document has no kept file (sent by URL)' },
    },
    {
      method: 'get',
      path: '/api/review/jobs/{apiVersion}/{jobId}/pages/{page}/words',
      operationId: 'getJobPageWords',
      tag: 'review',
      summary: 'The words of a page of a job’s document',
      description:
        'The words of one page of the file kept for an upstream job, as `getPageWords` gives them for a queue document: for picking a value on the job’s own page (`/jobs/{id}`, `/jobs/v1/{id}`), which knows the job, not the review’s document. The document is the latest one with a kept file that the job brought: a v2 job by its id; a v1 job by its queued job’s id, or a synchronous prediction by its document’s id.',
      auth: 'session',
      pathParams: {
        apiVersion: { description: 'The job’s API version.', schema: { type: 'string', enum: ['v1', 'v2'] } },
        jobId: {
          description:
            'The upstream’s job id (v1: the queued job’s id, or the document’s for a synchronous prediction).',
          schema: { type: 'string', minLength: 1, maxLength: 200 },
        },
        page: {
          description: 'The page, 0-based (as `FieldLocation.page`).',
          schema: { type: 'integer', minimum: 0 },
        },
      },
      ok: { 200: json(ref('PageWordsResponse'), 'The page’s words, in the order read.') },
      problems: ['404-010'],
      notes: {
        '404-010':
          'no kept document of this job (not sent through this server, sent by URL, or its file removed), or no such page',
      },
    },
    {
      method: 'post',
      path: '/api/review/import',
      operationId: 'importDocument',
      tag: 'review',
      summary: 'Import a job a browser kept',
      description:
        'Brings a job that a browser kept in its own storage (before the team queue existed) into the queue, with its result and, if the browser kept it, its file: the document is `to_review`, and its timeline says `imported` by the caller. ' +
        'The body is `multipart/form-data` (the parts are described in `x-multipart-parts`): `metadata`, JSON of the `ImportMetadata` schema; `result`, the upstream’s JSON answer (a v2 extraction response, with `inference`, or a v1 document response, with `document`); `file`, optional, the document’s bytes. ' +
        `\`metadata\` and \`result\` may be text fields or JSON file parts, up to ${MAX_IMPORT_PART_BYTES / 1024 / 1024} MB each; the file up to ${MAX_IMPORT_FILE_BYTES / 1024 / 1024} MB. ` +
        'Once per upstream job: when the store holds the same `apiVersion` and `upstreamJobId` already (imported before, or uploaded through the app), the answer is 200 with that document, unchanged, and `imported: false`.',
      auth: 'session+csrf',
      ok: {
        201: json(ref('ImportResponse'), 'Imported: the new document, in the queue.'),
        200: json(ref('ImportResponse'), 'The job was in the store already: its document, unchanged.'),
      },
      problems: ['400-001', '413-001', '415-001', '422-008', '422-011'],
      notes: {
        '400-001': 'the multipart body is broken (no boundary, cut short)',
        '422-011':
          'the file is no document by its bytes (HTML, SVG, script, text…), or not the type its part declares (a PDF sent as `text/html`); `errors[0].pointer` is `#/file`',
        '413-001': `the file is over ${MAX_IMPORT_FILE_BYTES / 1024 / 1024} MB, or \`metadata\` or \`result\` over ${MAX_IMPORT_PART_BYTES / 1024 / 1024} MB`,
        '415-001': 'the body is not `multipart/form-data`',
        '422-008':
          'a part is missing, not JSON, or does not fit: `errors[]` point into the form (`#/metadata/model`, `#/result/inference`, `#/file`)',
      },
      extensions: {
        'x-multipart-parts': {
          metadata: {
            required: true,
            contentType: 'application/json',
            schema: ref('ImportMetadata'),
          },
          result: {
            required: true,
            contentType: 'application/json',
            schema: {
              type: 'object',
              description:
                'The upstream’s answer as it came: v2 `{ inference }`, v1 `{ document }` (its id is `upstreamResultId` when that is left out).',
            },
          },
          file: {
            required: false,
            contentType: 'application/octet-stream',
            schema: {
              type: 'string',
              contentMediaType: 'application/octet-stream',
              description: 'The document as it was uploaded; its part’s content type is kept as the file’s.',
            },
          },
        },
      },
    },
    {
      method: 'get',
      path: '/api/review/documents/{id}/timeline',
      operationId: 'getTimeline',
      tag: 'review',
      summary: 'A document’s history',
      description: 'Every event of the document, oldest first; as CSV for admins with `?format=csv`.',
      auth: 'session',
      pathParams: DOCUMENT_ID,
      query: [
        {
          name: 'format',
          in: 'query',
          required: false,
          description: '`csv` for a CSV download (admins only); JSON otherwise.',
          schema: { type: 'string', enum: ['csv'] },
        },
      ],
      ok: {
        200: {
          description: 'The events: JSON, or with `?format=csv` a CSV attachment (UTF-8 with a BOM, CRLF).',
          headers: {
            'Content-Disposition': {
              description: 'With `?format=csv`: `attachment; filename="timeline-<id>.csv"`.',
              schema: { type: 'string' },
            },
          },
          content: {
            'application/json': { schema: ref('TimelineResponse') },
            'text/csv': {
              schema: {
                type: 'string',
                description: 'Columns: at, event, operator, field, before, after, reason, details.',
              },
            },
          },
        },
      },
      problems: ['403-005', '404-010'],
      notes: { '403-005': 'only an admin may export a timeline (`?format=csv`)' },
    },

    // ─── Models: routing and business rules ───
    {
      method: 'get',
      path: '/api/review/models',
      operationId: 'listModels',
      tag: 'review',
      summary: 'Models and their rules',
      description: 'Every model (v2) or product (v1) with documents in the store or saved settings.',
      auth: 'session',
      ok: { 200: json(ref('ModelsResponse'), 'The models, by API version and name.') },
    },
    {
      method: 'get',
      path: '/api/review/models/{apiVersion}/{model}/settings',
      operationId: 'getModelSettings',
      tag: 'review',
      summary: 'A model’s routing and business rules',
      description: 'Any operator may read them: the review checks the business rules as values change.',
      auth: 'session',
      pathParams: MODEL_PARAMS,
      ok: { 200: json(ref('ModelSettings'), 'The settings (the defaults, version 0, when never saved).') },
      problems: ['404-004'],
      notes: MODEL_NOTES,
    },
    {
      method: 'put',
      path: '/api/review/models/{apiVersion}/{model}/settings',
      operationId: 'putModelSettings',
      tag: 'review',
      summary: 'Save a model’s routing and business rules (admins)',
      description:
        'Replaces the settings, on the version read. Each save is kept in the audit log (`settings_changed`).',
      auth: 'session+csrf',
      admin: true,
      pathParams: MODEL_PARAMS,
      body: 'ModelSettingsRequest',
      ok: { 200: json(ref('ModelSettings'), 'The settings, saved, with their new version.') },
      problems: ['404-004', '409-001'],
      notes: {
        ...MODEL_NOTES,
        '409-001':
          'the version sent is not the settings’ any more; `current` is the settings as they are now',
        '422-008':
          'the body does not fit: `errors[]` point into it (`#/rules/2/pattern` for a regular expression that does not compile)',
      },
    },

    // ─── Exports ───
    {
      method: 'get',
      path: '/api/exports/confirmed',
      operationId: 'exportConfirmed',
      tag: 'review',
      summary: 'Export confirmed documents (admins)',
      description:
        'The confirmed documents of one model, in order of confirmation, with their validated values, streamed (docs/gateway.md, "Exports").',
      auth: 'session',
      admin: true,
      query: [
        {
          name: 'model',
          in: 'query',
          required: true,
          description: 'The model id (v2) or product `account/name/vN` (v1).',
          schema: { type: 'string', minLength: 1, maxLength: 500 },
        },
        {
          name: 'format',
          in: 'query',
          required: false,
          description: '`jsonl` (default): a JSON object per document; `csv`: a row per line item.',
          schema: { type: 'string', enum: ['jsonl', 'csv'], default: 'jsonl' },
        },
        ...(['from', 'to'] as const).map((name) => ({
          name,
          in: 'query',
          required: false,
          description:
            name === 'from'
              ? 'Confirmed at or after: a day (`2026-11-24`, from its start, UTC) or an instant with its offset.'
              : 'Confirmed before: a day (counted whole) or an instant with its offset; after `from`.',
          schema: {
            anyOf: [
              { type: 'string', format: 'date' },
              { type: 'string', format: 'date-time' },
            ],
          },
        })),
      ],
      ok: {
        200: {
          description: 'An attachment, streamed: JSON lines, or CSV (UTF-8 with a BOM, CRLF).',
          headers: {
            'Content-Disposition': {
              description: '`attachment; filename="confirmed-<model>-<date>.<format>"`.',
              schema: { type: 'string' },
            },
          },
          content: {
            'application/x-ndjson': {
              schema: {
                type: 'string',
                description:
                  'One object per line: document_id, api_version, model, file_name, alias, integration, confirmed_at, confirmed_by, automatic, fields (the v2 API’s shape).',
              },
            },
            'text/csv': {
              schema: {
                type: 'string',
                description:
                  'Columns: document_id, file_name, model, integration, confirmed_at, confirmed_by, automatic, then every field column (`line_items.description` …); a row per line item.',
              },
            },
          },
        },
      },
      notes: { '422-008': 'the query does not fit: `errors[]` point at its parameters (`#/from`)' },
    },

    // ─── Operators ───
    {
      method: 'get',
      path: '/api/operators',
      operationId: 'listOperators',
      tag: 'operators',
      summary: 'List operators (admins)',
      auth: 'session',
      admin: true,
      ok: { 200: json(ref('OperatorList'), 'Every operator.') },
    },
    {
      method: 'post',
      path: '/api/operators',
      operationId: 'createOperator',
      tag: 'operators',
      summary: 'Add an operator (admins)',
      auth: 'session+csrf',
      admin: true,
      body: 'NewOperatorRequest',
      ok: { 201: json(ref('OperatorResponse'), 'The operator, created.') },
      problems: ['409-003'],
      notes: {
        '422-008': `the body does not fit, or the password is not empty and shorter than ${MIN_PASSWORD_LENGTH}`,
      },
    },
    {
      method: 'delete',
      path: '/api/operators/{id}',
      operationId: 'removeOperator',
      tag: 'operators',
      summary: 'Remove an operator (admins)',
      description: 'Their sessions end with them. An admin cannot remove themself.',
      auth: 'session+csrf',
      admin: true,
      pathParams: { id: { description: 'The operator’s id.', schema: { type: 'string' } } },
      ok: { 204: { description: 'Removed.' } },
      problems: ['404-012', '409-002'],
      notes: { '409-002': 'an admin cannot remove themself (no `current` here)' },
    },

    // ─── This document ───
    {
      method: 'get',
      path: '/api/openapi.json',
      operationId: 'getOpenApi',
      tag: 'meta',
      summary: 'This OpenAPI document',
      auth: 'none',
      ok: { 200: json({ type: 'object' }, 'The OpenAPI 3.1 document of the review API.') },
    },
  ];
}

// ─── The document ────────────────────────────────────────────────────────────────────────────────────

// ─── The way back (delivery-routes.ts) ───────────────────────────────────────────────────────────────

const DELIVERY_QUERY_DESCRIPTIONS: Record<keyof z.input<typeof DeliveryQuery>, string> = {
  state: 'Only deliveries in this state.',
  kind: 'Only deliveries of this kind.',
  document: 'A document’s id: only its deliveries.',
  integration: 'An integration’s id: only the webhooks to it.',
  cursor: 'The `nextCursor` of the previous page, as it is (422-008 otherwise).',
  limit: 'How many deliveries a page holds.',
};

const DELIVERY_ID = {
  id: { description: 'The delivery’s id (a number).', schema: { type: 'string', pattern: '^[0-9]+$' } },
};

function wayBackRoutes(): Route[] {
  const query = z.toJSONSchema(DeliveryQuery, { target: 'draft-2020-12', io: 'input' }) as JsonObject;
  const properties = query.properties as Record<string, JsonObject>;
  const required = new Set((query.required as string[] | undefined) ?? []);
  const parameters = Object.entries(properties).map(([name, schema]) => {
    const description = (DELIVERY_QUERY_DESCRIPTIONS as Record<string, string | undefined>)[name];
    if (description === undefined) throw new Error(`DeliveryQuery.${name} has no description`);
    return { name, in: 'query', required: required.has(name), description, schema };
  });
  return [
    {
      method: 'get',
      path: '/api/review/deliveries',
      operationId: 'listDeliveries',
      tag: 'review',
      summary: 'The way back’s deliveries (admins)',
      description:
        'Webhooks to integrations, v1 feedback and v2 RAG sent upstream after each confirmation, newest first, with the counts per state.',
      auth: 'session',
      admin: true,
      query: parameters,
      ok: { 200: json(ref('DeliveryPage'), 'One page of deliveries.') },
      problems: ['422-008'],
      notes: { '422-008': 'a query parameter does not fit, or the cursor is not one a page gave' },
    },
    {
      method: 'get',
      path: '/api/review/deliveries/{id}',
      operationId: 'getDelivery',
      tag: 'review',
      summary: 'A delivery, its attempts and what it sends (admins)',
      auth: 'session',
      admin: true,
      pathParams: DELIVERY_ID,
      ok: { 200: json(ref('DeliveryDetailResponse'), 'The delivery.') },
      problems: ['404-014'],
      notes: { '404-014': 'no delivery with this id' },
    },
    {
      method: 'post',
      path: '/api/review/deliveries/{id}/retry',
      operationId: 'retryDelivery',
      tag: 'review',
      summary: 'Retry a delivery now (admins)',
      description:
        'A failed delivery is pending again with a new round of attempts, due now; a pending one is due now. The webhook’s URL and secret are read again at each attempt.',
      auth: 'session+csrf',
      admin: true,
      pathParams: DELIVERY_ID,
      ok: { 200: json(ref('DeliveryResponse'), 'The delivery, pending.') },
      problems: ['404-014', '409-004'],
      notes: { '404-014': 'no delivery with this id', '409-004': 'the delivery was delivered already' },
    },
    {
      method: 'get',
      path: '/api/review/documents/{id}/deliveries',
      operationId: 'getDocumentDeliveries',
      tag: 'review',
      summary: 'A document’s deliveries',
      description: 'What the document’s confirmations sent (or are sending) on the way back, oldest first.',
      auth: 'session',
      pathParams: DOCUMENT_ID,
      ok: { 200: json(ref('DeliveryList'), 'The deliveries.') },
      problems: ['404-010'],
    },
  ];
}

// ─── Where time goes (server/review/analytics/analytics-routes.ts) ─────────────────────────────────────

const ANALYTICS_QUERY_DESCRIPTIONS: Record<keyof z.input<typeof AnalyticsQuery>, string> = {
  model: 'The model id (v2) or product `account/name/vN` (v1); every model when left out.',
  from: 'From: a day (`2026-11-24`, from its start, UTC) or an instant with its offset; default `to` less 7 days.',
  to: 'Up to (excluded): a day (counted whole) or an instant with its offset; default now. At most 400 days after `from`.',
  bucket:
    'Confirmations per `day` or `week`, counted from `from`; default per day up to 31 days, per week beyond.',
  format: '`json` (default), or `csv` for one table (`table`).',
  table: `With \`format=csv\`: the table, one per chart (${AnalyticsTable.options.join(', ')}).`,
};

function analyticsRoutes(): Route[] {
  const query = z.toJSONSchema(AnalyticsQuery, { target: 'draft-2020-12', io: 'input' }) as JsonObject;
  const properties = query.properties as Record<string, JsonObject>;
  const required = new Set((query.required as string[] | undefined) ?? []);
  const parameters = Object.entries(properties).map(([name, schema]) => {
    const description = (ANALYTICS_QUERY_DESCRIPTIONS as Record<string, string | undefined>)[name];
    if (description === undefined) throw new Error(`AnalyticsQuery.${name} has no description`);
    return { name, in: 'query', required: required.has(name), description, schema };
  });
  return [
    {
      method: 'get',
      path: '/api/review/analytics',
      operationId: 'getAnalytics',
      tag: 'review',
      summary: 'Where time goes (admins)',
      description:
        'Per model and period: the share of documents confirmed automatically, the fields operators correct most (before → after examples), the time spent per document and per operator, and the queue’s age now. Each figure is defined in docs/review-store.md, "Where time goes".',
      auth: 'session',
      admin: true,
      query: parameters,
      ok: {
        200: {
          description:
            'The figures (JSON), or with `format=csv` one table as an attachment (UTF-8 with a BOM, CRLF).',
          content: {
            'application/json': { schema: ref('AnalyticsResponse') },
            'text/csv': {
              schema: {
                type: 'string',
                description: 'One table: a header line, then a row per bar of its chart.',
              },
            },
          },
        },
      },
      problems: ['422-008'],
      notes: {
        '422-008':
          'the query does not fit: `errors[]` point at its parameters (`#/to` before `from`, `#/table` missing with `format=csv`)',
      },
    },
  ];
}

const STATE_CHANGING: ReadonlySet<Method> = new Set(['post', 'put', 'delete']);

function security(auth: Auth): JsonObject[] {
  switch (auth) {
    case 'none':
      return [];
    case 'optional':
      return [{}, { session: [] }];
    case 'session':
      return [{ session: [] }];
    case 'session+csrf':
      return [{ session: [], csrf: [] }];
  }
}

/** Every problem the route can answer: its own, and those its session, role and body imply. */
function problemCodes(route: Route): ProblemCode[] {
  const codes = new Set<ProblemCode>(route.problems ?? []);
  if (route.body !== undefined)
    for (const code of ['400-001', '413-001', '422-008'] as const) codes.add(code);
  if (STATE_CHANGING.has(route.method)) codes.add('403-003');
  if (route.auth === 'session' || route.auth === 'session+csrf' || route.auth === 'optional')
    codes.add('401-011');
  if (route.auth === 'session+csrf') codes.add('403-004');
  if (route.admin === true) codes.add('403-005');
  return [...codes].sort();
}

function problemResponses(route: Route): Record<string, JsonObject> {
  const byStatus = new Map<number, ProblemCode[]>();
  for (const code of problemCodes(route)) {
    const status = problemCatalog[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<string, JsonObject> = {};
  for (const [status, codes] of byStatus) {
    const lines = codes.map((code) => {
      const note = route.notes?.[code];
      return `- \`${code}\` ${problemCatalog[code].title}${note === undefined ? '' : `: ${note}`}`;
    });
    responses[String(status)] = {
      description: `Problem details, \`code\`:\n${lines.join('\n')}`,
      ...(status === 429
        ? { headers: { 'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } } } }
        : {}),
      content: { [PROBLEM_CONTENT_TYPE]: { schema: ref('Problem') } },
    };
  }
  return responses;
}

function operation(route: Route, requestSchemas: Record<string, JsonObject>): JsonObject {
  const templateParams = [...route.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] ?? '');
  const pathParameters = templateParams.map((name) => {
    const param = route.pathParams?.[name];
    if (param === undefined) throw new Error(`${route.path}: {${name}} is not described`);
    return { name, in: 'path', required: true, ...param };
  });
  if (route.body !== undefined && requestSchemas[route.body] === undefined) {
    throw new Error(`${route.path}: no request schema ${route.body}`);
  }
  const responses: Record<string, JsonObject> = {};
  for (const [status, response] of Object.entries(route.ok)) responses[status] = response;
  Object.assign(responses, problemResponses(route));
  return {
    operationId: route.operationId,
    tags: [route.tag],
    summary: route.summary,
    ...(route.description === undefined ? {} : { description: route.description }),
    security: security(route.auth),
    ...(pathParameters.length + (route.query?.length ?? 0) === 0
      ? {}
      : { parameters: [...pathParameters, ...(route.query ?? [])] }),
    ...(route.body === undefined
      ? {}
      : {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: ref(route.body) } },
          },
        }),
    responses,
    ...route.extensions,
  };
}

const DESCRIPTION = `The review workbench’s own API: sessions, the shared review queue, operators.

**Session.** \`POST /api/session\` (or the one-time set-up link, \`POST /api/setup\`) sets the \`${SESSION_COOKIE}\` cookie (HttpOnly, SameSite=Lax, Secure over HTTPS) and answers the session’s CSRF token; \`GET /api/session\` gives it again. Behind the company’s proxy, its single sign-on header opens a session the same way. A route that needs a session answers \`401-011\` without one.

**CSRF.** Every state-changing request (anything but GET, HEAD, OPTIONS) of a session sends the session’s token in the \`${CSRF_HEADER}\` header (\`403-004\` otherwise).

**Other sites.** A state-changing request that a browser sends from another site’s page (an \`Origin\` that is not the app’s own, or \`Sec-Fetch-Site: cross-site\`/\`same-site\`) is refused with \`403-003\`, whatever its credentials; no answer carries \`Access-Control-*\` headers.

**Errors.** Every refusal is a problem-details body (\`application/problem+json\`, the \`Problem\` schema) with a stable \`code\` (docs/errors.md). Besides those listed for each operation, any request may meet \`421-001\` (a \`Host\` the server does not answer to), \`404-015\` (no such route), \`503-001\` (the review store is not answering: try again after \`Retry-After\`) and \`500-001\`.`;

function build(): JsonObject {
  const requestSchemas = toComponents(REQUEST_SCHEMAS, 'input');
  const responseSchemas = toComponents(RESPONSE_SCHEMAS, 'output');
  for (const name of Object.keys(requestSchemas)) {
    if (name in responseSchemas) throw new Error(`schema ${name} is both a request and a response`);
  }
  const queueQuery = requestSchemas.QueueQuery;
  if (queueQuery === undefined) throw new Error('no QueueQuery schema');

  const paths: Record<string, Record<string, JsonObject>> = {};
  for (const route of [...routes(queueQuery), ...wayBackRoutes(), ...analyticsRoutes()]) {
    const item = (paths[route.path] ??= {});
    if (item[route.method] !== undefined) throw new Error(`${route.method} ${route.path} is listed twice`);
    item[route.method] = operation(route, requestSchemas);
  }

  const packageJson = JSON.parse(
    readFileSync(path.resolve(import.meta.dirname, '..', '..', '..', 'package.json'), 'utf8'),
  ) as { version: string };

  return {
    openapi: '3.1.1',
    info: { title: 'extraction-review review API', version: packageJson.version, description: DESCRIPTION },
    servers: [{ url: '/' }],
    tags: [
      { name: 'session', description: 'Signing in and out, and the one-time set-up link.' },
      { name: 'review', description: 'The shared review queue.' },
      { name: 'operators', description: 'Operators (admins only).' },
      { name: 'meta', description: 'This document.' },
    ],
    paths,
    components: {
      schemas: { ...requestSchemas, ...responseSchemas },
      securitySchemes: {
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: SESSION_COOKIE,
          description: 'The session cookie, set by `POST /api/session` or `POST /api/setup`.',
        },
        csrf: {
          type: 'apiKey',
          in: 'header',
          name: CSRF_HEADER,
          description:
            'The session’s CSRF token (`csrfToken` of the session), on every state-changing request.',
        },
      },
    },
  };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

let built: JsonObject | undefined;

/** The document, built once (frozen). */
export function reviewOpenApiDocument(): object {
  built ??= deepFreeze(build());
  return built;
}
