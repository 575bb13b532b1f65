/** The review store's refusals the queue review reacts to (docs/errors.md, docs/review-store.md). */
import { ApiError, isRetryableError, ProblemDetailsError } from '../../../api/errors';

const hasCode = (error: unknown, code: string): error is ProblemDetailsError =>
  error instanceof ProblemDetailsError && error.code === code;

/** 409 `409-001`: the version sent is not the document's any more. */
export const isStale = (error: unknown) => hasCode(error, '409-001');
/** 403 `403-006`: the caller no longer holds the document (lease ran out, taken over). */
export const isNotHolder = (error: unknown) => hasCode(error, '403-006');
/** 409 `409-002`: the document's state does not allow it (decided meanwhile, say). */
export const isWrongState = (error: unknown) => hasCode(error, '409-002');

/** Worth sending again later: no answer, a time-out, 408, 429 (once its wait is over), a 5xx. */
export function isTransient(error: unknown): boolean {
  return isRetryableError(error) || (error instanceof ApiError && error.status === 429);
}
