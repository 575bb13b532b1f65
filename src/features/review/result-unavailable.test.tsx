import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ProblemDetailsError } from '../../api/errors';
import { draftStoreKeys, type Draft } from '../../lib/draft-store';
import { ResultUnavailable } from './result-unavailable';
import { extractionFixture } from '@extraction-review/test-kit/recorded-results';

const gone = new ProblemDetailsError(
  {
    status: 404,
    title: 'Not found',
    detail: 'The inference was deleted once fetched.',
    code: '404-002',
    errors: [],
  },
  { endpoint: 'GET /api/v2/products/extraction/results/1' },
);

function renderWith(draft: Draft | null) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  client.setQueryData(draftStoreKeys.detail('job-1'), draft);
  const renderCopy = vi.fn(() => <p>the review from the copy</p>);
  const onRetry = vi.fn();
  render(
    <QueryClientProvider client={client}>
      <ResultUnavailable jobId="job-1" what="result" error={gone} onRetry={onRetry} renderCopy={renderCopy} />
    </QueryClientProvider>,
  );
  return { renderCopy, onRetry };
}

describe('ResultUnavailable', () => {
  it('explains a result deleted once fetched, and continues from the copy kept with the draft', async () => {
    const result = extractionFixture('standard_field_types.json');
    const { renderCopy } = renderWith({
      values: { field_simple_string: 'fixed' },
      removed: [],
      added: {},
      reviewed: [],
      result,
      updatedAt: '2026-11-21T08:00:00.000Z',
    });
    expect(screen.getByRole('alert')).toHaveTextContent('deleted once fetched');
    expect(screen.getByRole('alert')).toHaveTextContent(
      /delete a result as soon as it has been fetched once/,
    );
    // A 404 will not pass on retry: no "Try again".
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Continue the review from the copy' }));
    expect(screen.getByText('the review from the copy')).toBeInTheDocument();
    expect(renderCopy).toHaveBeenCalledWith(result, expect.anything());
  });

  it('offers the corrections as a file when no copy of the result was kept', () => {
    renderWith({
      values: { a: 'b' },
      removed: [],
      added: {},
      reviewed: [],
      updatedAt: '2026-11-21T08:00:00.000Z',
    });
    expect(screen.getByRole('button', { name: 'Download your corrections' })).toBeInTheDocument();
  });
});
