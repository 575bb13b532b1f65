import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createOperator, getSession, listOperators, removeOperator } from '../../api/review/endpoints';
import type { OperatorView } from '@extraction-review/contract/review/schemas';
import { OperatorsPage } from './operators-page';
import { createPasswordLink, updateOperatorAccess } from './access-endpoints';
import { ada, bob, problem, renderTeam, sessionOf } from '../../app/session/testing';

vi.mock('../../api/review/endpoints');
vi.mock('./access-endpoints');

const cyd: OperatorView = { ...bob, id: 'op-cyd', name: 'Cyd', hasPassword: true };

function renderAsAdmin() {
  return renderTeam(<OperatorsPage />, { session: sessionOf(ada), path: '/operators' });
}

function row(name: string): HTMLElement {
  const cell = screen.getByRole('rowheader', { name: new RegExp(`^${name}`) });
  const tr = cell.closest('tr');
  if (tr === null) throw new Error(`no row for ${name}`);
  return tr;
}

// Role queries over a table of selects and buttons take seconds in jsdom on a loaded machine: a guard
// against hangs, not a speed check.
describe('OperatorsPage', { timeout: 30_000 }, () => {
  beforeEach(() => {
    vi.resetAllMocks();
    vi.mocked(listOperators).mockResolvedValue({ operators: [ada, bob] });
  });

  it('sends a signed-out visitor straight to the sign-in form, coming back here', async () => {
    renderTeam(<OperatorsPage />, { session: null, path: '/operators' });
    await waitFor(() =>
      expect(window.location.pathname + window.location.search).toBe('/sign-in?next=%2Foperators'),
    );
    expect(listOperators).not.toHaveBeenCalled();
  });

  it('tells an operator that only admins manage operators, without asking for the list', () => {
    renderTeam(<OperatorsPage />, { session: sessionOf(bob), path: '/operators' });
    expect(screen.getByText(/Only admins manage operators/)).toBeInTheDocument();
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.queryByRole('form')).toBeNull();
    expect(listOperators).not.toHaveBeenCalled();
  });

  it('lists the team for an admin: role, status, password or single sign-on, no "Remove" on their own row', async () => {
    renderAsAdmin();
    await screen.findByRole('table');
    expect(within(row('Ada')).getByText('(you)')).toBeInTheDocument();
    expect(within(row('Ada')).getByRole('combobox', { name: 'Role of Ada' })).toHaveValue('admin');
    expect(within(row('Ada')).getByText('yes')).toBeInTheDocument();
    expect(within(row('Ada')).getByText('Active')).toBeInTheDocument();
    expect(within(row('Ada')).queryByRole('button', { name: /Remove|Deactivate/ })).toBeNull();
    expect(within(row('Bob')).getByRole('combobox', { name: 'Role of Bob' })).toHaveValue('operator');
    expect(row('Bob')).toHaveTextContent('no (single sign-on only)');
    expect(within(row('Bob')).getByRole('button', { name: 'Remove Bob' })).toBeInTheDocument();
    expect(within(row('Bob')).getByRole('button', { name: 'Deactivate Bob' })).toBeInTheDocument();
    expect(row('Bob').querySelector('time')).toHaveAttribute('dateTime', bob.createdAt);
  });

  it('changes a role, and shows the refusal for the last admin where it happened', async () => {
    vi.mocked(updateOperatorAccess).mockResolvedValueOnce({ operator: { ...bob, role: 'admin' } });
    const { user } = renderAsAdmin();
    await screen.findByRole('table');
    vi.mocked(listOperators).mockResolvedValue({ operators: [ada, { ...bob, role: 'admin' }] });
    await user.selectOptions(within(row('Bob')).getByRole('combobox', { name: 'Role of Bob' }), 'admin');
    expect(updateOperatorAccess).toHaveBeenCalledWith('op-bob', { role: 'admin', active: true });
    await vi.waitFor(() =>
      expect(within(row('Bob')).getByRole('combobox', { name: 'Role of Bob' })).toHaveValue('admin'),
    );

    vi.mocked(updateOperatorAccess).mockRejectedValueOnce(
      problem(
        409,
        '409-008',
        'Last admin',
        'This is the team’s last active admin: make another operator an admin first.',
      ),
    );
    // Her own role: the session is read again (still an admin, as the change was refused).
    vi.mocked(getSession).mockResolvedValue(sessionOf(ada));
    await user.selectOptions(within(row('Ada')).getByRole('combobox', { name: 'Role of Ada' }), 'operator');
    expect(await within(row('Ada')).findByRole('alert')).toHaveTextContent('Last admin');
  });

  it('deactivates only once confirmed, then offers to reactivate', async () => {
    const since = '2026-12-07T09:30:00.000Z';
    vi.mocked(updateOperatorAccess).mockResolvedValue({ operator: { ...bob, deactivatedAt: since } });
    const { user } = renderAsAdmin();
    await screen.findByRole('table');
    await user.click(within(row('Bob')).getByRole('button', { name: 'Deactivate Bob' }));
    const question = screen.getByRole('group', { name: 'Deactivate Bob?' });
    expect(question).toHaveTextContent('They are signed out, their documents go back to the queue');
    expect(within(question).getByRole('button', { name: 'Keep' })).toHaveFocus();
    vi.mocked(listOperators).mockResolvedValue({ operators: [ada, { ...bob, deactivatedAt: since }] });
    await user.click(within(question).getByRole('button', { name: 'Yes, deactivate Bob' }));
    expect(updateOperatorAccess).toHaveBeenCalledWith('op-bob', { role: 'operator', active: false });
    expect(await within(row('Bob')).findByRole('button', { name: 'Reactivate Bob' })).toBeInTheDocument();
    expect(within(row('Bob')).getByText(/Deactivated/)).toBeInTheDocument();
    // No password link for a deactivated operator.
    expect(within(row('Bob')).queryByRole('button', { name: /password link/ })).toBeNull();
  });

  it('makes a one-time password link, shown once with its expiry', async () => {
    vi.mocked(createPasswordLink).mockResolvedValue({
      path: '/set-password?token=abc',
      expiresAt: '2026-12-08T09:30:00.000Z',
    });
    const { user } = renderAsAdmin();
    await screen.findByRole('table');
    await user.click(within(row('Bob')).getByRole('button', { name: 'Make a password link for Bob' }));
    const link = await within(row('Bob')).findByRole('textbox', { name: /Give Bob this link/ });
    expect(link).toHaveValue(`${window.location.origin}/set-password?token=abc`);
    expect(createPasswordLink).toHaveBeenCalledWith('op-bob');
  });

  it('adds an operator, then reads the list again', async () => {
    vi.mocked(createOperator).mockResolvedValue({ operator: { ...cyd, role: 'admin' } });
    const { user } = renderAsAdmin();
    await screen.findByRole('table');
    const form = screen.getByRole('form', { name: 'Add an operator' });
    await user.type(within(form).getByRole('textbox', { name: 'Name' }), 'Cyd');
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Role' }), 'admin');
    await user.type(within(form).getByLabelText('Password'), 'correct horse battery');
    await user.type(within(form).getByLabelText('Password again'), 'correct horse battery');
    vi.mocked(listOperators).mockResolvedValue({ operators: [ada, bob, cyd] });
    await user.click(within(form).getByRole('button', { name: 'Add' }));

    expect(await screen.findByRole('rowheader', { name: 'Cyd' })).toBeInTheDocument();
    expect(createOperator).toHaveBeenCalledWith({
      name: 'Cyd',
      role: 'admin',
      password: 'correct horse battery',
    });
    expect(within(form).getByRole('status')).toHaveTextContent('Cyd was added as an admin.');
    expect(within(form).getByRole('textbox', { name: 'Name' })).toHaveValue('');
    expect(within(form).getByRole('textbox', { name: 'Name' })).toHaveFocus();
  });

  it('shows a taken name (409-003) on the name field', async () => {
    const detail = 'An operator named "bob" already exists.';
    vi.mocked(createOperator).mockRejectedValue(
      problem(409, '409-003', 'Name already taken', detail, [{ pointer: '#/name', detail }]),
    );
    const { user } = renderAsAdmin();
    const form = screen.getByRole('form', { name: 'Add an operator' });
    const name = within(form).getByRole('textbox', { name: 'Name' });
    await user.type(name, 'bob');
    await user.type(within(form).getByLabelText('Password'), 'correct horse battery');
    await user.type(within(form).getByLabelText('Password again'), 'correct horse battery');
    await user.click(within(form).getByRole('button', { name: 'Add' }));

    await vi.waitFor(() => expect(name).toHaveAttribute('aria-invalid', 'true'));
    expect(name).toHaveAccessibleDescription(new RegExp(`^${detail}`));
    expect(name).toHaveFocus();
    // Told once, on the field.
    expect(within(form).queryByRole('alert')).toBeNull();
  });

  it('allows no password only with "single sign-on only" ticked', async () => {
    vi.mocked(createOperator).mockResolvedValue({ operator: { ...cyd, hasPassword: false } });
    const { user } = renderAsAdmin();
    const form = screen.getByRole('form', { name: 'Add an operator' });
    await user.type(within(form).getByRole('textbox', { name: 'Name' }), 'Cyd');
    await user.click(within(form).getByRole('button', { name: 'Add' }));
    expect(within(form).getByLabelText('Password')).toHaveAccessibleDescription(/single sign-on only/);
    expect(within(form).getByLabelText('Password')).toHaveFocus();
    expect(createOperator).not.toHaveBeenCalled();

    await user.click(within(form).getByRole('checkbox', { name: 'Signs in through single sign-on only' }));
    expect(within(form).getByLabelText('Password')).toBeDisabled();
    await user.click(within(form).getByRole('button', { name: 'Add' }));
    await vi.waitFor(() =>
      expect(createOperator).toHaveBeenCalledWith({ name: 'Cyd', role: 'operator', password: '' }),
    );
  });

  it('removes an operator only once confirmed, and "Keep" changes nothing', async () => {
    vi.mocked(removeOperator).mockResolvedValue(undefined);
    const { user } = renderAsAdmin();
    await screen.findByRole('table');
    await user.click(screen.getByRole('button', { name: 'Remove Bob' }));
    const question = screen.getByRole('group', { name: 'Remove Bob?' });
    expect(within(question).getByRole('button', { name: 'Keep' })).toHaveFocus();
    await user.click(within(question).getByRole('button', { name: 'Keep' }));
    expect(screen.getByRole('button', { name: 'Remove Bob' })).toHaveFocus();
    expect(removeOperator).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Remove Bob' }));
    vi.mocked(listOperators).mockResolvedValue({ operators: [ada] });
    await user.click(screen.getByRole('button', { name: 'Yes, remove Bob' }));
    await vi.waitFor(() => expect(screen.queryByRole('rowheader', { name: 'Bob' })).toBeNull());
    expect(removeOperator).toHaveBeenCalledWith('op-bob');
    expect(screen.getByRole('heading', { name: 'The team' })).toHaveFocus();
  });

  it('reads the session again when the list is refused for want of one, and opens the sign-in form', async () => {
    const ended = problem(401, '401-011', 'Not signed in', 'Nobody is signed in in this browser.');
    vi.mocked(listOperators).mockRejectedValue(ended);
    vi.mocked(getSession).mockRejectedValue(ended);
    renderAsAdmin();
    await waitFor(() =>
      expect(window.location.pathname + window.location.search).toBe('/sign-in?next=%2Foperators'),
    );
    expect(getSession).toHaveBeenCalled();
  });
});
