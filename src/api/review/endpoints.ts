/**
 * The review API (the app server's shared queue, docs/review-store.md), one plain async function per
 * call, like v2/endpoints.ts. Every state-changing call sends the session's CSRF token, which the
 * session calls hand over (`SessionResponse.csrfToken`) and `csrf.ts` keeps for the tab.
 */
import { z } from 'zod';
import { api, segment, type ApiClient } from '../http';
import { csrfHeaders } from './csrf';
import {
  DocumentResponse,
  ImportResponse,
  OperatorView,
  QueuePage,
  SessionResponse,
  StateCounts,
  TimelineResponse,
  type CorrectionsRequest,
  type ImportMetadata,
  type OperatorRole,
  type QueueQuery,
  type SignInRequest,
} from './schemas';

export interface CallOptions {
  signal?: AbortSignal | undefined;
  client?: ApiClient | undefined;
}

const SignedOut = z.object({ signedOut: z.literal(true) });
const SetupLinkValid = z.object({ valid: z.literal(true) });
const OperatorsResponse = z.object({ operators: z.array(OperatorView) });
const CountsResponse = z.object({ counts: StateCounts });
/** 204: nothing to review. */
const NextResponse = z.union([DocumentResponse, z.undefined()]);
const NoContent = z.undefined();

const doc = (id: string, action = ''): string => `/review/documents/${segment(id)}${action}`;

// ─── Session ─────────────────────────────────────────────────────────────────────────────────────────

export function getSession({ signal, client = api }: CallOptions = {}): Promise<SessionResponse> {
  return client.request({ method: 'GET', path: '/session', schema: SessionResponse, signal });
}

export function signIn(input: SignInRequest, { signal, client = api }: CallOptions = {}) {
  return client.request({
    method: 'POST',
    path: '/session',
    body: { json: input },
    schema: SessionResponse,
    signal,
  });
}

export function signOut({ signal, client = api }: CallOptions = {}) {
  return client.request({
    method: 'DELETE',
    path: '/session',
    schema: SignedOut,
    signal,
    headers: csrfHeaders(),
  });
}

export function checkSetupLink(token: string, { signal, client = api }: CallOptions = {}) {
  return client.request({ method: 'GET', path: `/setup/${segment(token)}`, schema: SetupLinkValid, signal });
}

export function createFirstAdmin(
  input: { token: string; name: string; password: string },
  { signal, client = api }: CallOptions = {},
) {
  return client.request({
    method: 'POST',
    path: '/setup',
    body: { json: input },
    schema: SessionResponse,
    signal,
  });
}

// ─── Operators (admins) ──────────────────────────────────────────────────────────────────────────────

export function listOperators({ signal, client = api }: CallOptions = {}) {
  return client.request({ method: 'GET', path: '/operators', schema: OperatorsResponse, signal });
}

export function createOperator(
  input: { name: string; role: OperatorRole; password: string },
  { signal, client = api }: CallOptions = {},
) {
  return client.request({
    method: 'POST',
    path: '/operators',
    body: { json: input },
    schema: z.object({ operator: OperatorView }),
    signal,
    headers: csrfHeaders(),
  });
}

export function removeOperator(id: string, { signal, client = api }: CallOptions = {}) {
  return client.request({
    method: 'DELETE',
    path: `/operators/${segment(id)}`,
    schema: NoContent,
    signal,
    headers: csrfHeaders(),
  });
}

// ─── The queue ───────────────────────────────────────────────────────────────────────────────────────

export function listQueue(query: Partial<QueueQuery>, { signal, client = api }: CallOptions = {}) {
  return client.request({
    method: 'GET',
    path: '/review/documents',
    query: { ...query },
    schema: QueuePage,
    signal,
  });
}

export function queueCounts({ signal, client = api }: CallOptions = {}) {
  return client.request({ method: 'GET', path: '/review/counts', schema: CountsResponse, signal });
}

/** Takes the next document nobody holds; undefined when nothing is left to review. */
export async function takeNext({ signal, client = api }: CallOptions = {}) {
  const answer = await client.request({
    method: 'POST',
    path: '/review/next',
    schema: NextResponse,
    signal,
    headers: csrfHeaders(),
  });
  return answer?.document;
}

export function getReviewDocument(id: string, { signal, client = api }: CallOptions = {}) {
  return client.request({ method: 'GET', path: doc(id), schema: DocumentResponse, signal });
}

/** The kept file's URL, for the viewer (same origin, the session cookie goes with it). */
export function reviewFileUrl(id: string): string {
  return `${api.baseUrl}${doc(id, '/file')}`;
}

function write(
  id: string,
  action: string,
  body: unknown,
  { signal, client = api }: CallOptions,
  method: 'POST' | 'PUT' = 'POST',
) {
  return client.request({
    method,
    path: doc(id, action),
    body: body === undefined ? undefined : { json: body },
    schema: DocumentResponse,
    signal,
    headers: csrfHeaders(),
  });
}

export const takeDocument = (id: string, options: CallOptions = {}) => write(id, '/take', undefined, options);
export const renewLease = (id: string, options: CallOptions = {}) => write(id, '/lease', undefined, options);
export const releaseDocument = (id: string, options: CallOptions = {}) =>
  write(id, '/release', undefined, options);
export const saveCorrections = (id: string, input: CorrectionsRequest, options: CallOptions = {}) =>
  write(id, '/corrections', input, options, 'PUT');
/** With `overrideReason` when a business rule fails (the server answers 422 `422-009` without it). */
export const confirmDocument = (
  id: string,
  version: number,
  options: CallOptions & { overrideReason?: string | undefined } = {},
) =>
  write(
    id,
    '/confirm',
    options.overrideReason === undefined ? { version } : { version, overrideReason: options.overrideReason },
    options,
  );
export const rejectDocument = (id: string, version: number, reason: string, options: CallOptions = {}) =>
  write(id, '/reject', { version, reason }, options);
export const postponeDocument = (
  id: string,
  version: number,
  reason: string | undefined,
  options: CallOptions = {},
) => write(id, '/postpone', reason === undefined ? { version } : { version, reason }, options);
export const reassignDocument = (id: string, operator: string, options: CallOptions = {}) =>
  write(id, '/reassign', { operator }, options);
export const reopenDocument = (id: string, options: CallOptions = {}) =>
  write(id, '/reopen', undefined, options);

export function getTimeline(id: string, { signal, client = api }: CallOptions = {}) {
  return client.request({ method: 'GET', path: doc(id, '/timeline'), schema: TimelineResponse, signal });
}

/** The timeline's CSV export (admins), as a link target. */
export function timelineCsvUrl(id: string): string {
  return `${api.baseUrl}${doc(id, '/timeline')}?format=csv`;
}

// ─── Import of the jobs this browser kept ────────────────────────────────────────────────────────────

export interface ImportInput {
  metadata: ImportMetadata;
  /** The upstream's answer as it came (v2 extraction response, v1 document response). */
  result: unknown;
  /** The document's bytes, when this browser kept them; sent as the `file` part. */
  file?: Blob | null | undefined;
}

/**
 * The multipart form of `POST /api/review/import`: the metadata, the result as a JSON part, then the
 * file (last, so that the server knows the job before the bytes come, and stores no copy of a job it
 * has already).
 */
export function toImportForm({ metadata, result, file }: ImportInput): FormData {
  const form = new FormData();
  form.append('metadata', JSON.stringify(metadata));
  form.append('result', new Blob([JSON.stringify(result)], { type: 'application/json' }), 'result.json');
  if (file) form.append('file', file, metadata.fileName);
  return form;
}

/**
 * Brings a job this browser kept into the team queue: `imported` false when the queue had it already
 * (the answer is then that document, unchanged).
 */
export function importDocument(input: ImportInput, { signal, client = api }: CallOptions = {}) {
  return client.request({
    method: 'POST',
    path: '/review/import',
    body: { form: toImportForm(input) },
    schema: ImportResponse,
    signal,
    headers: csrfHeaders(),
  });
}

/** Admins: how soon a waiting document comes up (higher first). */
export const setDocumentPriority = (id: string, priority: number, options: CallOptions = {}) =>
  write(id, '/priority', { priority }, options);
