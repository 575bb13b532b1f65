import { screen } from '@testing-library/react';
import { Route, Switch } from 'wouter';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { reviewKeys } from '../../api/keys';
import { csrfHeaders, rememberCsrfToken } from '@extraction-review/contract/review/csrf';
import { finishProviderSignIn, getSignInOptions, signIn } from '../../api/review/endpoints';
import { SignInPage } from './sign-in-page';
import { ada, problem, renderTeam, sessionOf } from '../../app/session/testing';

vi.mock('../../api/review/endpoints');

function renderSignIn(path: string, session: ReturnType<typeof sessionOf> | null = null) {
  return renderTeam(
    <Switch>
      <Route path="/sign-in" component={SignInPage} />
      <Route path="/queue">
        <p>the team queue</p>
      </Route>
      <Route path="/operators">
        <p>the operators</p>
      </Route>
    </Switch>,
    { session, path },
  );
}

describe('SignInPage', () => {
  beforeEach(() => {
    vi.resetAllMocks();
    rememberCsrfToken(undefined);
  });

  it('signs in, keeps the CSRF token and the session, and goes on to `next`', async () => {
    vi.mocked(signIn).mockResolvedValue(sessionOf(ada));
    const { user, client } = renderSignIn('/sign-in?next=%2Foperators');
    const name = screen.getByRole('textbox', { name: 'Name' });
    expect(name).toHaveAttribute('autocomplete', 'username');
    expect(screen.getByLabelText('Password')).toHaveAttribute('autocomplete', 'current-password');
    await user.type(name, ' Ada ');
    await user.type(screen.getByLabelText('Password'), 'correct horse battery');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    expect(await screen.findByText('the operators')).toBeInTheDocument();
    expect(signIn).toHaveBeenCalledWith({ name: 'Ada', password: 'correct horse battery' });
    expect(csrfHeaders()).toEqual({ 'X-CSRF-Token': 'csrf-op-ada' });
    expect(client.getQueryData(reviewKeys.session())).toEqual(sessionOf(ada));
    expect(window.location.pathname).toBe('/operators');
  });

  it('goes to the team queue when `next` would leave the app', async () => {
    vi.mocked(signIn).mockResolvedValue(sessionOf(ada));
    const { user } = renderSignIn('/sign-in?next=%2F%2Fevil.example%2F');
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Ada');
    await user.type(screen.getByLabelText('Password'), 'correct horse battery');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('the team queue')).toBeInTheDocument();
    expect(window.location.pathname).toBe('/queue');
  });

  it('says when the name and password do not match, next to the form and on the password', async () => {
    vi.mocked(signIn).mockRejectedValue(
      problem(401, '401-012', 'Wrong name or password', 'This name and password do not match an operator.', [
        { pointer: '#/password', detail: 'Check the name and the password.' },
      ]),
    );
    const { user, client } = renderSignIn('/sign-in');
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Ada');
    await user.type(screen.getByLabelText('Password'), 'not the password');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('This name and password do not match an operator');
    expect(alert).toHaveTextContent('401-012');
    // Not the generic 401 hint about the app server's API key.
    expect(alert).not.toHaveTextContent('API key');
    const password = screen.getByLabelText('Password');
    expect(password).toHaveAttribute('aria-invalid', 'true');
    expect(password).toHaveAccessibleDescription('Check the name and the password.');
    expect(password).toHaveFocus();
    expect(client.getQueryData(reviewKeys.session())).toBeNull();
    expect(window.location.pathname).toBe('/sign-in');
  });

  it('asks for both fields before sending', async () => {
    const { user } = renderSignIn('/sign-in');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    const name = screen.getByRole('textbox', { name: 'Name' });
    expect(name).toHaveAccessibleDescription('Give your name');
    expect(name).toHaveFocus();
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription('Give your password');
    expect(signIn).not.toHaveBeenCalled();
  });

  it('shows a 429 with its detail and when to try again', async () => {
    vi.mocked(signIn).mockRejectedValue(
      problem(
        429,
        '429-003',
        'Too many failed sign-ins',
        '10 failed sign-ins of this name in the last 15 minutes: sign-in is refused for another 15 minutes. An admin can send you a password link.',
        [],
        900,
      ),
    );
    const { user } = renderSignIn('/sign-in');
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Ada');
    await user.type(screen.getByLabelText('Password'), 'whatever it is');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('10 failed sign-ins of this name');
    expect(alert).toHaveTextContent('Try again in 15 minutes');
  });

  it('says who is signed in already, with the way on', () => {
    renderSignIn('/sign-in', sessionOf(ada));
    expect(screen.getByText(/Signed in as/)).toHaveTextContent('Signed in as Ada.');
    expect(screen.getByRole('link', { name: 'Open the team queue' })).toHaveAttribute('href', '/queue');
    expect(screen.getByRole('link', { name: 'Manage operators' })).toHaveAttribute('href', '/operators');
    expect(screen.queryByRole('form', { name: 'Sign in' })).toBeNull();
  });

  it('offers the company’s provider instead of the password form when passwords are off', async () => {
    vi.mocked(getSignInOptions).mockResolvedValue({ passwordSignIn: false, provider: { name: 'Okta' } });
    renderSignIn('/sign-in');
    expect(await screen.findByRole('button', { name: 'Sign in with Okta' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();
  });

  it('hands the provider’s answer to the server once, and shows its refusal with the choices', async () => {
    vi.mocked(getSignInOptions).mockResolvedValue({ passwordSignIn: true, provider: { name: 'Okta' } });
    vi.mocked(finishProviderSignIn).mockRejectedValue(
      problem(401, '401-016', 'No operator for this identity', 'No operator is named "eve" here.'),
    );
    renderSignIn('/sign-in?code=abc&state=xyz');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('No operator for this identity');
    expect(alert).toHaveTextContent('No operator is named "eve" here.');
    expect(alert).toHaveTextContent('Ask an admin to add you');
    expect(finishProviderSignIn).toHaveBeenCalledTimes(1);
    expect(finishProviderSignIn).toHaveBeenCalledWith('?code=abc&state=xyz');
    // The spent code is off the address; both ways to sign in are offered again.
    expect(window.location.search).toBe('');
    expect(await screen.findByRole('button', { name: 'Sign in with Okta' })).toBeInTheDocument();
    expect(screen.getByLabelText('Password')).toBeInTheDocument();
  });
});
