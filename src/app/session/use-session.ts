/**
 * Who is signed in (the review API's session), and the two ways it changes: a session the server just
 * opened (sign-in, the first admin's set-up) and signing out. Both keep csrf.ts's token in step, so
 * every later write of this tab carries the right one.
 */
import { hashKey, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import { ApiError, ProblemDetailsError } from '../../api/errors';
import { reviewKeys } from '../../api/keys';
import { rememberCsrfToken } from '@extraction-review/contract/review/csrf';
import { signOut } from '../../api/review/endpoints';
import { sessionQueryOptions } from '../../api/review/queries';
import { runBeforeSignOut } from './before-sign-out';
import type { SessionResponse } from '@extraction-review/contract/review/schemas';

/** `data`: the signed-in operator and the CSRF token, or null when nobody is signed in. */
export function useSession() {
  return useQuery(sessionQueryOptions());
}

/** Whether the signed-in operator is an admin (false while unknown). */
export function useIsAdmin(): boolean {
  return useSession().data?.operator.role === 'admin';
}

const sessionHash = hashKey(reviewKeys.session());

/** Every review query but the session's: what one person read is not shown to the next. */
function forgetReviewData(queryClient: QueryClient, type: 'all' | 'inactive') {
  queryClient.removeQueries({
    queryKey: reviewKeys.all,
    type,
    predicate: (query) => query.queryHash !== sessionHash,
  });
}

/** Takes a session the server has just opened: its CSRF token, and the session query's data. */
export function useAcceptSession(): (session: SessionResponse) => void {
  const queryClient = useQueryClient();
  return useCallback(
    (session) => {
      rememberCsrfToken(session.csrfToken);
      // Only the unobserved ones: the page that opened the session is still on screen.
      forgetReviewData(queryClient, 'inactive');
      queryClient.setQueryData(sessionQueryOptions().queryKey, session);
      // What was refused while signed out (the app's settings, jobs) is asked again.
      void queryClient.invalidateQueries({
        predicate: (query) => query.state.status === 'error',
      });
    },
    [queryClient],
  );
}

/**
 * Signs out: first the pending work of the open page is sent (before-sign-out.ts: the review's last
 * corrections), then the server releases the documents held and ends the session; then the token and
 * every review query are forgotten. A 401 means the session had ended already (expired, or signed out
 * in another tab): the outcome is the same.
 */
export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...reviewKeys.session(), 'sign-out'],
    mutationFn: async () => {
      await runBeforeSignOut();
      try {
        await signOut();
      } catch (error) {
        if (!(error instanceof ApiError && error.status === 401)) throw error;
      }
    },
    onSuccess: async () => {
      rememberCsrfToken(undefined);
      await queryClient.cancelQueries({ queryKey: reviewKeys.all });
      // Set first: the pages gated on the session drop their review queries' observers at once.
      queryClient.setQueryData(sessionQueryOptions().queryKey, null);
      forgetReviewData(queryClient, 'all');
    },
  });
}

/**
 * A review call refused for want of a session (401: expired, signed out in another tab, removed) or of
 * the admin role (403-005: changed meanwhile): the session is read again, so the page shows what is
 * true now (a sign-in link, "only admins") instead of the refusal alone.
 */
export function useRecheckSessionOn(error: unknown): void {
  const queryClient = useQueryClient();
  const stale =
    error instanceof ApiError &&
    (error.status === 401 || (error instanceof ProblemDetailsError && error.code === '403-005'));
  useEffect(() => {
    if (stale) void queryClient.invalidateQueries({ queryKey: reviewKeys.session() });
  }, [stale, error, queryClient]);
}
