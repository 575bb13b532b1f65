/**
 * A server's problem split between the form's fields and the rest: each `errors[]` item whose pointer
 * names a field (`#/password`) is shown next to that input, the remainder in the ProblemAlert, so no
 * message is shown twice.
 */
import { ApiError, ProblemDetailsError } from '../../api/errors';

export type FieldErrors<F extends string> = Partial<Record<F, string>>;

export interface SplitProblem<F extends string> {
  fields: FieldErrors<F>;
  /** What the ProblemAlert shows: the error, less the pointers shown by the fields; null for none. */
  rest: unknown;
}

/**
 * `byCode` names the field a whole problem is about (`{ '409-003': 'name' }`: a name taken): it is told
 * next to that field only, with the field's pointer detail or else the problem's own detail (the set-up
 * route reports a taken name without a pointer).
 */
export function splitProblem<F extends string>(
  error: unknown,
  fields: readonly F[],
  byCode: Partial<Record<string, F>> = {},
): SplitProblem<F> {
  if (error == null) return { fields: {}, rest: null };
  if (!(error instanceof ProblemDetailsError)) return { fields: {}, rest: error };
  const found: FieldErrors<F> = {};
  const others = error.errors.filter((item) => {
    const name = item.pointer?.replace(/^#\//, '');
    const field = fields.find((f) => f === name);
    if (field === undefined || found[field] !== undefined) return true;
    found[field] = item.detail;
    return false;
  });
  const rebuilt = () =>
    new ProblemDetailsError(
      { status: error.status, title: error.title, detail: error.detail, code: error.code, errors: others },
      { endpoint: error.endpoint, retryAfterSeconds: error.retryAfterSeconds, cause: error },
    );
  const coded = byCode[error.code];
  if (coded !== undefined) {
    found[coded] ??= error.detail || error.title;
    return { fields: found, rest: others.length > 0 ? rebuilt() : null };
  }
  return { fields: found, rest: others.length === error.errors.length ? error : rebuilt() };
}

/** The problem's code (`401-012`), when the error carries one. */
export function problemCode(error: unknown): string | undefined {
  return error instanceof ProblemDetailsError ? error.code : undefined;
}

/** What to do about a review call refused for want of a session or a role (the generic hint speaks of API keys). */
export function sessionAction(error: unknown): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  if (error.status === 401) return 'Your session has ended: sign in again.';
  if (problemCode(error) === '403-005') return 'Only admins can do this.';
  if (problemCode(error) === '403-004') return 'Reload the page, then try again.';
  return undefined;
}

/** What to do about a 429 of the sign-in, set-up and password-link limits (the wait is its Retry-After). */
export function rateLimitAction(error: unknown): string | undefined {
  if (!(error instanceof ApiError) || error.status !== 429) return undefined;
  const seconds = error.retryAfterSeconds;
  if (seconds == null) return 'Wait a few minutes, then try again, or ask an admin.';
  const minutes = Math.ceil(seconds / 60);
  return seconds < 60
    ? `Try again in ${seconds} s.`
    : `Try again in ${minutes} minute${minutes === 1 ? '' : 's'}, or ask an admin.`;
}

/**
 * Moves focus to the first field (in `fields` order) that has an error, found by its `name` in the
 * form; its description then reads the error. Selected, so that typing replaces what was refused.
 */
export function focusFirstError<F extends string>(
  form: HTMLFormElement | null,
  fields: readonly F[],
  errors: FieldErrors<F>,
): boolean {
  const first = fields.find((f) => errors[f] !== undefined);
  const input = first === undefined ? null : form?.elements.namedItem(first);
  if (!(input instanceof HTMLInputElement)) return false;
  input.focus();
  input.select();
  return true;
}
