/** The queue's sortable headers, and the admins' boxes and bulk bar. */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { QueueDocument, QueueSort } from '@extraction-review/contract/review/schemas';
import { bulkDocuments } from '../../api/review/bulk-endpoints';
import type * as Endpoints from '../../api/review/endpoints';
import { listOperators } from '../../api/review/endpoints';
import { BulkBar } from './bulk-bar';
import { QueueTable } from './queue-table';
import { nextSort } from './sort-header';
import { queueDocument } from './testing/fixtures';
import { useSelection } from './use-selection';

vi.mock('../../api/review/bulk-endpoints', () => ({ bulkDocuments: vi.fn() }));
vi.mock('../../api/review/endpoints', async (importOriginal) => ({
  ...(await importOriginal<typeof Endpoints>()),
  listOperators: vi.fn(),
}));

const now = Date.parse('2026-01-05T08:03:05.000Z');
const DOCS: QueueDocument[] = [
  queueDocument({ id: 'd-1', fileName: 'one.pdf' }),
  queueDocument({ id: 'd-2', fileName: 'two.pdf' }),
  queueDocument({ id: 'd-3', fileName: 'three.pdf' }),
];

function AdminQueue({ initialSort = '-received' as QueueSort, onSort = (_: QueueSort) => {} }) {
  const [sort, setSort] = useState<QueueSort>(initialSort);
  const selection = useSelection('page-1', ['d-1', 'd-2', 'd-3']);
  return (
    <>
      <BulkBar documents={DOCS} selection={selection} />
      <QueueTable
        documents={DOCS}
        page={1}
        me={undefined}
        now={now}
        sort={sort}
        onSort={(next) => {
          setSort(next);
          onSort(next);
        }}
        selection={selection}
      />
    </>
  );
}

function renderWithClient(ui: React.ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(<QueryClientProvider client={client}>{ui}</QueryClientProvider>);
}

describe('sorting the queue', () => {
  it('turns a column the other way on a second click, and starts times and priorities newest/highest first', () => {
    expect(nextSort('-received', 'name')).toBe('name');
    expect(nextSort('name', 'name')).toBe('-name');
    expect(nextSort('-name', 'name')).toBe('name');
    expect(nextSort('name', 'priority')).toBe('-priority');
    expect(nextSort('-received', 'received')).toBe('received');
  });

  it('says on each sortable header how the list is sorted', async () => {
    vi.mocked(listOperators).mockResolvedValue({ operators: [] });
    const onSort = vi.fn();
    renderWithClient(<AdminQueue onSort={onSort} />);
    const age = screen.getByRole('columnheader', { name: /Age/ });
    expect(age).toHaveAttribute('aria-sort', 'descending');
    expect(screen.getByRole('columnheader', { name: /File/ })).toHaveAttribute('aria-sort', 'none');
    expect(screen.getByRole('columnheader', { name: 'Alias' })).not.toHaveAttribute('aria-sort');
    await userEvent.click(screen.getByRole('button', { name: /File/ }));
    expect(onSort).toHaveBeenLastCalledWith('name');
    expect(screen.getByRole('columnheader', { name: /File/ })).toHaveAttribute('aria-sort', 'ascending');
    expect(
      screen.getByRole('table', { name: 'Documents, by file name, A to Z: page 1' }),
    ).toBeInTheDocument();
  });
});

describe('the bulk bar', () => {
  it('appears with the count ticked; select-all ticks the page', async () => {
    vi.mocked(listOperators).mockResolvedValue({ operators: [] });
    renderWithClient(<AdminQueue />);
    expect(screen.queryByRole('region', { name: 'Bulk actions' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select two.pdf' }));
    const bar = screen.getByRole('region', { name: 'Bulk actions' });
    expect(within(bar).getByText('1 document selected')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select every document of this page' }));
    expect(within(bar).getByText('3 documents selected')).toBeInTheDocument();
    await userEvent.click(within(bar).getByRole('button', { name: 'Clear the selection' }));
    expect(screen.queryByRole('region', { name: 'Bulk actions' })).not.toBeInTheDocument();
  });

  it('rejects with a reason only, and shows what was left alone and why', async () => {
    vi.mocked(listOperators).mockResolvedValue({ operators: [] });
    vi.mocked(bulkDocuments).mockResolvedValue({
      action: 'reject',
      changed: ['d-1'],
      skipped: [{ id: 'd-3', reason: 'held', detail: 'Another operator is reviewing it.' }],
    });
    renderWithClient(<AdminQueue />);
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select one.pdf' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select three.pdf' }));
    await userEvent.click(screen.getByRole('button', { name: 'Reject…' }));
    const send = screen.getByRole('button', { name: 'Reject 2 documents' });
    expect(send).toBeDisabled();
    await userEvent.type(screen.getByLabelText(/Why are they rejected/), 'Sent twice');
    await userEvent.click(send);
    expect(bulkDocuments).toHaveBeenCalledWith({
      action: 'reject',
      ids: ['d-1', 'd-3'],
      reason: 'Sent twice',
    });
    const status = await screen.findByRole('status');
    expect(status).toHaveTextContent('Rejected 1 document. 1 document left as it was:');
    expect(status).toHaveTextContent('three.pdf: Another operator is reviewing it.');
  });

  it('asks before deleting, naming how many, and sets a priority or an operator', async () => {
    vi.mocked(listOperators).mockResolvedValue({
      operators: [
        {
          id: 'op-alice',
          name: 'Alice',
          role: 'operator',
          hasPassword: true,
          createdAt: '2026-01-01T00:00:00Z',
        },
      ],
    });
    vi.mocked(bulkDocuments).mockResolvedValue({ action: 'delete', changed: ['d-1', 'd-2'], skipped: [] });
    renderWithClient(<AdminQueue />);
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select one.pdf' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select two.pdf' }));
    await userEvent.click(screen.getByRole('button', { name: 'Delete…' }));
    const dialog = screen.getByRole('alertdialog');
    expect(dialog).toHaveTextContent('Delete 2 documents?');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete 2 documents' }));
    expect(bulkDocuments).toHaveBeenLastCalledWith({ action: 'delete', ids: ['d-1', 'd-2'] });
    expect(await screen.findByRole('status')).toHaveTextContent('Deleted 2 documents.');

    await userEvent.click(screen.getByRole('checkbox', { name: 'Select three.pdf' }));
    const priority = screen.getByLabelText('Priority (higher first)');
    await userEvent.clear(priority);
    await userEvent.type(priority, '5');
    await userEvent.click(screen.getByRole('button', { name: 'Set priority' }));
    expect(bulkDocuments).toHaveBeenLastCalledWith({ action: 'priority', ids: ['d-3'], priority: 5 });

    await waitFor(() =>
      expect(screen.queryByRole('region', { name: 'Bulk actions' })).not.toBeInTheDocument(),
    );
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select three.pdf' }));
    await userEvent.selectOptions(await screen.findByLabelText('Assign to'), 'Alice');
    await userEvent.click(screen.getByRole('button', { name: 'Assign' }));
    expect(bulkDocuments).toHaveBeenLastCalledWith({ action: 'assign', ids: ['d-3'], operator: 'op-alice' });
  });
});
