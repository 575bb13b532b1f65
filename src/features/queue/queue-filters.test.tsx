import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { modelKeys, reviewKeys } from '../../api/keys';
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
});
