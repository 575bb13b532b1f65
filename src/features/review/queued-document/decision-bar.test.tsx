/**
 * The decision bar when the document's page could not be loaded (issue 19: a copy without the kept
 * file): confirming, by button or Ctrl+Enter, is off and the reason is said; the other decisions stay.
 */
import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { DecisionBar } from './decision-bar';

const REASON = 'Confirming needs the page: the document could not be loaded.';

describe('DecisionBar', () => {
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
});
