import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createOperator, getSession, listOperators, removeOperator } from '../../api/review/endpoints';
import type { OperatorView } from '@extraction-review/contract/review/schemas';
import { OperatorsPage } from './operators-page';
import { ada, bob, problem, renderTeam, sessionOf } from '../../app/session/testing';

vi.mock('../../api/review/endpoints');

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

describe('OperatorsPage', () => {
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

  it('lists the team for an admin: role, password or single sign-on, no "Remove" on their own row', async () => {
    renderAsAdmin();
    await screen.findByRole('table');
    expect(within(row('Ada')).getByText('(you)')).toBeInTheDocument();
    expect(within(row('Ada')).getByText('admin')).toBeInTheDocument();
    expect(within(row('Ada')).getByText('yes')).toBeInTheDocument();
    expect(within(row('Ada')).queryByRole('button')).toBeNull();
    expect(within(row('Bob')).getByText('operator')).toBeInTheDocument();
    expect(row('Bob')).toHaveTextContent('no (single sign-on only)');
    expect(within(row('Bob')).getByRole('button', { name: 'Remove Bob' })).toBeInTheDocument();
    expect(row('Bob').querySelector('time')).toHaveAttribute('dateTime', bob.createdAt);
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
