import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ProblemDetailsError } from '../../api/errors';
import type * as Endpoints from '../../api/review/endpoints';
import { reviewKeys } from '../../api/keys';
import { takeNext } from '../../api/review/endpoints';
import type { ReviewDocument } from '@extraction-review/contract/review/schemas';
import { StartReviewingButton } from './start-reviewing-button';
import type { QueueFilters } from '../../lib/queue-filters';
import { ALICE, queueDocument, renderQueue } from './testing/fixtures';

vi.mock('../../api/review/endpoints', async (importOriginal) => ({
  ...(await importOriginal<typeof Endpoints>()),
  takeNext: vi.fn(),
}));

const taken: ReviewDocument = {
  ...queueDocument({ id: 'D9', state: 'in_review', holder: ALICE }),
  result: null,
  error: null,
  corrections: {},
};

function renderButton(filters: QueueFilters = {}) {
  const rendered = renderQueue(
    <>
      <label>
        Search <input type="search" />
      </label>
      <StartReviewingButton filters={filters} me={ALICE.id} />
    </>,
  );
  const invalidate = vi.spyOn(rendered.client, 'invalidateQueries');
  return { ...rendered, invalidate };
}

beforeEach(() => {
  vi.mocked(takeNext).mockReset();
});

describe('StartReviewingButton', () => {
  it('takes the next document and opens its review, the queue refreshed', async () => {
    vi.mocked(takeNext).mockResolvedValue(taken);
    const { url, client, invalidate } = renderButton();
    await userEvent.click(screen.getByRole('button', { name: 'Start reviewing' }));
    await waitFor(() => expect(url()).toBe('/review/D9'));
    expect(client.getQueryData(reviewKeys.document('D9'))).toEqual({ document: taken });
    await waitFor(() => expect(invalidate).toHaveBeenCalledWith({ queryKey: reviewKeys.queues() }));
  });

  it('takes the next document of the active filters, and its review keeps them (issue 21)', async () => {
    vi.mocked(takeNext).mockResolvedValue(taken);
    const { url } = renderButton({ state: 'to_review', model: 'receipts', operator: 'me' });
    await userEvent.click(screen.getByRole('button', { name: 'Start reviewing' }));
    await waitFor(() => expect(url()).toBe('/review/D9?state=to_review&model=receipts&operator=me'));
    expect(takeNext).toHaveBeenCalledWith({ state: 'to_review', model: 'receipts', operator: ALICE.id });
  });

  it('says which filters have nothing left', async () => {
    vi.mocked(takeNext).mockResolvedValue(undefined);
    renderButton({ model: 'receipts' });
    await userEvent.click(screen.getByRole('button', { name: 'Start reviewing' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Nothing left to review in these filters');
  });

  it('says so when nothing is left to review', async () => {
    vi.mocked(takeNext).mockResolvedValue(undefined);
    const { url, invalidate } = renderButton();
    await userEvent.click(screen.getByRole('button', { name: 'Start reviewing' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Nothing left to review');
    expect(url()).toBe('/queue');
    expect(invalidate).toHaveBeenCalledWith({ queryKey: reviewKeys.queues() });
  });

  it('answers the "s" key, but not while typing in a field', async () => {
    vi.mocked(takeNext).mockResolvedValue(undefined);
    renderButton();
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search' }), 's');
    expect(takeNext).not.toHaveBeenCalled();
    await userEvent.click(document.body);
    await userEvent.keyboard('s');
    await waitFor(() => expect(takeNext).toHaveBeenCalledTimes(1));
    await userEvent.keyboard('{Control>}s{/Control}');
    expect(takeNext).toHaveBeenCalledTimes(1);
    expect(await screen.findByRole('status')).toHaveTextContent('Nothing left to review');
  });

  it('shows why the document could not be taken', async () => {
    vi.mocked(takeNext).mockRejectedValue(
      new ProblemDetailsError(
        { status: 403, title: 'Invalid CSRF token', detail: 'Reload the page.', code: '403-004', errors: [] },
        { endpoint: 'POST /api/review/next' },
      ),
    );
    renderButton();
    await userEvent.click(screen.getByRole('button', { name: 'Start reviewing' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid CSRF token');
  });
});
