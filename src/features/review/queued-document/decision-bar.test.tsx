/**
 * The decision bar when the document's page could not be loaded (issue 19: a copy without the kept
 * file): confirming, by button or Ctrl+Enter, is off and the reason is said; the other decisions stay.
 * Reject, Postpone and an override offer the model's preset reasons (issue 21): one chosen fills the
 * reason (still editable), "Other…" is the operator's own words, required where a reason is.
 */
import { fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { RuleFailure } from '@extraction-review/contract/review/model-settings';
import { DecisionBar } from './decision-bar';

const REASON = 'Confirming needs the page: the document could not be loaded.';

beforeAll(() => {
  HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
    this.removeAttribute('open');
    this.dispatchEvent(new Event('close'));
  };
});

const REASONS = {
  reject: ['Not an invoice / wrong document type', 'Unreadable', 'Duplicate'],
  postpone: ['Waiting for the supplier'],
  override: ['Checked against the paper original'],
};
const FAILURE: RuleFailure = { ruleId: 'sum', kind: 'sum', message: 'Lines do not add up', fields: [] };

// Dialogs and role queries take seconds in jsdom on a loaded machine: a guard against hangs only.
describe('DecisionBar', { timeout: 30_000 }, () => {
  it('confirms with the button and with Ctrl+Enter', async () => {
    const onDecide = vi.fn();
    render(<DecisionBar onDecide={onDecide} busy={false} error={null} />);
    await userEvent.click(screen.getByRole('button', { name: /Confirm and next/ }));
    await userEvent.keyboard('{Control>}{Enter}{/Control}');
    expect(onDecide.mock.calls).toEqual([
      [{ kind: 'confirm', next: true }],
      [{ kind: 'confirm', next: true }],
    ]);
  });

  it('does not confirm while the page could not be loaded, and says why; release still works', async () => {
    const onDecide = vi.fn();
    render(<DecisionBar onDecide={onDecide} busy={false} error={null} confirmBlocked={REASON} />);
    expect(screen.getByRole('button', { name: /Confirm and next/ })).toBeDisabled();
    expect(screen.getByRole('button', { name: /^Confirm$/ })).toBeDisabled();
    expect(screen.getByRole('status')).toHaveTextContent(REASON);
    await userEvent.keyboard('{Control>}{Enter}{/Control}');
    expect(onDecide).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Release' }));
    expect(onDecide.mock.calls).toEqual([[{ kind: 'release' }]]);
  });

  it('postpones until a day, sent as that day’s local midnight (issue 21)', async () => {
    HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
      this.setAttribute('open', '');
    };
    HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
      this.removeAttribute('open');
      this.dispatchEvent(new Event('close'));
    };
    const onDecide = vi.fn();
    render(<DecisionBar onDecide={onDecide} busy={false} error={null} />);
    await userEvent.click(screen.getByRole('button', { name: 'Postpone…' }));
    await userEvent.type(screen.getByLabelText(/Why is it postponed/), 'Waiting for the supplier');
    fireEvent.change(screen.getByLabelText(/Back in the queue on/), { target: { value: '2099-03-04' } });
    await userEvent.click(screen.getByRole('button', { name: 'Postpone' }));
    expect(onDecide.mock.calls).toEqual([
      [
        {
          kind: 'postpone',
          reason: 'Waiting for the supplier',
          until: new Date(2099, 2, 4).toISOString(),
        },
      ],
    ]);
  });

  it('rejects with a preset reason chosen from the keyboard; the text it fills stays editable', async () => {
    const onDecide = vi.fn();
    render(<DecisionBar onDecide={onDecide} busy={false} error={null} reasons={REASONS} />);
    await userEvent.click(screen.getByRole('button', { name: 'Reject…' }));
    const dialog = screen.getByRole('dialog', { name: 'Reject this document' });
    const choices = within(dialog).getByRole('group', { name: 'Choose a reason' });
    expect(
      within(choices)
        .getAllByRole('radio')
        .map((r) => r.getAttribute('value')),
    ).toEqual([...REASONS.reject, '']);
    expect(within(choices).getByRole('radio', { name: REASONS.reject[0] })).toHaveFocus();
    // Arrows choose (as browsers move a radio group's choice): the second reason fills the text.
    await userEvent.keyboard('{ArrowDown}');
    const unreadable = within(choices).getByRole('radio', { name: 'Unreadable' });
    expect(unreadable).toBeChecked();
    const text = within(dialog).getByLabelText('Why is it rejected? (required)');
    expect(text).toHaveValue('Unreadable');
    // Changed, it is the operator's own reason ("Other…").
    await userEvent.type(text, ' (page 2)');
    expect(unreadable).not.toBeChecked();
    expect(within(choices).getByRole('radio', { name: /^Other…/ })).toBeChecked();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(onDecide.mock.calls).toEqual([[{ kind: 'reject', reason: 'Unreadable (page 2)' }]]);
  });

  it('still requires a reason to reject after “Other…”, and takes the operator’s own words', async () => {
    const onDecide = vi.fn();
    render(<DecisionBar onDecide={onDecide} busy={false} error={null} reasons={REASONS} />);
    await userEvent.click(screen.getByRole('button', { name: 'Reject…' }));
    const dialog = screen.getByRole('dialog', { name: 'Reject this document' });
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Duplicate' }));
    await userEvent.click(within(dialog).getByRole('radio', { name: /^Other…/ }));
    const text = within(dialog).getByLabelText('Why is it rejected? (required)');
    expect(text).toHaveValue('');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('choose a reason or write one');
    expect(text).toHaveFocus();
    expect(onDecide).not.toHaveBeenCalled();
    await userEvent.type(text, 'Sent to us by mistake');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(onDecide.mock.calls).toEqual([[{ kind: 'reject', reason: 'Sent to us by mistake' }]]);
  });

  it('postpones with a preset reason, or none (the reason is optional there)', async () => {
    const onDecide = vi.fn();
    render(<DecisionBar onDecide={onDecide} busy={false} error={null} reasons={REASONS} />);
    await userEvent.click(screen.getByRole('button', { name: 'Postpone…' }));
    let dialog = screen.getByRole('dialog', { name: 'Postpone this document' });
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Waiting for the supplier' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Postpone' }));
    await userEvent.click(screen.getByRole('button', { name: 'Postpone…' }));
    dialog = screen.getByRole('dialog', { name: 'Postpone this document' });
    // Opened again: nothing chosen, nothing written.
    expect(within(dialog).getByRole('radio', { name: 'Waiting for the supplier' })).not.toBeChecked();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Postpone' }));
    expect(onDecide.mock.calls).toEqual([
      [{ kind: 'postpone', reason: 'Waiting for the supplier', until: undefined }],
      [{ kind: 'postpone', reason: undefined, until: undefined }],
    ]);
  });

  it('offers the override reasons when confirming although a rule fails', async () => {
    const onDecide = vi.fn();
    render(
      <DecisionBar onDecide={onDecide} busy={false} error={null} reasons={REASONS} failures={[FAILURE]} />,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Confirm…' }));
    const dialog = screen.getByRole('dialog', { name: 'Confirm although a rule fails' });
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Checked against the paper original' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm anyway' }));
    expect(onDecide.mock.calls).toEqual([
      [
        {
          kind: 'confirm',
          next: false,
          overrideReason: 'Checked against the paper original',
          uncheckedConfirmed: undefined,
        },
      ],
    ]);
  });

  it('asks for the text alone when the model offers no reasons', async () => {
    render(<DecisionBar onDecide={vi.fn()} busy={false} error={null} />);
    await userEvent.click(screen.getByRole('button', { name: 'Reject…' }));
    const dialog = screen.getByRole('dialog', { name: 'Reject this document' });
    expect(within(dialog).queryByRole('radio')).toBeNull();
    expect(within(dialog).getByLabelText('Why is it rejected? (required)')).toHaveFocus();
  });
});
