import { Link, useLocation } from 'wouter';
import { describeError } from '../../components/describe-error';
import { Button } from '../../components/ui/button';
import { signInHref } from '../../app/session/safe-next';
import { useCurrentPath } from '../../app/session/use-current-path';
import { useSession, useSignOut } from '../../app/session/use-session';

/** The header's end: who is signed in and "Sign out", or "Sign in" (coming back to this page). */
export function SessionMenu() {
  const session = useSession();
  const signOut = useSignOut();
  const here = useCurrentPath();
  const [location] = useLocation();

  // Unknown yet: nothing, rather than a "Sign in" that flickers away.
  if (session.isPending) return null;
  const operator = session.data?.operator;
  if (!operator) {
    // On the sign-in page itself the link would lead nowhere.
    if (location === '/sign-in') return null;
    return (
      <Link href={signInHref(here)} className="text-sm font-medium text-blue-800 hover:underline">
        Sign in
      </Link>
    );
  }
  return (
    <div className="flex items-center gap-3 text-sm">
      <span className="text-slate-700">
        <span className="font-medium text-slate-900">{operator.name}</span> ({operator.role})
      </span>
      <Button
        variant="secondary"
        className="px-3 py-1"
        disabled={signOut.isPending}
        onClick={() => signOut.mutate()}
      >
        {signOut.isPending ? 'Signing out…' : 'Sign out'}
      </Button>
      {signOut.isError && (
        <span role="alert" className="text-xs text-red-800">
          Not signed out: {describeError(signOut.error).title}.
        </span>
      )}
    </div>
  );
}
