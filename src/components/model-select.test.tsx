import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { modelKeys } from '../api/keys';
import { ModelSelect, type ModelOption } from './model-select';

const INVOICES = 'b4e6af9b-dfe5-44c8-9ae8-22225d8d2d5a';
const MODELS: ModelOption[] = [
  { apiVersion: 'v2', model: INVOICES },
  { apiVersion: 'v1', model: 'mindee/expense_receipts/v5' },
];

function Filter({ initial = '' }: { initial?: string }) {
  const [model, setModel] = useState(initial);
  return (
    <>
      <label htmlFor="m">Model</label>
      <ModelSelect id="m" value={model} onChange={setModel} models={MODELS} />
      <output>{model}</output>
    </>
  );
}

function renderFilter(initial?: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  // The upstream's model search, as the app caches it (model-name.tsx asks for one page of 100).
  client.setQueryData(modelKeys.search({ per_page: 100 }), {
    models: [{ id: INVOICES, name: 'Invoice (reference)' }],
  });
  render(
    <QueryClientProvider client={client}>
      <Filter initial={initial} />
    </QueryClientProvider>,
  );
}

describe('ModelSelect', () => {
  it('offers models by name, and chooses by key', async () => {
    renderFilter();
    const select = screen.getByLabelText('Model');
    expect([...select.querySelectorAll('option')].map((o) => o.textContent)).toEqual([
      'All models',
      'Expense receipts v5 (v1)',
      'Invoice (reference)',
    ]);
    await userEvent.selectOptions(select, 'Invoice (reference)');
    expect(screen.getByRole('status')).toHaveTextContent(INVOICES);
    await userEvent.selectOptions(select, 'All models');
    expect(screen.getByRole('status')).toHaveTextContent(/^$/);
  });

  it('keeps a value no option names, by its key', () => {
    renderFilter('some-other-model');
    expect(screen.getByLabelText('Model')).toHaveValue('some-other-model');
  });
});
