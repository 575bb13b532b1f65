/** Shared by the team feature's tests: a fresh client, the session seeded, the address set. */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { ProblemDetailsError } from '../../api/errors';
import { reviewKeys } from '../../api/keys';
import type { OperatorView, SessionResponse } from '@extraction-review/contract/review/schemas';

export const ada: OperatorView = {
  id: 'op-ada',
  name: 'Ada',
  role: 'admin',
  hasPassword: true,
  createdAt: '2026-01-05T09:00:00.000Z',
};

export const bob: OperatorView = {
  id: 'op-bob',
  name: 'Bob',
  role: 'operator',
  hasPassword: false,
  createdAt: '2026-01-06T09:00:00.000Z',
};

export const sessionOf = (operator: OperatorView): SessionResponse => ({
  operator,
  csrfToken: `csrf-${operator.id}`,
});

export function problem(
  status: number,
  code: string,
  title: string,
  detail: string,
  errors: { pointer: string | null; detail: string }[] = [],
  retryAfterSeconds?: number,
): ProblemDetailsError {
  return new ProblemDetailsError(
    { status, code, title, detail, errors },
    { endpoint: 'POST /api/test', retryAfterSeconds },
  );
}

interface Options {
  /** Seeded as the session query's data (null: signed out); left unset, the query runs. */
  session?: SessionResponse | null;
  /** The address the page opens at (wouter reads the browser's location). */
  path?: string;
}

export function renderTeam(ui: ReactNode, { session, path = '/' }: Options = {}) {
  window.history.replaceState(null, '', path);
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  if (session !== undefined) client.setQueryData(reviewKeys.session(), session);
  const user = userEvent.setup();
  const view = render(<QueryClientProvider client={client}>{ui}</QueryClientProvider>);
  return { ...view, client, user };
}
