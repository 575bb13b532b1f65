/**
 * The unchecked-values gate in the decision bar: a confirmation (button or Ctrl+Enter) of a document
 * with values at Medium, Low or no confidence nobody checked asks once; "Confirm anyway" confirms
 * with the count (the history keeps it), "Review them" selects the first instead; strict, only
 * "Review them" is offered; a document without any is confirmed at once.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { uncheckedGateQueryOptions } from '../../../api/review/unchecked-gate-endpoints';
import {
  NO_EDITS,
  titleFromPath,
  type Edits,
  type TitleOf,
} from '@extraction-review/review-domain/fields/review-tree';
import { generatedInvoice } from '@extraction-review/test-kit/invoices/generated-invoice';
import type { FieldMap } from '@extraction-review/contract/v2/schemas';
import { FieldTitlesContext } from '../field-titles';
import { DecisionBar } from '../queued-document/decision-bar';
import type { DecisionRequest } from '../queued-document/use-decisions';
import { useUncheckedGate } from './use-unchecked-gate';

const fields = (
  generatedInvoice({
    confidence: 'High',
    confidenceOf: { total_amount: 'Low', date: null, 'supplier_address.city': 'Medium' },
  }).inference as {
    result: { fields: FieldMap };
  }
).result.fields;

function Bar({ edits, onDecide }: { edits: Edits; onDecide: (r: DecisionRequest) => void }) {
  const gate = useUncheckedGate({ apiVersion: 'v2', model: 'm', fields, initial: edits });
  return <DecisionBar onDecide={onDecide} busy={false} error={null} gate={gate} />;
}

function renderBar(strict: boolean, edits: Edits = NO_EDITS, titleOf: TitleOf = titleFromPath) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(uncheckedGateQueryOptions('v2', 'm').queryKey, {
    apiVersion: 'v2',
    model: 'm',
    strict,
    updatedAt: null,
    updatedBy: null,
  });
  const location = memoryLocation({ path: '/review/d1', record: true });
  const onDecide = vi.fn<(r: DecisionRequest) => void>();
  render(
    <QueryClientProvider client={client}>
      <Router hook={location.hook} searchHook={location.searchHook}>
        <FieldTitlesContext value={titleOf}>
          <Bar edits={edits} onDecide={onDecide} />
        </FieldTitlesContext>
      </Router>
    </QueryClientProvider>,
  );
  return { onDecide, location };
}

beforeEach(() => {
  // jsdom has no modal dialogs: open and close as the browser's do, without the inert page behind.
  HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
    this.removeAttribute('open');
    this.dispatchEvent(new Event('close'));
  };
});

describe('the unchecked-values gate', () => {
  it('asks once before confirming; Confirm anyway confirms with the count', async () => {
    const user = userEvent.setup();
    const { onDecide } = renderBar(false);
    await user.click(screen.getByRole('button', { name: /Confirm and next/ }));
    const dialog = screen.getByRole('dialog', { name: '3 values not checked' });
    expect(within(dialog).getByText('Date')).toBeInTheDocument();
    expect(within(dialog).getByText('Total amount')).toBeInTheDocument();
    // A nested value says what it belongs to.
    expect(within(dialog).getByText('Supplier address › City')).toBeInTheDocument();
    // The safe answer has the focus: an Enter pressed on through does not confirm.
    expect(within(dialog).getByRole('button', { name: 'Review them' })).toHaveFocus();
    expect(onDecide).not.toHaveBeenCalled();
    await user.click(within(dialog).getByRole('button', { name: 'Confirm anyway' }));
    expect(onDecide.mock.calls).toEqual([[{ kind: 'confirm', next: true, uncheckedConfirmed: 3 }]]);
  });

  it("names the values by the review's titles (the data schema's), the API path on hover", async () => {
    const user = userEvent.setup();
    const titles: Record<string, string> = { 'supplier_address.city': 'Supplier Address › Town' };
    renderBar(false, NO_EDITS, (path) => titles[path] ?? titleFromPath(path));
    await user.click(screen.getByRole('button', { name: /Confirm and next/ }));
    const dialog = screen.getByRole('dialog', { name: '3 values not checked' });
    expect(within(dialog).getByText('Supplier Address › Town')).toHaveAttribute(
      'title',
      'supplier_address.city',
    );
    // Without a schema title, the path made human as the value rows do.
    expect(within(dialog).getByText('Total amount')).toHaveAttribute('title', 'total_amount');
  });

  it('asks on Ctrl+Enter too; Review them selects the first unchecked value instead', async () => {
    const user = userEvent.setup();
    const { onDecide, location } = renderBar(false);
    await user.keyboard('{Control>}{Enter}{/Control}');
    const dialog = screen.getByRole('dialog', { name: '3 values not checked' });
    await user.click(within(dialog).getByRole('button', { name: 'Review them' }));
    expect(onDecide).not.toHaveBeenCalled();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(location.history?.at(-1)).toBe('/review/d1?field=date');
  });

  it('strict: does not offer to confirm anyway', async () => {
    const user = userEvent.setup();
    const { onDecide } = renderBar(true);
    await user.click(screen.getByRole('button', { name: /^Confirm$/ }));
    const dialog = screen.getByRole('dialog', { name: '3 values not checked' });
    expect(within(dialog).queryByRole('button', { name: 'Confirm anyway' })).toBeNull();
    expect(dialog).toHaveTextContent('This model needs every such value checked');
    expect(onDecide).not.toHaveBeenCalled();
  });

  it('confirms at once when every such value was confirmed or corrected', async () => {
    const user = userEvent.setup();
    const { onDecide } = renderBar(true, {
      ...NO_EDITS,
      reviewed: ['date', 'supplier_address.city'],
      values: { total_amount: 120 },
    });
    await user.click(screen.getByRole('button', { name: /^Confirm$/ }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(onDecide).toHaveBeenCalledWith({ kind: 'confirm', next: false });
  });
});
