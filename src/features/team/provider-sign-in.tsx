import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, type ReactNode } from 'react';
import { useLocation } from 'wouter';
import { finishProviderSignIn, startProviderSignIn } from '../../api/review/endpoints';
import { ProblemAlert } from '../../components/problem-alert';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { useAcceptSession } from '../../app/session/use-session';
import { safeNextPath } from '../../app/session/safe-next';
import { problemCode } from './field-problems';

/** Where to go once back from the provider: `next` does not survive the trip through its pages. */
const NEXT_KEY = 'extraction-review.sign-in-next';

/** Whether this page was reached from the provider, with its answer in the query string. */
export function isProviderCallback(search: string): boolean {
  const query = new URLSearchParams(search);
  return query.has('state') && (query.has('code') || query.has('error'));
}

/** "Sign in with …": to the provider's page, which sends the browser back to `/sign-in`. */
export function ProviderSignInButton({ name, next }: { name: string; next: string | null }) {
  const start = useMutation({
    mutationFn: () => startProviderSignIn(),
    onSuccess: ({ authorizationUrl }) => {
      sessionStorage.setItem(NEXT_KEY, next ?? '');
      window.location.assign(authorizationUrl);
    },
  });
  // Still pending while the browser leaves for the provider.
  const leaving = start.isPending || start.isSuccess;
  return (
    <div className="flex flex-col gap-3">
      <Button className="w-full" disabled={leaving} onClick={() => start.mutate()}>
        {leaving ? `Going to ${name}…` : `Sign in with ${name}`}
      </Button>
      {start.isError && <ProblemAlert error={start.error} />}
    </div>
  );
}

function actionFor(error: unknown): string | undefined {
  switch (problemCode(error)) {
    case '401-016':
      return 'Ask an admin to add you as an operator, then sign in again.';
    case '403-007':
      return 'Ask an admin to reactivate you.';
    case '401-015':
    case '401-017':
      return 'Sign in again with the button below.';
    default:
      return undefined;
  }
}

/**
 * The way back from the provider: its answer (the query string) is handed to the server once, the
 * query taken off the address (a reload does not send a spent code again), then on to where the
 * sign-in started. A refusal stays on this page with the server's title and detail.
 */
export function ProviderCallback({ search, children }: { search: string; children: ReactNode }) {
  const [, navigate] = useLocation();
  const acceptSession = useAcceptSession();
  const sent = useRef(false);
  const finish = useMutation({
    mutationFn: (callback: string) => finishProviderSignIn(callback),
    onSuccess: (session) => {
      acceptSession(session);
      const next = safeNextPath(sessionStorage.getItem(NEXT_KEY));
      sessionStorage.removeItem(NEXT_KEY);
      navigate(next ?? '/queue', { replace: true });
    },
  });
  const { mutate } = finish;
  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    window.history.replaceState(window.history.state, '', '/sign-in');
    mutate(search);
  }, [mutate, search]);

  if (finish.isError) {
    return (
      <>
        <ProblemAlert error={finish.error} action={actionFor(finish.error)} />
        {children}
      </>
    );
  }
  return <Spinner label="Finishing your sign-in…" />;
}
