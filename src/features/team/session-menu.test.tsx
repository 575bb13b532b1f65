import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ProblemDetailsError } from '../../api/errors';
import { reviewKeys } from '../../api/keys';
import { csrfHeaders, rememberCsrfToken } from '@extraction-review/contract/review/csrf';
import { getSession, signOut } from '../../api/review/endpoints';
import { AdminOnly } from '../../app/session/admin-only';
import { beforeSignOut } from '../../app/session/before-sign-out';
import { RequireSession } from '../../app/session/require-session';
import { SessionMenu } from './session-menu';
import { ada, bob, problem, renderTeam, sessionOf } from '../../app/session/testing';

vi.mock('../../api/review/endpoints');

describe('SessionMenu', () => {
  beforeEach(() => {
    vi.resetAllMocks();
    rememberCsrfToken(undefined);
  });

  it('offers "Sign in" when signed out, coming back to the page', () => {
    renderTeam(<SessionMenu />, { session: null, path: '/jobs?x=1' });
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute(
      'href',
      '/sign-in?next=%2Fjobs%3Fx%3D1',
    );
    expect(screen.queryByRole('button', { name: 'Sign out' })).toBeNull();
  });

  it('shows nothing while the session is being read', () => {
    vi.mocked(getSession).mockReturnValue(new Promise(() => {}));
    const { container } = renderTeam(<SessionMenu />, { path: '/jobs' });
    expect(container).toBeEmptyDOMElement();
  });

  it('reads the session once: signed out on a 401, and the token forgotten', async () => {
    rememberCsrfToken('stale');
    vi.mocked(getSession).mockRejectedValue(
      problem(401, '401-011', 'Not signed in', 'Nobody is signed in in this browser.'),
    );
    renderTeam(<SessionMenu />, { path: '/jobs' });
    expect(await screen.findByRole('link', { name: 'Sign in' })).toBeInTheDocument();
    expect(csrfHeaders()).toEqual({});
  });

  it('names who is signed in with their role, and signs out: token, session and review data gone', async () => {
    vi.mocked(signOut).mockResolvedValue({ signedOut: true });
    rememberCsrfToken('csrf-op-ada');
    const { user, client } = renderTeam(<SessionMenu />, { session: sessionOf(ada), path: '/operators' });
    client.setQueryData(reviewKeys.operators(), { operators: [ada, bob] });
    expect(screen.getByText('Ada').parentElement).toHaveTextContent('Ada (admin)');

    await user.click(screen.getByRole('button', { name: 'Sign out' }));
    expect(await screen.findByRole('link', { name: 'Sign in' })).toBeInTheDocument();
    expect(signOut).toHaveBeenCalledOnce();
    expect(csrfHeaders()).toEqual({});
    expect(client.getQueryData(reviewKeys.session())).toBeNull();
    expect(client.getQueryCache().findAll({ queryKey: reviewKeys.operators() })).toEqual([]);
  });

  it("sends the open review's pending corrections before signing out, and signs out even if they fail", async () => {
    const order: string[] = [];
    vi.mocked(signOut).mockImplementation(async () => {
      order.push('sign-out');
      return { signedOut: true };
    });
    const unregister = beforeSignOut(async () => {
      await Promise.resolve();
      order.push('corrections sent');
    });
    const refused = beforeSignOut(() => Promise.reject(new Error('taken over meanwhile')));
    const { user } = renderTeam(<SessionMenu />, { session: sessionOf(bob), path: '/review/d1' });
    await user.click(screen.getByRole('button', { name: 'Sign out' }));
    expect(await screen.findByRole('link', { name: 'Sign in' })).toBeInTheDocument();
    expect(order).toEqual(['corrections sent', 'sign-out']);
    unregister();
    refused();
  });

  it('counts a session that had ended already (401) as signed out, and says when sign-out failed', async () => {
    vi.mocked(signOut).mockRejectedValueOnce(
      problem(401, '401-011', 'Not signed in', 'Nobody is signed in.'),
    );
    const first = renderTeam(<SessionMenu />, { session: sessionOf(bob), path: '/' });
    expect(screen.getByText('Bob').parentElement).toHaveTextContent('Bob (operator)');
    await first.user.click(screen.getByRole('button', { name: 'Sign out' }));
    expect(await screen.findByRole('link', { name: 'Sign in' })).toBeInTheDocument();
    first.unmount();

    vi.mocked(signOut).mockRejectedValueOnce(
      new ProblemDetailsError(
        { status: 403, code: '403-004', title: 'Missing or wrong CSRF token', detail: 'Reload.', errors: [] },
        { endpoint: 'DELETE /api/session' },
      ),
    );
    const second = renderTeam(<SessionMenu />, { session: sessionOf(bob), path: '/' });
    await second.user.click(screen.getByRole('button', { name: 'Sign out' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Not signed out: Missing or wrong CSRF token.',
    );
    expect(screen.getByRole('button', { name: 'Sign out' })).toBeInTheDocument();
  });
});

describe('RequireSession', () => {
  beforeEach(() => vi.resetAllMocks());

  it('shows the page to a signed-in operator', () => {
    renderTeam(
      <RequireSession>
        <p>the team queue</p>
      </RequireSession>,
      { session: sessionOf(bob), path: '/queue' },
    );
    expect(screen.getByText('the team queue')).toBeInTheDocument();
  });

  it('shows a spinner while the session is read', () => {
    vi.mocked(getSession).mockReturnValue(new Promise(() => {}));
    renderTeam(
      <RequireSession>
        <p>the team queue</p>
      </RequireSession>,
      { path: '/queue' },
    );
    expect(screen.getByRole('status')).toHaveTextContent('Checking who is signed in');
    expect(screen.queryByText('the team queue')).toBeNull();
  });

  it('sends a signed-out visitor straight to the sign-in form, to come back to this page', async () => {
    renderTeam(
      <RequireSession>
        <p>the team queue</p>
      </RequireSession>,
      { session: null, path: '/queue?state=to_review' },
    );
    expect(screen.queryByText('the team queue')).toBeNull();
    await waitFor(() =>
      expect(window.location.pathname + window.location.search).toBe(
        '/sign-in?next=%2Fqueue%3Fstate%3Dto_review',
      ),
    );
  });
});

describe('AdminOnly', () => {
  it('shows its children to admins only', () => {
    const first = renderTeam(<AdminOnly>admin link</AdminOnly>, { session: sessionOf(ada) });
    expect(screen.getByText('admin link')).toBeInTheDocument();
    first.unmount();
    renderTeam(<AdminOnly>admin link</AdminOnly>, { session: sessionOf(bob) });
    expect(screen.queryByText('admin link')).toBeNull();
  });
});
