import { screen } from '@testing-library/react';
import { Route, Switch } from 'wouter';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { reviewKeys } from '../../api/keys';
import { csrfHeaders, rememberCsrfToken } from '@extraction-review/contract/review/csrf';
import { checkSetupLink, createFirstAdmin, listOperators } from '../../api/review/endpoints';
import { OperatorsPage } from './operators-page';
import { SetupPage } from './setup-page';
import { ada, problem, renderTeam, sessionOf } from '../../app/session/testing';

vi.mock('../../api/review/endpoints');

const linkUsed = () =>
  problem(404, '404-011', 'Set-up link not valid', 'This set-up link was used already or has expired.');

function renderSetup(path = '/setup#tok-123') {
  return renderTeam(
    <Switch>
      <Route path="/setup" component={SetupPage} />
      <Route path="/operators" component={OperatorsPage} />
    </Switch>,
    { session: null, path },
  );
}

async function fill(user: ReturnType<typeof renderSetup>['user'], password: string, again = password) {
  await user.type(screen.getByRole('textbox', { name: 'Admin name' }), 'Ada');
  await user.type(screen.getByLabelText('Password'), password);
  await user.type(screen.getByLabelText('Password again'), again);
  await user.click(screen.getByRole('button', { name: 'Create the admin and sign in' }));
}

describe('SetupPage', () => {
  beforeEach(() => {
    vi.resetAllMocks();
    rememberCsrfToken(undefined);
    vi.mocked(checkSetupLink).mockResolvedValue({ valid: true });
  });

  it('reads the token from the fragment, checks it, and takes it out of the address bar', async () => {
    renderSetup();
    expect(await screen.findByRole('form', { name: 'Create the first admin' })).toBeInTheDocument();
    expect(checkSetupLink).toHaveBeenCalledWith('tok-123', expect.anything());
    expect(window.location.hash).toBe('');
    expect(window.location.pathname).toBe('/setup');
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription(/At least 12 characters/);
  });

  it('refuses a short password and two that differ, before sending anything', async () => {
    const { user } = renderSetup();
    await screen.findByRole('form', { name: 'Create the first admin' });
    await fill(user, 'too short');
    const password = screen.getByLabelText('Password');
    expect(password).toHaveAttribute('aria-invalid', 'true');
    expect(password).toHaveAccessibleDescription(/9 characters; it needs at least 12/);
    expect(password).toHaveFocus();

    await user.clear(password);
    await user.type(password, 'long enough password');
    await user.clear(screen.getByLabelText('Password again'));
    await user.type(screen.getByLabelText('Password again'), 'long enough passw0rd');
    await user.click(screen.getByRole('button', { name: 'Create the admin and sign in' }));
    const again = screen.getByLabelText('Password again');
    expect(again).toHaveAccessibleDescription(/two passwords differ/);
    expect(again).toHaveFocus();
    expect(password).not.toHaveAttribute('aria-invalid');
    expect(createFirstAdmin).not.toHaveBeenCalled();
  });

  it('creates the admin, signs in and opens the operators with a welcome', async () => {
    vi.mocked(createFirstAdmin).mockResolvedValue(sessionOf(ada));
    vi.mocked(listOperators).mockResolvedValue({ operators: [ada] });
    const { user, client } = renderSetup();
    await screen.findByRole('form', { name: 'Create the first admin' });
    await fill(user, 'correct horse battery');

    expect(await screen.findByRole('heading', { name: 'Operators', level: 1 })).toBeInTheDocument();
    expect(createFirstAdmin).toHaveBeenCalledWith({
      token: 'tok-123',
      name: 'Ada',
      password: 'correct horse battery',
    });
    expect(window.location.pathname).toBe('/operators');
    expect(screen.getByText(/Welcome, Ada/)).toHaveTextContent(/first admin\. Add the operators/);
    expect(csrfHeaders()).toEqual({ 'X-CSRF-Token': 'csrf-op-ada' });
    expect(client.getQueryData(reviewKeys.session())).toEqual(sessionOf(ada));
  });

  it('explains a used or expired link, with a way to sign in', async () => {
    vi.mocked(checkSetupLink).mockRejectedValue(linkUsed());
    renderSetup();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('This set-up link cannot be used any more');
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/sign-in');
    expect(screen.queryByRole('form')).toBeNull();
  });

  it('explains the same when the link is used meanwhile, and a taken name on the name field', async () => {
    vi.mocked(createFirstAdmin).mockRejectedValueOnce(
      problem(409, '409-003', 'Name already taken', 'An operator named "Ada" already exists.'),
    );
    const { user } = renderSetup();
    await screen.findByRole('form', { name: 'Create the first admin' });
    await fill(user, 'correct horse battery');
    const name = await screen.findByRole('textbox', { name: 'Admin name' });
    expect(name).toHaveAccessibleDescription(/An operator named "Ada" already exists\./);
    expect(name).toHaveFocus();

    vi.mocked(createFirstAdmin).mockRejectedValueOnce(linkUsed());
    await user.click(screen.getByRole('button', { name: 'Create the admin and sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This set-up link cannot be used any more');
  });

  it('asks for the link itself when the address has no token', () => {
    renderSetup('/setup');
    expect(screen.getByText('Open the set-up link itself')).toBeInTheDocument();
    expect(checkSetupLink).not.toHaveBeenCalled();
  });
});
