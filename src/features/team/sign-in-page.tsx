import { Link, useSearchParams } from 'wouter';
import { ProblemAlert } from '../../components/problem-alert';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { safeNextPath } from '../../app/session/safe-next';
import { SignInForm } from './sign-in-form';
import { useSession, useSignOut } from '../../app/session/use-session';

/**
 * `/sign-in`, optionally `?next=/some/path`: where to go once signed in (only a path of this app; the
 * team queue otherwise).
 */
export function SignInPage() {
  const session = useSession();
  const [params] = useSearchParams();
  const next = safeNextPath(params.get('next'));

  return (
    <main className="mx-auto flex w-full max-w-md flex-col gap-6 p-6">
      <div>
        <h1 className="text-2xl font-semibold">Sign in</h1>
        <p className="mt-1 text-sm text-slate-600">
          With the name and password an admin gave you, to review the team’s documents.
        </p>
      </div>
      {session.isPending ? (
        <Spinner label="Checking who is signed in…" />
      ) : session.data ? (
        <SignedIn
          name={session.data.operator.name}
          admin={session.data.operator.role === 'admin'}
          next={next}
        />
      ) : (
        <>
          {session.isError && <ProblemAlert error={session.error} onRetry={() => void session.refetch()} />}
          <SignInForm next={next} />
        </>
      )}
    </main>
  );
}

function SignedIn({ name, admin, next }: { name: string; admin: boolean; next: string | null }) {
  const signOut = useSignOut();
  const linkClass = 'font-medium text-blue-800 underline';
  return (
    <div className="flex flex-col gap-3 rounded-md border border-slate-200 bg-slate-50 p-4 text-sm">
      <p>
        Signed in as <span className="font-semibold">{name}</span>.
      </p>
      <p className="flex flex-wrap gap-4">
        <Link href={next ?? '/queue'} className={linkClass}>
          {next ? 'Continue where you were' : 'Open the team queue'}
        </Link>
        {admin && (
          <Link href="/operators" className={linkClass}>
            Manage operators
          </Link>
        )}
      </p>
      <div>
        <Button variant="secondary" disabled={signOut.isPending} onClick={() => signOut.mutate()}>
          Sign out to sign in as someone else
        </Button>
      </div>
      {signOut.isError && <ProblemAlert error={signOut.error} />}
    </div>
  );
}
