/** The admins' controls on a queue document: its priority, and handing it to another operator. */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type * as Endpoints from '../../../api/review/endpoints';
import { listOperators, reassignDocument, setDocumentPriority } from '../../../api/review/endpoints';
import type { ReviewDocument } from '@extraction-review/contract/review/schemas';
import { PriorityControl } from './priority-control';
import { ReassignControl } from './reassign-control';

vi.mock('../../../api/review/endpoints', async (importOriginal) => ({
  ...(await importOriginal<typeof Endpoints>()),
  setDocumentPriority: vi.fn(),
  reassignDocument: vi.fn(),
  listOperators: vi.fn(),
}));

const DOCUMENT: ReviewDocument = {
  id: 'D1',
  version: 4,
  apiVersion: 'v2',
  model: 'm',
  fileName: 'a.pdf',
  alias: null,
  state: 'to_review',
  holder: null,
  leaseExpiresAt: null,
  decidedBy: null,
  decidedAt: null,
  reason: null,
  priority: 0,
  fieldsTotal: 3,
  fieldsToReview: 1,
  createdAt: '2026-11-24T09:00:00.000Z',
  readyAt: '2026-11-24T09:00:01.000Z',
  upstreamJobId: 'j',
  upstreamResultId: 'r',
  uploadedBy: null,
  duplicateOf: null,
  result: null,
  error: null,
  corrections: {},
};

function wrap(children: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(<QueryClientProvider client={client}>{children}</QueryClientProvider>);
}

describe('admin controls', () => {
  it('sets a whole priority within bounds, and refuses others before sending', async () => {
    vi.mocked(setDocumentPriority).mockResolvedValue({ document: { ...DOCUMENT, priority: 7, version: 5 } });
    wrap(<PriorityControl document={DOCUMENT} />);
    const input = screen.getByLabelText('Priority');
    await userEvent.clear(input);
    await userEvent.type(input, '1.5');
    expect(screen.getByRole('button', { name: 'Set priority' })).toBeDisabled();
    await userEvent.clear(input);
    await userEvent.type(input, '7');
    await userEvent.click(screen.getByRole('button', { name: 'Set priority' }));
    await waitFor(() => expect(setDocumentPriority).toHaveBeenCalledWith('D1', 7));
  });

  it('hands the document to the chosen operator', async () => {
    vi.mocked(listOperators).mockResolvedValue({
      operators: [
        { id: 'op-a', name: 'Alice', role: 'operator', hasPassword: true, createdAt: DOCUMENT.createdAt },
        { id: 'op-b', name: 'Bob', role: 'admin', hasPassword: true, createdAt: DOCUMENT.createdAt },
      ],
    });
    vi.mocked(reassignDocument).mockResolvedValue({
      document: { ...DOCUMENT, state: 'in_review', holder: { id: 'op-a', name: 'Alice' }, version: 5 },
    });
    wrap(<ReassignControl document={DOCUMENT} />);
    // The operators arrive, then one is chosen.
    await screen.findByRole('option', { name: 'Alice (operator)' });
    await userEvent.selectOptions(screen.getByLabelText('Hand to'), 'op-a');
    await userEvent.click(screen.getByRole('button', { name: 'Reassign' }));
    await waitFor(() => expect(reassignDocument).toHaveBeenCalledWith('D1', 'op-a'));
    expect(await screen.findByRole('status')).toHaveTextContent('Now assigned to and held by Alice.');
  });
});
