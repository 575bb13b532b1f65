import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { modelKeys, reviewKeys } from '../../api/keys';
import type { QueueFilters } from '../../lib/queue-filters';
import { QueueFiltersForm } from './queue-filters';

const INVOICES = 'b4e6af9b-dfe5-44c8-9ae8-22225d8d2d5a';
const settings = (apiVersion: 'v1' | 'v2', model: string) => ({
  apiVersion,
  model,
  documents: 3,
  autoConfirm: null,
  rules: [],
  requiredFields: [],
  updatedAt: null,
  updatedBy: null,
});

describe('QueueFiltersForm', () => {
  it('filters by a model chosen by its name, not typed as an id (issue 21)', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
    client.setQueryData(reviewKeys.models(), {
      models: [settings('v2', INVOICES), settings('v1', 'mindee/expense_receipts/v5')],
    });
    client.setQueryData(modelKeys.search({ per_page: 100 }), {
      models: [{ id: INVOICES, name: 'Invoice (reference)' }],
    });
    const onChange = vi.fn();
    render(
      <QueryClientProvider client={client}>
        <QueueFiltersForm filters={{}} onChange={onChange} operator={undefined} />
      </QueryClientProvider>,
    );
    const select = screen.getByLabelText('Model');
    expect([...select.querySelectorAll('option')].map((o) => o.textContent)).toEqual([
      'All models',
      'Expense receipts v5 (v1)',
      'Invoice (reference)',
    ]);
    await userEvent.selectOptions(select, 'Invoice (reference)');
    expect(onChange).toHaveBeenCalledWith({ model: INVOICES });
  });

  it('shows the common filters in one row, the rest behind "More filters"', async () => {
    const { rerender } = renderForm({});
    expect(screen.getByRole('searchbox', { name: 'Search' })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Model' })).toBeInTheDocument();
    const more = screen.getByRole('button', { name: 'More filters' });
    expect(more).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByLabelText('Amount from')).toBeNull();
    await userEvent.click(more);
    expect(more).toHaveAttribute('aria-expanded', 'true');
    const group = screen.getByRole('group', { name: 'More filters' });
    expect(more).toHaveAttribute('aria-controls', group.id);
    for (const label of [
      'Held or decided by',
      'Received from',
      'Received to (included)',
      'Amount from',
      'Amount to',
    ])
      expect(within(group).getByLabelText(label)).toBeInTheDocument();
    // A filter set from outside (a saved queue, the back button) does not close it.
    rerender({ minAmount: '10' });
    expect(more).toHaveAttribute('aria-expanded', 'true');
  });

  it('opens by itself when one of its filters is set, and counts them', async () => {
    const { rerender } = renderForm({ operator: 'me', minAmount: '10000', model: INVOICES });
    const more = screen.getByRole('button', { name: 'More filters 2 set' });
    expect(more).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByLabelText('Amount from')).toHaveValue('10000');
    // Closed by hand, it stays closed; the count still says what is hidden.
    await userEvent.click(more);
    expect(screen.queryByLabelText('Amount from')).toBeNull();
    rerender({ operator: 'me', minAmount: '10000', q: 'acme' });
    expect(more).toHaveAttribute('aria-expanded', 'false');
    // One more set (from a link): it shows itself again.
    rerender({ operator: 'me', minAmount: '10000', from: '2026-01-01' });
    expect(screen.getByRole('button', { name: 'More filters 3 set' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
  });
});

function renderForm(filters: QueueFilters) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  client.setQueryData(reviewKeys.models(), { models: [] });
  const ui = (f: QueueFilters) => (
    <QueryClientProvider client={client}>
      <QueueFiltersForm filters={f} onChange={vi.fn()} operator={undefined} />
    </QueryClientProvider>
  );
  const view = render(ui(filters));
  return { rerender: (next: QueueFilters) => view.rerender(ui(next)) };
}
