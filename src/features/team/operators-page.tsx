import { useRef } from 'react';
import { useHistoryState } from 'wouter/use-browser-location';
import type { OperatorView } from '@extraction-review/contract/review/schemas';
import { ProblemAlert } from '../../components/problem-alert';
import { Spinner } from '../../components/ui/spinner';
import { AddOperatorForm } from './add-operator-form';
import { OperatorTable } from './operator-table';
import { SignInNeeded } from '../../app/session/require-session';
import type { WelcomeState } from './setup-form';
import { useSession } from '../../app/session/use-session';

/** `/operators`: the team, for admins; operators are told who can change it. */
export function OperatorsPage() {
  const session = useSession();
  if (session.isPending)
    return (
      <main className="mx-auto w-full max-w-4xl p-6">
        <Spinner label="Checking who is signed in…" />
      </main>
    );
  if (session.isError)
    return (
      <main className="mx-auto w-full max-w-4xl p-6">
        <ProblemAlert error={session.error} onRetry={() => void session.refetch()} />
      </main>
    );
  if (session.data === null) return <SignInNeeded />;
  if (session.data.operator.role !== 'admin')
    return (
      <main className="mx-auto w-full max-w-4xl p-6">
        <h1 className="text-2xl font-semibold">Operators</h1>
        <p className="mt-2 text-sm text-slate-700">
          Only admins manage operators. Ask an admin to add someone, remove someone or change a password.
        </p>
      </main>
    );
  return <TeamAdmin me={session.data.operator} />;
}

function TeamAdmin({ me }: { me: OperatorView }) {
  const welcome = useHistoryState<WelcomeState | null>()?.welcome === true;
  const listHeading = useRef<HTMLHeadingElement>(null);
  return (
    <main className="mx-auto flex w-full max-w-5xl flex-col gap-8 p-6">
      <div>
        <h1 className="text-2xl font-semibold">Operators</h1>
        <p className="mt-1 text-sm text-slate-600">
          Who can sign in to review the team’s documents. Admins also manage operators, reassign and reopen
          documents.
        </p>
      </div>
      {welcome && (
        <p role="status" className="rounded-md border border-blue-200 bg-blue-50 p-4 text-sm text-blue-950">
          Welcome, {me.name}: you are the team’s first admin. Add the operators who will review documents
          below, then share their names and passwords with them.
        </p>
      )}
      <section aria-labelledby="operators-list" className="flex flex-col gap-3">
        <h2 id="operators-list" ref={listHeading} tabIndex={-1} className="text-lg font-semibold">
          The team
        </h2>
        <OperatorTable me={me} onRemoved={() => listHeading.current?.focus()} />
      </section>
      <section aria-labelledby="operators-add" className="flex flex-col gap-3">
        <h2 id="operators-add" className="text-lg font-semibold">
          Add an operator
        </h2>
        <AddOperatorForm />
      </section>
    </main>
  );
}
