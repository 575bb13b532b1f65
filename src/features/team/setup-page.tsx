import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { Link } from 'wouter';
import { ProblemAlert } from '../../components/problem-alert';
import { Spinner } from '../../components/ui/spinner';
import { problemCode } from './field-problems';
import { forgetSetupToken, readSetupToken, setupLinkQueryOptions } from './setup-link';
import { SetupForm } from './setup-form';

/**
 * `/setup#<token>`: the first admin, created through the one-time link the app server prints when it
 * starts with no operator. The link is checked before the form is shown.
 */
export function SetupPage() {
  // Read once, before the effect below takes the token out of the address bar.
  const [token] = useState(readSetupToken);
  useEffect(forgetSetupToken, []);
  const link = useQuery({ ...setupLinkQueryOptions(token ?? ''), enabled: token !== null });

  let body: ReactNode;
  if (token === null) body = <NoLink />;
  else if (link.isPending) body = <Spinner label="Checking the set-up link…" />;
  else if (link.isError)
    body =
      problemCode(link.error) === '404-011' ? (
        <LinkUsed />
      ) : (
        <ProblemAlert error={link.error} onRetry={() => void link.refetch()} />
      );
  else body = <SetupForm token={token} linkUsed={<LinkUsed />} />;

  return (
    <main className="mx-auto flex w-full max-w-md flex-col gap-6 p-6">
      <div>
        <h1 className="text-2xl font-semibold">Set up the team</h1>
        <p className="mt-1 text-sm text-slate-600">
          Create the first admin, who then adds the other operators.
        </p>
      </div>
      {body}
    </main>
  );
}

const linkClass = 'font-medium text-blue-800 underline';

/** 404-011: the link was used already (by you, or by whoever followed it first), has expired, or an admin exists. */
export function LinkUsed() {
  return (
    <div role="alert" className="rounded-md border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950">
      <p className="font-semibold">This set-up link cannot be used any more</p>
      <p className="mt-1">
        It works once, for an hour, until there is an admin: the first admin has been created already, or the
        link has expired.{' '}
        <Link href="/sign-in" className={linkClass}>
          Sign in
        </Link>{' '}
        with your name and password, or ask an admin to add you.
      </p>
    </div>
  );
}

function NoLink() {
  return (
    <div className="rounded-md border border-slate-200 bg-slate-50 p-4 text-sm text-slate-800">
      <p className="font-semibold">Open the set-up link itself</p>
      <p className="mt-1">
        This page needs the one-time link the app server prints when it starts with no operator; it ends with{' '}
        <code>/setup#</code> and a long code. The code is taken out of the address bar once read, so reloading
        this page does not bring it back: open the link again.
      </p>
      <p className="mt-2">
        Already set up?{' '}
        <Link href="/sign-in" className={linkClass}>
          Sign in
        </Link>
        . Whoever runs the app server can also add an admin with{' '}
        <code>npm run operators -- add NAME --role admin</code>.
      </p>
    </div>
  );
}
