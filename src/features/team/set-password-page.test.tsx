import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { checkPasswordLink, setPasswordWithLink } from './access-endpoints';
import { SetPasswordPage } from './set-password-page';
import { problem, renderTeam } from '../../app/session/testing';

vi.mock('./access-endpoints');

const spent = () =>
  problem(404, '404-020', 'Password link not valid', 'This password link was used already or has expired.');

const NEW = 'a whole new password here';

describe('SetPasswordPage', { timeout: 30_000 }, () => {
  beforeEach(() => {
    vi.resetAllMocks();
    vi.mocked(checkPasswordLink).mockResolvedValue({ valid: true, name: 'Bob' });
  });

  it('checks the link, takes it out of the address bar, and sets the password', async () => {
    vi.mocked(setPasswordWithLink).mockResolvedValue({ passwordSet: true });
    const { user } = renderTeam(<SetPasswordPage />, { session: null, path: '/set-password?token=tok-1' });
    expect(window.location.search).toBe('');
    expect(await screen.findByText('Bob')).toBeInTheDocument();
    expect(checkPasswordLink).toHaveBeenCalledWith('tok-1', expect.anything());

    // Checked here first: two different passwords are not sent.
    await user.type(screen.getByLabelText('New password'), NEW);
    await user.type(screen.getByLabelText('New password again'), `${NEW}!`);
    await user.click(screen.getByRole('button', { name: 'Set the password' }));
    expect(screen.getByLabelText('New password again')).toHaveAccessibleDescription(/differ/);
    expect(setPasswordWithLink).not.toHaveBeenCalled();

    await user.clear(screen.getByLabelText('New password again'));
    await user.type(screen.getByLabelText('New password again'), NEW);
    await user.click(screen.getByRole('button', { name: 'Set the password' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Your password is set');
    expect(setPasswordWithLink).toHaveBeenCalledWith('tok-1', NEW);
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/sign-in');
  });

  it('says when the link was used, expired or replaced (404-020)', async () => {
    vi.mocked(checkPasswordLink).mockRejectedValue(spent());
    renderTeam(<SetPasswordPage />, { session: null, path: '/set-password?token=old' });
    expect(await screen.findByRole('alert')).toHaveTextContent('This password link cannot be used any more');
  });

  it('says so when used meanwhile, and when the address has no token', async () => {
    vi.mocked(setPasswordWithLink).mockRejectedValue(spent());
    const { user, unmount } = renderTeam(<SetPasswordPage />, {
      session: null,
      path: '/set-password?token=t',
    });
    await user.type(await screen.findByLabelText('New password'), NEW);
    await user.type(screen.getByLabelText('New password again'), NEW);
    await user.click(screen.getByRole('button', { name: 'Set the password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('cannot be used any more');
    unmount();

    renderTeam(<SetPasswordPage />, { session: null, path: '/set-password' });
    expect(screen.getByRole('alert')).toHaveTextContent('Open the password link itself');
    expect(checkPasswordLink).toHaveBeenCalledOnce();
  });
});
