import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ProblemDetailsError } from '../../api/errors';
import type * as Endpoints from '../../api/review/endpoints';
import { listOperators, listQueue } from '../../api/review/endpoints';
import { subscribeToAppEvents } from '../../api/v2/app-events';
import { QueuePage } from './queue-page';
import { BOB, queueDocument, queuePage, renderQueue, session } from './testing/fixtures';

vi.mock('../../api/review/endpoints', async (importOriginal) => ({
  ...(await importOriginal<typeof Endpoints>()),
  listQueue: vi.fn(),
  listOperators: vi.fn(),
  takeNext: vi.fn(),
}));

const lastQuery = () => vi.mocked(listQueue).mock.lastCall?.[0];

beforeEach(() => {
  vi.mocked(listQueue).mockReset().mockResolvedValue(queuePage());
  vi.mocked(listOperators).mockReset();
});

describe('QueuePage', () => {
  it('shows the counts per state; a count shows only that state, "All" every state', async () => {
    const { url } = renderQueue(<QueuePage />);
    const group = screen.getByRole('group', { name: 'Show documents by state' });
    const inReview = await within(group).findByRole('button', { name: 'In review 3' });
    expect(within(group).getByRole('button', { name: 'All 63' })).toHaveAttribute('aria-pressed', 'true');
    expect(inReview).toHaveAttribute('aria-pressed', 'false');

    await userEvent.click(inReview);
    expect(url()).toBe('/queue?state=in_review');
    expect(inReview).toHaveAttribute('aria-pressed', 'true');
    await waitFor(() => expect(lastQuery()).toEqual({ state: 'in_review', limit: 50 }));

    await userEvent.click(within(group).getByRole('button', { name: 'All 63' }));
    expect(url()).toBe('/queue');
    await waitFor(() => expect(lastQuery()).toEqual({ limit: 50 }));
  });

  it('reads its filters from the URL and writes typed text back once typing pauses', async () => {
    const { url } = renderQueue(<QueuePage />, { search: 'state=rejected&q=acme&from=2026-01-02' });
    await waitFor(() =>
      expect(lastQuery()).toEqual({
        state: 'rejected',
        q: 'acme',
        from: new Date(2026, 0, 2).toISOString(),
        limit: 50,
      }),
    );
    expect(screen.getByRole('searchbox', { name: 'Search' })).toHaveValue('acme');
    expect(screen.getByLabelText('Received from')).toHaveValue('2026-01-02');

    await userEvent.type(screen.getByRole('searchbox', { name: 'Search' }), ' ltd');
    // Not yet: the URL changes once typing pauses.
    expect(url()).toBe('/queue?state=rejected&q=acme&from=2026-01-02');
    await waitFor(() => expect(url()).toBe('/queue?state=rejected&from=2026-01-02&q=acme+ltd'));
    await waitFor(() => expect(lastQuery()).toMatchObject({ q: 'acme ltd' }));
  });

  it('filters on "Me" as the signed-in operator; admins may pick another operator', async () => {
    vi.mocked(listOperators).mockResolvedValue({
      operators: [
        session('admin').operator,
        { ...BOB, role: 'operator', hasPassword: true, createdAt: '2026-01-01T00:00:00.000Z' },
      ],
    });
    renderQueue(<QueuePage />, { signedIn: session('admin') });
    await userEvent.click(screen.getByRole('button', { name: 'More filters' }));
    const select = screen.getByRole('combobox', { name: 'Held or decided by' });
    await userEvent.selectOptions(select, 'Me');
    await waitFor(() => expect(lastQuery()).toEqual({ operator: 'op-alice', limit: 50 }));
    await userEvent.selectOptions(select, await screen.findByRole('option', { name: 'Bob' }));
    await waitFor(() => expect(lastQuery()).toEqual({ operator: 'op-bob', limit: 50 }));
  });

  it('offers operators only "Anyone" and "Me"', async () => {
    renderQueue(<QueuePage />);
    await userEvent.click(screen.getByRole('button', { name: 'More filters' }));
    const select = screen.getByRole('combobox', { name: 'Held or decided by' });
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Anyone', 'Me']);
    expect(listOperators).not.toHaveBeenCalled();
  });

  it('pages forward with the next cursor and back with the one before', async () => {
    vi.mocked(listQueue).mockImplementation(async (query) =>
      query.cursor === 'c2'
        ? queuePage({ documents: [queueDocument({ id: 'D2', fileName: 'second.pdf' })], nextCursor: 'c3' })
        : queuePage({ nextCursor: 'c2' }),
    );
    renderQueue(<QueuePage />);
    expect(await screen.findByRole('link', { name: 'invoice-1.pdf' })).toBeInTheDocument();
    expect(screen.getByText('Page 1')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous page' })).toBeDisabled();

    await userEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await screen.findByRole('link', { name: 'second.pdf' })).toBeInTheDocument();
    expect(lastQuery()).toEqual({ cursor: 'c2', limit: 50 });
    expect(screen.getByText('Page 2')).toBeInTheDocument();
    expect(screen.getByRole('table', { name: 'Documents, newest first: page 2' })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Previous page' }));
    expect(await screen.findByRole('link', { name: 'invoice-1.pdf' })).toBeInTheDocument();
    expect(screen.getByText('Page 1')).toBeInTheDocument();
    await waitFor(() => expect(lastQuery()).toEqual({ limit: 50 }));
  });

  it('starts again at page 1 when a filter changes', async () => {
    vi.mocked(listQueue).mockResolvedValue(queuePage({ nextCursor: 'c2' }));
    renderQueue(<QueuePage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Next page' }));
    await screen.findByText('Page 2');
    await userEvent.click(screen.getByRole('button', { name: 'Failed 1' }));
    await waitFor(() => expect(lastQuery()).toEqual({ state: 'failed', limit: 50 }));
    expect(await screen.findByText('Page 1')).toBeInTheDocument();
  });

  it('says when the queue is empty, and when nothing matches the filters', async () => {
    vi.mocked(listQueue).mockResolvedValue(queuePage({ documents: [] }));
    const first = renderQueue(<QueuePage />);
    expect(await screen.findByText(/The queue is empty/)).toBeInTheDocument();
    first.unmount();

    const { url } = renderQueue(<QueuePage />, { search: 'q=nothing' });
    expect(await screen.findByText('No document matches these filters.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Show every document' }));
    expect(url()).toBe('/queue');
  });

  it('shows a failure in words', async () => {
    vi.mocked(listQueue).mockRejectedValue(
      new ProblemDetailsError(
        { status: 401, title: 'Not signed in', detail: 'Sign in again.', code: '401-011', errors: [] },
        { endpoint: 'GET /api/review/documents' },
      ),
    );
    renderQueue(<QueuePage />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Not signed in');
  });

  it('shows the time of the last update', async () => {
    renderQueue(<QueuePage />);
    expect(await screen.findByText(/^Updated/)).toHaveTextContent(
      /Updated \d\d:\d\d:\d\d · refreshed every 10 s/,
    );
  });

  it('says the list is live while the tab’s event stream is open (no poll then)', async () => {
    // A stream that opens at once, as the browser's does once the server answers.
    class OpenSource {
      addEventListener(type: string, listener: (event: MessageEvent) => void) {
        if (type === 'open') listener(new MessageEvent('open'));
      }
      close() {}
    }
    const stop = subscribeToAppEvents({}, { EventSource: OpenSource });
    renderQueue(<QueuePage />);
    expect(await screen.findByText(/^Updated/)).toHaveTextContent(/· live$/);
    stop();
  });
});
