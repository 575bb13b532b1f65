/**
 * The review API (the app server's shared queue, docs/review-store.md), one plain async function per
 * call, like v2/endpoints.ts. Every state-changing call sends the session's CSRF token, which the
 * session calls hand over (`SessionResponse.csrfToken`) and `csrf.ts` keeps for the tab.
 */
import { api } from '../http';
import { callRoute, routePath, routeUrl, type CallOptions } from './call-route';
import { csrfHeaders } from '@extraction-review/contract/review/csrf';
import * as queue from '@extraction-review/contract/review/routes/queue';
import * as operators from '@extraction-review/contract/review/routes/operators';
import * as session from '@extraction-review/contract/review/routes/session';
import { toImportForm, type ImportInput } from '@extraction-review/contract/review/import-form';
import type {
  CorrectionsRequest,
  OperatorRole,
  QueueFilterQuery,
  QueueQuery,
  SignInRequest,
} from '@extraction-review/contract/review/schemas';

export { toImportForm, type ImportInput } from '@extraction-review/contract/review/import-form';

export type { CallOptions } from './call-route';

// ─── Session ─────────────────────────────────────────────────────────────────────────────────────────

export const getSession = (options: CallOptions = {}) => callRoute(session.getSession, {}, options);

export const signIn = (input: SignInRequest, options: CallOptions = {}) =>
  callRoute(session.signIn, { body: input }, options);

/** How this app signs people in: a password, the company's OpenID Connect provider (public). */
export const getSignInOptions = (options: CallOptions = {}) => callRoute(session.signInOptions, {}, options);

/** Starts a sign-in with the provider: its URL to go to (the `er_oidc` cookie keeps the rest). */
export const startProviderSignIn = (options: CallOptions = {}) =>
  callRoute(session.startProviderSignIn, {}, options);

/** Finishes it with the query string the provider sent the browser back to `/sign-in` with. */
export const finishProviderSignIn = (callback: string, options: CallOptions = {}) =>
  callRoute(session.finishProviderSignIn, { body: { callback } }, options);

export const signOut = (options: CallOptions = {}) => callRoute(session.signOut, {}, options);

export const checkSetupLink = (token: string, options: CallOptions = {}) =>
  callRoute(session.checkSetupLink, { params: { token } }, options);

export const createFirstAdmin = (
  input: { token: string; name: string; password: string },
  options: CallOptions = {},
) => callRoute(session.setUp, { body: input }, options);

// ─── Operators (admins) ──────────────────────────────────────────────────────────────────────────────

export const listOperators = (options: CallOptions = {}) => callRoute(operators.listOperators, {}, options);

export const createOperator = (
  input: { name: string; role: OperatorRole; password: string },
  options: CallOptions = {},
) => callRoute(operators.createOperator, { body: input }, options);

export const removeOperator = (id: string, options: CallOptions = {}) =>
  callRoute(operators.removeOperator, { params: { id } }, options);

// ─── The queue ───────────────────────────────────────────────────────────────────────────────────────

export const listQueue = (query: Partial<QueueQuery>, options: CallOptions = {}) =>
  callRoute(queue.listDocuments, { query }, options);

export const queueCounts = (query: Partial<QueueFilterQuery> = {}, options: CallOptions = {}) =>
  callRoute(queue.countDocuments, { query }, options);

/**
 * Takes the next document nobody holds, of those the queue's filters list (all without); undefined
 * when nothing is left to review.
 */
export async function takeNext(query: Partial<QueueFilterQuery> = {}, options: CallOptions = {}) {
  return (await callRoute(queue.takeNext, { query }, options))?.document;
}

/**
 * The id of the document `takeNext` would take now with these filters, not taken (no lease): what
 * the review prefetches while the current one is reviewed. Undefined when none is waiting.
 */
export async function peekNext(query: Partial<QueueFilterQuery> = {}, options: CallOptions = {}) {
  return (await callRoute(queue.peekNext, { query }, options))?.id;
}

/** The review's document an upstream job brought (404 `404-016` when this server never kept it). */
export const findJobDocument = (apiVersion: 'v1' | 'v2', jobId: string, options: CallOptions = {}) =>
  callRoute(queue.findJobDocument, { params: { apiVersion, jobId } }, options);

export const getReviewDocument = (id: string, options: CallOptions = {}) =>
  callRoute(queue.getDocument, { params: { id } }, options);

/** One document as a row of the queue list shows it (404 `404-010` once it is deleted). */
export const getQueueRow = (id: string, options: CallOptions = {}) =>
  callRoute(queue.getDocumentRow, { params: { id } }, options);

/** The kept file's URL, for the viewer (same origin, the session cookie goes with it). */
export const reviewFileUrl = (id: string): string => routeUrl(queue.getDocumentFile, { id });

export const takeDocument = (id: string, options: CallOptions = {}) =>
  callRoute(queue.takeDocument, { params: { id } }, options);
export const renewLease = (id: string, options: CallOptions = {}) =>
  callRoute(queue.renewLease, { params: { id } }, options);
export const releaseDocument = (id: string, options: CallOptions = {}) =>
  callRoute(queue.releaseDocument, { params: { id } }, options);
export const saveCorrections = (id: string, input: CorrectionsRequest, options: CallOptions = {}) =>
  callRoute(queue.saveCorrections, { params: { id }, body: input }, options);
/** With `overrideReason` when a business rule fails (the server answers 422 `422-009` without it). */
export const confirmDocument = (
  id: string,
  version: number,
  options: CallOptions & {
    overrideReason?: string | undefined;
    /** How many unchecked values the operator was told of and confirmed anyway (the history keeps it). */
    uncheckedConfirmed?: number | undefined;
  } = {},
) =>
  callRoute(
    queue.confirmDocument,
    {
      params: { id },
      body: {
        version,
        ...(options.overrideReason === undefined ? {} : { overrideReason: options.overrideReason }),
        ...(options.uncheckedConfirmed === undefined
          ? {}
          : { uncheckedConfirmed: options.uncheckedConfirmed }),
      },
    },
    options,
  );
export const rejectDocument = (id: string, version: number, reason: string, options: CallOptions = {}) =>
  callRoute(queue.rejectDocument, { params: { id }, body: { version, reason } }, options);
/** Postpones the document held, with a reason and, when given, the time it comes back to the queue. */
export const postponeDocument = (
  id: string,
  version: number,
  reason: string | undefined,
  options: CallOptions & { until?: string | undefined } = {},
) =>
  callRoute(
    queue.postponeDocument,
    {
      params: { id },
      body: {
        version,
        ...(reason === undefined ? {} : { reason }),
        ...(options.until === undefined ? {} : { until: options.until }),
      },
    },
    options,
  );
export const reassignDocument = (id: string, operator: string, options: CallOptions = {}) =>
  callRoute(queue.reassignDocument, { params: { id }, body: { operator } }, options);
/** Admins: delete a document for good (its file, values, history). */
export const deleteDocument = (id: string, options: CallOptions = {}) =>
  callRoute(queue.deleteDocument, { params: { id }, query: {} }, options);
export const reopenDocument = (id: string, options: CallOptions = {}) =>
  callRoute(queue.reopenDocument, { params: { id } }, options);
/** Admins: how soon a waiting document comes up (higher first). */
export const setDocumentPriority = (id: string, priority: number, options: CallOptions = {}) =>
  callRoute(queue.setDocumentPriority, { params: { id }, body: { priority } }, options);

export const getTimeline = (id: string, options: CallOptions = {}) =>
  callRoute(queue.getTimeline, { params: { id } }, options);

/** The timeline's CSV export (admins), as a link target. */
export const timelineCsvUrl = (id: string): string => routeUrl(queue.getTimeline, { id }, { format: 'csv' });

// ─── Import of the jobs this browser kept ────────────────────────────────────────────────────────────

/**
 * Brings a job this browser kept into the team queue: `imported` false when the queue had it already
 * (the answer is then that document, unchanged).
 */
export function importDocument(input: ImportInput, { signal, client = api }: CallOptions = {}) {
  // Its body is a form (the declaration's is opaque): sent here, the answer checked by the declaration.
  return client.request({
    method: 'POST',
    path: routePath(queue.importDocument),
    body: { form: toImportForm(input) },
    schema: queue.importDocument.responses[201].schema,
    signal,
    headers: csrfHeaders(),
  });
}
