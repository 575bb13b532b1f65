import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { ProblemAlert } from '../../components/problem-alert';
import { Spinner } from '../../components/ui/spinner';
import { signInHref } from './safe-next';
import { useCurrentPath } from './use-current-path';
import { useSession } from './use-session';

/**
 * Shows its children to a signed-in operator only. Signed out: a link to sign in that comes back to
 * this very page. The children mount only once the session is known, so their queries never run
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

/** What a signed-out visitor of a team page sees. */
export function SignInNeeded({ what = 'this page' }: { what?: string }) {
  const here = useCurrentPath();
  return (
    <main className="mx-auto w-full max-w-2xl p-6">
      <h1 className="text-2xl font-semibold">Sign in first</h1>
      <p className="mt-2 text-sm text-slate-700">
        Only the team’s operators see {what}.{' '}
        <Link href={signInHref(here)} className="font-medium text-blue-800 underline">
          Sign in
        </Link>{' '}
        and you will come back here.
      </p>
    </main>
  );
}
