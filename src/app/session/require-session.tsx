import { useEffect, useState, type ReactNode } from 'react';
import { useLocation } from 'wouter';
import { ProblemAlert } from '../../components/problem-alert';
import { Spinner } from '../../components/ui/spinner';
import { signInHref } from './safe-next';
import { useCurrentPath } from './use-current-path';
import { useSession } from './use-session';

/**
 * Shows its children to a signed-in operator only. Signed out: the sign-in form, coming back to this
 * very page. The children mount only once the session is known, so their queries never run
 * signed out (and unmount at sign-out).
 */
export function RequireSession({ children }: { children: ReactNode }) {
  const session = useSession();
  if (session.isPending) {
    return (
      <main className="mx-auto w-full max-w-2xl p-6">
        <Spinner label="Checking who is signed in…" />
      </main>
    );
  }
  if (session.isError) {
    return (
      <main className="mx-auto w-full max-w-2xl p-6">
        <ProblemAlert error={session.error} onRetry={() => void session.refetch()} />
      </main>
    );
  }
  if (session.data === null) return <SignInNeeded />;
  return children;
}

/**
 * A signed-out visitor of a team page goes straight to the sign-in form (issue 21: a "Sign in first"
 * page stood in between), and comes back here once signed in (`?next=`, checked by safe-next.ts).
 * The address is replaced, so Back does not return to a page that would send them on again.
 */
export function SignInNeeded() {
  const here = useCurrentPath();
  const [, navigate] = useLocation();
  // Once: the address this page was opened at, not the sign-in form's own.
  const [target] = useState(() => signInHref(here));
  useEffect(() => {
    navigate(target, { replace: true });
  }, [navigate, target]);
  return (
    <main className="mx-auto w-full max-w-2xl p-6">
      <Spinner label="Opening the sign-in form…" />
    </main>
  );
}
