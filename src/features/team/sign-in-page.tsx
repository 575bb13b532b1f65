import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useSearchParams } from 'wouter';
import { reviewKeys } from '../../api/keys';
import { getSignInOptions } from '../../api/review/endpoints';
import { ProblemAlert } from '../../components/problem-alert';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { safeNextPath } from '../../app/session/safe-next';
import { SignInForm } from './sign-in-form';
import { isProviderCallback, ProviderCallback, ProviderSignInButton } from './provider-sign-in';
import { useSession, useSignOut } from '../../app/session/use-session';

/**
 * `/sign-in`, optionally `?next=/some/path`: where to go once signed in (only a path of this app; the
 * team queue otherwise). With the company's OpenID Connect provider, "Sign in with …" beside the
 * password form (or instead of it, PASSWORD_SIGNIN=false); the provider sends the browser back here
 * with its answer in the query string.
 */
export function SignInPage() {
  const session = useSession();
  const [params] = useSearchParams();
  const next = safeNextPath(params.get('next'));
  // Read once: the answer is taken off the address as soon as it is sent.
  const [callback] = useState(() =>
    isProviderCallback(window.location.search) ? window.location.search : null,
  );
  const options = useQuery({ queryKey: reviewKeys.signInOptions(), queryFn: () => getSignInOptions() });
  const provider = options.data?.provider ?? null;
  // Until the server says otherwise (or if it cannot), the password form is offered.
  const passwordSignIn = options.data?.passwordSignIn ?? true;

  const choices = (
    <>
      {session.isError && <ProblemAlert error={session.error} onRetry={() => void session.refetch()} />}
      {provider && <ProviderSignInButton name={provider.name} next={next} />}
      {provider && passwordSignIn && (
        <div className="flex items-center gap-3 text-xs text-slate-600" aria-hidden="true">
          <span className="h-px flex-1 bg-slate-200" />
          or with a name and password
          <span className="h-px flex-1 bg-slate-200" />
        </div>
      )}
      {passwordSignIn && <SignInForm next={next} secondary={provider !== null} />}
    </>
  );

  return (
    <main className="mx-auto flex w-full max-w-md flex-col gap-6 p-6">
      <div>
        <h1 className="text-2xl font-semibold">Sign in</h1>
        <p className="mt-1 text-sm text-slate-600">
          {provider && !passwordSignIn
            ? 'With your company account, to review the team’s documents.'
            : provider
              ? 'With your company account, or the name and password an admin gave you.'
              : 'With the name and password an admin gave you, to review the team’s documents.'}
        </p>
      </div>
      {callback !== null ? (
        <ProviderCallback search={callback}>{choices}</ProviderCallback>
      ) : session.isPending ? (
        <Spinner label="Checking who is signed in…" />
      ) : session.data ? (
        <SignedIn
          name={session.data.operator.name}
          admin={session.data.operator.role === 'admin'}
          next={next}
        />
      ) : (
        choices
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
