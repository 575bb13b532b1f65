import type { ReactNode } from 'react';
import { ProblemAlert } from '../../components/problem-alert';
import { Spinner } from '../../components/ui/spinner';
import { SignInNeeded } from './require-session';
import { useSession } from './use-session';

interface Props {
  /** The page's heading, shown to an operator who is not an admin. */
  title: string;
  /** What the page shows ("the operators"); signed out, the sign-in form opens instead. */
  what?: string;
  /** What an operator is told instead of the page. */
  notAdmin: ReactNode;
  /** The page's width class (`max-w-4xl` …). */
  width: string;
  children: ReactNode;
}

/**
 * An admins' page (operators, exports, where time goes): the session checked first, the sign-in form
 * without one, and an operator told who may use it; the page itself for an admin only.
 */
export function AdminOnlyPage({ title, notAdmin, width, children }: Props) {
  const session = useSession();
  const frame = (content: ReactNode) => <main className={`mx-auto w-full ${width} p-6`}>{content}</main>;
  if (session.isPending) return frame(<Spinner label="Checking who is signed in…" />);
  if (session.isError)
    return frame(<ProblemAlert error={session.error} onRetry={() => void session.refetch()} />);
  if (session.data === null) return <SignInNeeded />;
  if (session.data.operator.role !== 'admin')
    return frame(
      <>
        <h1 className="text-2xl font-semibold">{title}</h1>
        <p className="mt-2 text-sm text-slate-700">{notAdmin}</p>
      </>,
    );
  return children;
}
