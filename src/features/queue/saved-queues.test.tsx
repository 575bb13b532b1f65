import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { SavedQueue } from '@extraction-review/contract/review/saved-queues';
import { ProblemDetailsError } from '../../api/errors';
import type * as Endpoints from '../../api/review/saved-queue-endpoints';
import {
  createSavedQueue,
  deleteSavedQueue,
  listSavedQueues,
  savedQueuesKey,
  updateSavedQueue,
} from '../../api/review/saved-queue-endpoints';
import { parseQueueFilters } from '../../lib/queue-filters';
import { SavedQueues, urlToSaved } from './saved-queues';
import { renderQueue, session } from './testing/fixtures';
import { useSearch } from 'wouter';

/** The saved queues of the queue page: its filters are the URL's. */
function FiltersFromUrl() {
  return <SavedQueues filters={parseQueueFilters(useSearch())} isAdmin />;
}

vi.mock('../../api/review/saved-queue-endpoints', async (importOriginal) => ({
  ...(await importOriginal<typeof Endpoints>()),
  listSavedQueues: vi.fn(),
  createSavedQueue: vi.fn(),
  updateSavedQueue: vi.fn(),
  deleteSavedQueue: vi.fn(),
}));

const BIG: SavedQueue = {
  id: 'q-big',
  name: 'Invoices over 10,000',
  filters: { model: 'invoices', minAmount: 10000, state: 'to_review' },
  version: 3,
  waiting: 4,
  updatedAt: '2026-12-07T09:00:00.000Z',
};
const RECEIPTS: SavedQueue = {
  ...BIG,
  id: 'q-r',
  name: 'Receipts',
  filters: { model: 'receipts' },
  waiting: 0,
};

beforeEach(() => {
  vi.mocked(listSavedQueues)
    .mockReset()
    .mockResolvedValue({ queues: [BIG, RECEIPTS] });
  vi.mocked(createSavedQueue).mockReset();
  vi.mocked(updateSavedQueue).mockReset();
  vi.mocked(deleteSavedQueue).mockReset();
});

describe('SavedQueues', () => {
  it('links each saved queue to its filters with its waiting count, the current one marked', async () => {
    renderQueue(
      <SavedQueues
        filters={parseQueueFilters('state=to_review&model=invoices&minAmount=10000')}
        isAdmin={false}
      />,
    );
    const nav = await screen.findByRole('navigation', { name: 'Saved queues' });
    const big = within(nav).getByRole('link', { name: /^Invoices over 10,000 4/ });
    expect(big).toHaveAttribute('aria-current', 'page');
    expect(big).toHaveAttribute('href', '/queue?state=to_review&model=invoices&minAmount=10000');
    const receipts = within(nav).getByRole('link', { name: /^Receipts 0/ });
    expect(receipts).not.toHaveAttribute('aria-current');
    expect(receipts).toHaveAttribute('href', '/queue?model=receipts');
    // Operators do not save queues.
    expect(screen.queryByRole('button', { name: /Save as a queue|Rename|Delete/ })).not.toBeInTheDocument();
  });

  it('lets an admin save the current filters under a name, and shows a taken name', async () => {
    vi.mocked(createSavedQueue)
      .mockRejectedValueOnce(
        new ProblemDetailsError(
          {
            status: 409,
            title: 'Name already taken',
            detail: 'A saved queue named “Receipts” exists already: choose another name.',
            code: '409-003',
            errors: [],
          },
          { endpoint: '/api/review/queues' },
        ),
      )
      .mockResolvedValueOnce({ queue: { ...BIG, id: 'q-new', name: 'Big receipts' } });
    renderQueue(
      <SavedQueues filters={parseQueueFilters('model=receipts&minAmount=1%2C000&from=2026-01-01')} isAdmin />,
      { signedIn: session('admin') },
    );
    await screen.findByRole('navigation', { name: 'Saved queues' });
    await userEvent.click(screen.getByRole('button', { name: 'Save as a queue…' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Queue name' }), 'Receipts');
    await userEvent.click(screen.getByRole('button', { name: 'Save queue' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('exists already');
    await userEvent.clear(screen.getByRole('textbox', { name: 'Queue name' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Queue name' }), 'Big receipts');
    await userEvent.click(screen.getByRole('button', { name: 'Save queue' }));
    // The dates are not saved: a queue is a kind of work, not a moment.
    expect(vi.mocked(createSavedQueue).mock.lastCall?.[0]).toEqual({
      name: 'Big receipts',
      filters: { model: 'receipts', minAmount: 1000 },
    });
    await waitFor(() =>
      expect(screen.queryByRole('textbox', { name: 'Queue name' })).not.toBeInTheDocument(),
    );
    expect(vi.mocked(listSavedQueues).mock.calls.length).toBeGreaterThan(1);
  });

  it('lets an admin rename and delete the current queue on the version read', async () => {
    vi.mocked(updateSavedQueue).mockResolvedValue({ queue: { ...BIG, name: 'Large invoices', version: 4 } });
    vi.mocked(deleteSavedQueue).mockResolvedValue(undefined);
    renderQueue(<SavedQueues filters={parseQueueFilters('model=receipts')} isAdmin />, {
      signedIn: session('admin'),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Rename queue' }));
    const name = screen.getByRole('textbox', { name: 'Queue name' });
    expect(name).toHaveValue('Receipts');
    await userEvent.clear(name);
    await userEvent.type(name, 'Till receipts');
    await userEvent.click(screen.getByRole('button', { name: 'Rename' }));
    expect(vi.mocked(updateSavedQueue).mock.lastCall?.slice(0, 2)).toEqual([
      'q-r',
      { version: 3, name: 'Till receipts' },
    ]);
    await userEvent.click(await screen.findByRole('button', { name: 'Delete queue' }));
    await userEvent.click(screen.getByRole('button', { name: 'Delete “Receipts”' }));
    await waitFor(() => expect(vi.mocked(deleteSavedQueue).mock.lastCall?.[0]).toBe('q-r'));
  });

  it('lets an admin save changed filters to the queue they came from; a refusal keeps their filters', async () => {
    vi.mocked(updateSavedQueue)
      .mockRejectedValueOnce(
        new ProblemDetailsError(
          {
            status: 409,
            title: 'The saved queue changed',
            detail: 'Another admin changed “Receipts” since you read it.',
            code: '409-006',
            errors: [],
          },
          { endpoint: '/api/review/queues/q-r' },
        ),
      )
      .mockResolvedValueOnce({
        queue: { ...RECEIPTS, filters: { model: 'receipts', minAmount: 50 }, version: 5 },
      });
    // Another admin makes it version 4 meanwhile: the list read again after the refusal says so.
    vi.mocked(listSavedQueues)
      .mockReset()
      .mockResolvedValueOnce({ queues: [BIG, RECEIPTS] })
      .mockResolvedValue({ queues: [BIG, { ...RECEIPTS, version: 4 }] });
    const { location, url, client } = renderQueue(<FiltersFromUrl />, {
      search: 'model=receipts',
      signedIn: session('admin'),
    });
    await screen.findByRole('button', { name: 'Rename queue' });
    // Nothing changed yet: nothing to save to it.
    expect(screen.queryByRole('button', { name: /Save changes/ })).not.toBeInTheDocument();

    act(() => location.navigate('/queue?model=receipts&minAmount=50'));
    await userEvent.click(await screen.findByRole('button', { name: 'Save changes to “Receipts”' }));
    expect(vi.mocked(updateSavedQueue).mock.lastCall?.slice(0, 2)).toEqual([
      'q-r',
      { version: 3, filters: { model: 'receipts', minAmount: 50 } },
    ]);
    expect(await screen.findByRole('alert')).toHaveTextContent('Another admin changed');
    expect(screen.getByRole('alert')).toHaveTextContent('your filters are as you set them');
    expect(url()).toBe('/queue?model=receipts&minAmount=50');

    // Read again: saved on the version now read.
    await waitFor(() =>
      expect(client.getQueryData<{ queues: SavedQueue[] }>(savedQueuesKey())?.queues[1]?.version).toBe(4),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Save changes to “Receipts”' }));
    expect(vi.mocked(updateSavedQueue).mock.lastCall?.[1]).toEqual({
      version: 4,
      filters: { model: 'receipts', minAmount: 50 },
    });
    // A new queue may still be made of them instead.
    expect(screen.getByRole('button', { name: 'Save as a new queue…' })).toBeInTheDocument();
  });

  it('keeps the filters that name a kind of work', () => {
    expect(urlToSaved(parseQueueFilters('operator=me&q=%20acme%20&maxAmount=abc&to=2026-02-02'))).toEqual({
      operator: 'me',
      q: 'acme',
    });
  });
});
