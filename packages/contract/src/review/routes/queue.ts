/**
 * The shared queue (the handlers: server/app/review/http/review-routes.ts and import-routes.ts). Every
 * route needs a session. A refused write says why, with the document as it is now in `current`:
 * 409 `409-001` when the version sent is not the document's any more, 403 `403-006` when another
 * operator holds it, 409 `409-002` when its state does not allow the write, 404 `404-010` when there
 * is no such document.
 */
import { z } from 'zod';
import { PageWordsResponse } from '../page-words';
import {
  ConfirmRequest,
  CorrectionsRequest,
  DocumentResponse,
  ImportResponse,
  JobDocumentResponse,
  PostponeRequest,
  PriorityRequest,
  QueueFilterQuery,
  QueuePage,
  QueueQuery,
  ReassignRequest,
  RejectRequest,
  TimelineResponse,
} from '../schemas';
import { CountsResponse, NextPeek, QueueRowResponse } from './components';
import { declareRoute, type ProblemCodeText } from './declare';
import { UUID_PATTERN } from '../../common-schemas';

/** A document's id in a path: a UUID, anything else is no document (404-010). */
export const DocumentId = z
  .string()
  .regex(UUID_PATTERN, { error: 'No such document in the review.' })
  .describe('The document’s id (a UUID: anything else is 404-010).');
export const DocumentParams = z.object({ id: DocumentId });

/** A page of a kept file, 0-based, as it comes in a path. */
const PageNumber = z
  .string()
  .regex(/^\d{1,6}$/, { error: 'Pages are numbered from 0.' })
  .transform(Number)
  .pipe(z.int().max(100_000, { error: 'Pages are numbered from 0.' }))
  .describe('The page, 0-based (as `FieldLocation.page`).');

/** A write on the document the caller holds, on the version it read. */
const HELD_WRITE: ProblemCodeText[] = ['403-006', '404-010', '409-001', '409-002'];
const HELD_WRITE_NOTES = {
  '403-006':
    'another operator holds the document, or the caller’s lease ran out; `current` is the document as it is now',
  '409-001': 'the version sent is not the document’s any more; `current` is the document as it is now',
  '409-002': 'the document’s state does not allow this; `current` is the document as it is now',
} as const;

/** What each filter of the queue means, on every route that takes them. */
const FILTER_DESCRIPTIONS = {
  state: 'Only documents in this state (an expired lease counts as `to_review`).',
  model: 'Only documents of this model (v2: the model id; v1: `account/name/vN`).',
  operator: 'An operator’s id: only documents they hold or decided.',
  uploadedBy: 'An operator’s id: only documents they uploaded from the app.',
  from: 'Received at or after this time (ISO 8601, with an offset or Z).',
  to: 'Received before this time (ISO 8601, with an offset or Z).',
  q: 'Searched in file names and aliases, whatever the case.',
  minAmount:
    'Only documents whose total amount is at least this (a number; docs/review-store.md says which field is the amount).',
  maxAmount: 'Only documents whose total amount is at most this (a number).',
  assigned:
    'Whose assignment: `me` (the caller), `anyone` (assigned to some operator), `nobody` (the team’s), or an operator’s id. `takeNext` never gives a document assigned to someone else, whatever the filters.',
} satisfies Record<keyof z.input<typeof QueueFilterQuery>, string>;

export const takeNext = declareRoute({
  operationId: 'takeNext',
  method: 'post',
  path: '/api/review/next',
  tag: 'review',
  summary: 'Take the next document',
  description:
    'Takes the next waiting document for the caller, under a lease: those assigned to the caller first, then the team’s (assigned to nobody), each by highest priority, then the oldest; never one assigned to another operator. ' +
    'With the queue’s filters (those of `listDocuments`), only a document they list: the operator’s queue. ' +
    'A `state` other than `to_review` lists no waiting document, so nothing is taken.',
  access: 'operator',
  query: QueueFilterQuery,
  queryDescriptions: FILTER_DESCRIPTIONS,
  responses: {
    200: { description: 'The document, now held by the caller.', schema: DocumentResponse },
    204: { description: 'No document that the filters list is waiting.' },
  },
  notes: { '422-008': 'a query parameter does not fit (pointer `#/<name>`)' },
});

export const peekNext = declareRoute({
  operationId: 'peekNext',
  method: 'get',
  path: '/api/review/next',
  tag: 'review',
  summary: 'Which document is next',
  description:
    'The document `takeNext` would take now with the same filters, without taking it: no lease, nothing ' +
    'written. The review prefetches it while the current document is reviewed; another operator may ' +
    'take it first, and the take decides.',
  access: 'operator',
  query: QueueFilterQuery,
  queryDescriptions: FILTER_DESCRIPTIONS,
  responses: {
    200: { description: 'The next document’s id.', schema: NextPeek },
    204: { description: 'No document that the filters list is waiting.' },
  },
  notes: { '422-008': 'a query parameter does not fit (pointer `#/<name>`)' },
});

export const listDocuments = declareRoute({
  operationId: 'listDocuments',
  method: 'get',
  path: '/api/review/documents',
  tag: 'review',
  summary: 'List the queue',
  description:
    'One page of documents in the order asked (newest first by default), and the counts per state of the documents the other filters list (every filter but `state`). A query parameter not listed here is refused (422-008).',
  access: 'operator',
  query: QueueQuery,
  queryDescriptions: {
    ...FILTER_DESCRIPTIONS,
    sort: 'The order: `received`, `name`, `model`, `state` or `priority`, ascending, or descending with a leading `-` (default `-received`, newest first).',
    cursor: 'The `nextCursor` of the previous page of the same order, as it is (422-008 otherwise).',
    limit: 'How many documents a page holds.',
  } satisfies Record<keyof z.input<typeof QueueQuery>, string>,
  responses: { 200: { description: 'One page.', schema: QueuePage } },
  notes: {
    '422-008': 'a query parameter does not fit (pointer `#/<name>`), or the cursor is not one a page gave',
  },
});

export const countDocuments = declareRoute({
  operationId: 'countDocuments',
  method: 'get',
  path: '/api/review/counts',
  tag: 'review',
  summary: 'Count documents per state',
  description:
    'With the queue’s filters, the documents they list (`state` is ignored: every state is counted).',
  access: 'operator',
  query: QueueFilterQuery,
  queryDescriptions: FILTER_DESCRIPTIONS,
  responses: { 200: { description: 'The counts.', schema: CountsResponse } },
  notes: { '422-008': 'a query parameter does not fit (pointer `#/<name>`)' },
});

export const getDocument = declareRoute({
  operationId: 'getDocument',
  method: 'get',
  path: '/api/review/documents/{id}',
  tag: 'review',
  summary: 'Read a document',
  description:
    'The document with the upstream’s result and the corrections so far. Taking it is a separate write.',
  access: 'operator',
  params: DocumentParams,
  paramsProblem: '404-010',
  responses: { 200: { description: 'The document.', schema: DocumentResponse } },
});

export const getDocumentRow = declareRoute({
  operationId: 'getDocumentRow',
  method: 'get',
  path: '/api/review/documents/{id}/row',
  tag: 'review',
  summary: 'Read a document as a queue row',
  description:
    'One document as a row of `listDocuments` shows it, without the upstream’s result or the corrections: ' +
    'an open queue refreshes the one row a queue event names instead of its whole page.',
  access: 'operator',
  params: DocumentParams,
  paramsProblem: '404-010',
  responses: { 200: { description: 'The row.', schema: QueueRowResponse } },
});

export const takeDocument = declareRoute({
  operationId: 'takeDocument',
  method: 'post',
  path: '/api/review/documents/{id}/take',
  tag: 'review',
  summary: 'Take a document',
  description:
    'Takes a waiting or postponed document (or one whose lease ran out) under a lease; one the caller holds already has its lease renewed.',
  access: 'operator',
  params: DocumentParams,
  paramsProblem: '404-010',
  responses: { 200: { description: 'The document, held by the caller.', schema: DocumentResponse } },
  problems: ['403-006', '409-002'],
  notes: HELD_WRITE_NOTES,
});

export const renewLease = declareRoute({
  operationId: 'renewLease',
  method: 'post',
  path: '/api/review/documents/{id}/lease',
  tag: 'review',
  summary: 'Renew the lease',
  description: 'The open review says it is still there: the caller’s lease runs again from now.',
  access: 'operator',
  params: DocumentParams,
  paramsProblem: '404-010',
  responses: { 200: { description: 'The document, its lease renewed.', schema: DocumentResponse } },
  problems: ['403-006', '409-002'],
  notes: HELD_WRITE_NOTES,
});

export const releaseDocument = declareRoute({
  operationId: 'releaseDocument',
  method: 'post',
  path: '/api/review/documents/{id}/release',
  tag: 'review',
  summary: 'Release a document',
  description: 'Puts the document the caller holds back in the queue, undecided.',
  access: 'operator',
  params: DocumentParams,
  paramsProblem: '404-010',
  responses: { 200: { description: 'The document, back in the queue.', schema: DocumentResponse } },
  problems: ['403-006'],
  notes: {
    '403-006':
      'the caller does not hold the document (whatever its state); `current` is the document as it is now',
  },
});

export const saveCorrections = declareRoute({
  operationId: 'saveCorrections',
  method: 'put',
  path: '/api/review/documents/{id}/corrections',
  tag: 'review',
  summary: 'Save corrections',
  description:
    'Corrections by the holder on the version it read; the version moves on and the lease is renewed.',
  access: 'operator',
  params: DocumentParams,
  paramsProblem: '404-010',
  body: CorrectionsRequest,
  responses: { 200: { description: 'The document with the corrections.', schema: DocumentResponse } },
  problems: HELD_WRITE,
  notes: HELD_WRITE_NOTES,
});

export const confirmDocument = declareRoute({
  operationId: 'confirmDocument',
  method: 'post',
  path: '/api/review/documents/{id}/confirm',
  tag: 'review',
  summary: 'Confirm a document',
  description:
    'The business rules of the document’s model are checked on its result with the corrections so far; when one fails, an `overrideReason` is needed, and kept in the timeline with the rules that failed. Values at Medium, Low or no confidence that nobody confirmed or corrected are counted: kept in the timeline with `uncheckedConfirmed` (what the operator was told and confirmed anyway), and refused when the model’s gate is strict.',
  access: 'operator',
  params: DocumentParams,
  paramsProblem: '404-010',
  body: ConfirmRequest,
  responses: { 200: { description: 'The document, confirmed.', schema: DocumentResponse } },
  problems: [...HELD_WRITE, '422-009', '422-014'],
  notes: {
    ...HELD_WRITE_NOTES,
    '422-009':
      'a business rule fails and no `overrideReason` was given: one item of `errors[]` per rule (pointer `#/fields/<path>` to its first field, detail the reason), and `failures` with every field',
    '422-014':
      'the model’s unchecked-values gate is strict and values at Medium, Low or no confidence are neither confirmed nor corrected: one item of `errors[]` per value (pointer `#/fields/<path>`)',
  },
});

export const rejectDocument = declareRoute({
  operationId: 'rejectDocument',
  method: 'post',
  path: '/api/review/documents/{id}/reject',
  tag: 'review',
  summary: 'Reject a document',
  access: 'operator',
  params: DocumentParams,
  paramsProblem: '404-010',
  body: RejectRequest,
  responses: { 200: { description: 'The document, rejected.', schema: DocumentResponse } },
  problems: HELD_WRITE,
  notes: HELD_WRITE_NOTES,
});

export const postponeDocument = declareRoute({
  operationId: 'postponeDocument',
  method: 'post',
  path: '/api/review/documents/{id}/postpone',
  tag: 'review',
  summary: 'Postpone a document',
  access: 'operator',
  params: DocumentParams,
  paramsProblem: '404-010',
  description:
    'With `until`, the document comes back to the queue by itself at that time: it counts as `to_review` from then on, and "next" may take it.',
  body: PostponeRequest,
  responses: { 200: { description: 'The document, postponed.', schema: DocumentResponse } },
  problems: [...HELD_WRITE, '422-013'],
  notes: { ...HELD_WRITE_NOTES, '422-013': '`until` is not in the future (pointer `#/until`)' },
});

export const setDocumentPriority = declareRoute({
  operationId: 'setDocumentPriority',
  method: 'post',
  path: '/api/review/documents/{id}/priority',
  tag: 'review',
  summary: 'Set a document’s priority (admins)',
  description: '"Take next" gives the waiting document with the highest priority first, then the oldest.',
  access: 'admin',
  params: DocumentParams,
  paramsProblem: '404-010',
  body: PriorityRequest,
  responses: { 200: { description: 'The document, with its new priority.', schema: DocumentResponse } },
  notes: { '404-010': 'no such document' },
});

export const reassignDocument = declareRoute({
  operationId: 'reassignDocument',
  method: 'post',
  path: '/api/review/documents/{id}/reassign',
  tag: 'review',
  summary: 'Hand a document to an operator (admins)',
  description:
    'Hands a waiting, postponed or held document to an operator: assigned to them (it stays theirs until it is confirmed, rejected or unassigned) and held by them under a fresh lease, taken from whoever held it.',
  access: 'admin',
  params: DocumentParams,
  paramsProblem: '404-010',
  body: ReassignRequest,
  responses: {
    200: {
      description: 'The document, assigned to and held by the operator named.',
      schema: DocumentResponse,
    },
  },
  problems: ['404-012', '409-002', '422-016'],
  notes: {
    '404-012': 'no operator with this id or name',
    '422-016': 'the operator is deactivated (pointer `#/operator`)',
    '409-002': 'the document is processing, failed or decided; `current` is the document as it is now',
  },
});

export const reopenDocument = declareRoute({
  operationId: 'reopenDocument',
  method: 'post',
  path: '/api/review/documents/{id}/reopen',
  tag: 'review',
  summary: 'Reopen a document (admins)',
  description: 'Puts a decided (or held) document back in the queue, its decision cleared.',
  access: 'admin',
  params: DocumentParams,
  paramsProblem: '404-010',
  responses: { 200: { description: 'The document, back in the queue.', schema: DocumentResponse } },
  problems: ['409-002'],
  notes: {
    '409-002':
      'the document is processing, failed or already waiting; `current` is the document as it is now',
  },
});

export const deleteDocument = declareRoute({
  operationId: 'deleteDocument',
  method: 'delete',
  path: '/api/review/documents/{id}',
  tag: 'review',
  summary: 'Delete a document (admins)',
  description:
    'Removes the document for good (a request to erase personal data): its kept file, page words, result, corrections, history and deliveries, pending or not. ' +
    'The audit log keeps a `deleted` tombstone with the document’s id, model and state, who deleted it, when and why, and nothing it held (no file name, no value). ' +
    'The same deletion as the queue’s bulk `delete` and the retention purge. ' +
    'A document another operator is reviewing under a live lease is refused (403-006, naming them) unless `?force=true`.',
  access: 'admin',
  params: DocumentParams,
  paramsProblem: '404-010',
  query: z.object({ force: z.enum(['true', 'false']).optional().catch(undefined) }),
  queryDescriptions: {
    force: '`true`: delete it even while another operator reviews it (their next save finds it gone).',
  },
  responses: { 204: { description: 'Deleted.' } },
  problems: ['403-006'],
  notes: {
    '403-006': 'another operator reviews it under a live lease; `current` is the document, with who holds it',
  },
});

export const getDocumentFile = declareRoute({
  operationId: 'getDocumentFile',
  method: 'get',
  path: '/api/review/documents/{id}/file',
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
  access: 'operator',
  params: DocumentParams,
  paramsProblem: '404-010',
  responses: {
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
  problems: ['500-005'],
  notes: { '404-010': 'no such document, or it has no kept file (sent by URL)' },
});

export const getPageWords = declareRoute({
  operationId: 'getPageWords',
  method: 'get',
  path: '/api/review/documents/{id}/pages/{page}/words',
  tag: 'review',
  summary: 'The words of a page',
  description:
    'The words of one page of the kept file, for picking a value on the page: from the PDF’s text layer where the page has one, else from OCR of the page (the first call on such a page takes about a second, the next ones read the kept answer). Works for every document with a kept file, whichever service extracted it.',
  access: 'operator',
  params: z.object({ id: DocumentId, page: PageNumber }),
  paramsProblem: '404-010',
  responses: { 200: { description: 'The page’s words, in the order read.', schema: PageWordsResponse } },
  notes: { '404-010': 'no such document or page, or the document has no kept file (sent by URL)' },
});

export const getJobPageWords = declareRoute({
  operationId: 'getJobPageWords',
  method: 'get',
  path: '/api/review/jobs/{apiVersion}/{jobId}/pages/{page}/words',
  tag: 'review',
  summary: 'The words of a page of a job’s document',
  description:
    'The words of one page of the file kept for an upstream job, as `getPageWords` gives them for a queue document: for picking a value on the job’s own page (`/jobs/{id}`, `/jobs/v1/{id}`), which knows the job, not the review’s document. The document is the latest one with a kept file that the job brought: a v2 job by its id; a v1 job by its queued job’s id, or a synchronous prediction by its document’s id.',
  access: 'operator',
  params: z.object({
    apiVersion: z
      .enum(['v1', 'v2'], { error: 'No document of this job in the review.' })
      .describe('The job’s API version.'),
    jobId: z
      .string()
      .min(1, { error: 'No document of this job in the review.' })
      .max(200, { error: 'No document of this job in the review.' })
      .describe(
        'The upstream’s job id (v1: the queued job’s id, or the document’s for a synchronous prediction).',
      ),
    page: PageNumber,
  }),
  paramsProblem: '404-010',
  responses: { 200: { description: 'The page’s words, in the order read.', schema: PageWordsResponse } },
  notes: {
    '404-010':
      'no kept document of this job (not sent through this server, sent by URL, or its file removed), or no such page',
  },
});

export const findJobDocument = declareRoute({
  operationId: 'findJobDocument',
  method: 'get',
  path: '/api/review/jobs/{apiVersion}/{jobId}',
  tag: 'review',
  summary: 'The document of an upstream job',
  description:
    'The review’s document that an upstream job brought, for the job’s own page (`/jobs/{id}`, `/jobs/v1/{id}`), which knows the job and leads to the document’s one review (`/review/{id}`) once its result is in: a v2 job by its id; a v1 job by its queued job’s id, or a synchronous prediction by its document’s id. The latest such document when a job was imported twice.',
  access: 'operator',
  params: z.object({
    apiVersion: z
      .enum(['v1', 'v2'], { error: 'No document of this job in the review.' })
      .describe('The job’s API version.'),
    jobId: z
      .string()
      .min(1, { error: 'No document of this job in the review.' })
      .max(200, { error: 'No document of this job in the review.' })
      .describe(
        'The upstream’s job id (v1: the queued job’s id, or the document’s for a synchronous prediction).',
      ),
  }),
  paramsProblem: '404-016',
  responses: {
    200: { description: 'The job’s document, as the queue lists it.', schema: JobDocumentResponse },
  },
  notes: { '404-016': 'no document of this job in the review (not sent through this app server)' },
});

export const getTimeline = declareRoute({
  operationId: 'getTimeline',
  method: 'get',
  path: '/api/review/documents/{id}/timeline',
  tag: 'review',
  summary: 'A document’s history',
  description: 'Every event of the document, oldest first; as CSV for admins with `?format=csv`.',
  access: 'operator',
  params: DocumentParams,
  paramsProblem: '404-010',
  // Any other value reads as JSON, as it always has.
  query: z.object({ format: z.enum(['csv']).optional().catch(undefined) }),
  queryDescriptions: { format: '`csv` for a CSV download (admins only); JSON otherwise.' },
  responses: {
    200: {
      description: 'The events: JSON, or with `?format=csv` a CSV attachment (UTF-8 with a BOM, CRLF).',
      schema: TimelineResponse,
      headers: {
        'Content-Disposition': {
          description: 'With `?format=csv`: `attachment; filename="timeline-<id>.csv"`.',
          schema: { type: 'string' },
        },
      },
      content: {
        'text/csv': {
          schema: {
            type: 'string',
            description: 'Columns: at, event, operator, field, before, after, reason, details.',
          },
        },
      },
    },
  },
  problems: ['403-005'],
  notes: { '403-005': 'only an admin may export a timeline (`?format=csv`)' },
});

/** The import's limits in MB (server/app/review/http/read-import-form.ts; checked by openapi.test.ts). */
export const IMPORT_LIMITS_MB = { file: 100, part: 32 } as const;

export const importDocument = declareRoute({
  operationId: 'importDocument',
  method: 'post',
  path: '/api/review/import',
  tag: 'review',
  summary: 'Import a job a browser kept',
  description:
    'Brings a job that a browser kept in its own storage (before the team queue existed) into the queue, with its result and, if the browser kept it, its file: the document is `to_review`, and its timeline says `imported` by the caller. ' +
    'The body is `multipart/form-data` (the parts are described in `x-multipart-parts`): `metadata`, JSON of the `ImportMetadata` schema; `result`, the upstream’s JSON answer (a v2 extraction response, with `inference`, or a v1 document response, with `document`); `file`, optional, the document’s bytes. ' +
    `\`metadata\` and \`result\` may be text fields or JSON file parts, up to ${IMPORT_LIMITS_MB.part} MB each; the file up to ${IMPORT_LIMITS_MB.file} MB. ` +
    'Once per upstream job: when the store holds the same `apiVersion` and `upstreamJobId` already (imported before, or uploaded through the app), the answer is 200 with that document, unchanged, and `imported: false`.',
  access: 'operator',
  // Read part by part by the route (read-import-form.ts): limits per part, the file streamed to storage.
  body: { opaque: 'multipart/form-data' },
  responses: {
    201: { description: 'Imported: the new document, in the queue.', schema: ImportResponse },
    200: {
      description: 'The job was in the store already: its document, unchanged.',
      schema: ImportResponse,
    },
  },
  problems: ['400-001', '413-001', '415-001', '422-008', '422-011'],
  notes: {
    '400-001': 'the multipart body is broken (no boundary, cut short)',
    '422-011':
      'the file is no document by its bytes (HTML, SVG, script, text…), or not the type its part declares (a PDF sent as `text/html`); `errors[0].pointer` is `#/file`',
    '413-001': `the file is over ${IMPORT_LIMITS_MB.file} MB, or \`metadata\` or \`result\` over ${IMPORT_LIMITS_MB.part} MB`,
    '415-001': 'the body is not `multipart/form-data`',
    '422-008':
      'a part is missing, not JSON, or does not fit: `errors[]` point into the form (`#/metadata/model`, `#/result/inference`, `#/file`)',
  },
  extensions: {
    'x-multipart-parts': {
      metadata: {
        required: true,
        contentType: 'application/json',
        schema: { $ref: '#/components/schemas/ImportMetadata' },
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
});

export const queueRoutes = [
  takeNext,
  peekNext,
  listDocuments,
  countDocuments,
  getDocument,
  getDocumentRow,
  takeDocument,
  renewLease,
  releaseDocument,
  saveCorrections,
  confirmDocument,
  rejectDocument,
  postponeDocument,
  setDocumentPriority,
  reassignDocument,
  reopenDocument,
  deleteDocument,
  getDocumentFile,
  getPageWords,
  getJobPageWords,
  findJobDocument,
  importDocument,
  getTimeline,
] as const;
