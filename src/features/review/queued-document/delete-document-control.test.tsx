/** The admins' delete: a dialog naming the file, Cancel first; deleted, back to the queue with a notice. */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import type * as Endpoints from '../../../api/review/endpoints';
import { deleteDocument } from '../../../api/review/endpoints';
import type { ReviewDocument } from '@extraction-review/contract/review/schemas';
import { DeleteDocumentControl } from './delete-document-control';

vi.mock('../../../api/review/endpoints', async (importOriginal) => ({
  ...(await importOriginal<typeof Endpoints>()),
  deleteDocument: vi.fn(),
}));

const DOCUMENT = {
  id: 'D1',
  version: 4,
  apiVersion: 'v2',
  model: 'invoice-model',
  fileName: 'Invoice Jane Doe.pdf',
  alias: null,
  state: 'confirmed',
} as unknown as ReviewDocument;

beforeEach(() => {
  HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
    this.removeAttribute('open');
    this.dispatchEvent(new Event('close'));
  };
});

function wrap() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const location = memoryLocation({ path: '/review/D1', record: true });
  render(
    <QueryClientProvider client={client}>
      <Router hook={location.hook}>
        <DeleteDocumentControl document={DOCUMENT} />
      </Router>
    </QueryClientProvider>,
  );
  return location;
}

describe('deleting a document from its review page', () => {
  it('asks, naming the file, with Cancel focused; Cancel deletes nothing', async () => {
    wrap();
    await userEvent.click(screen.getByRole('button', { name: 'Delete document…' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete “Invoice Jane Doe.pdf”?' });
    expect(dialog).toHaveTextContent('removed for good');
    expect(screen.getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(deleteDocument).not.toHaveBeenCalled();
  });

  it('deletes, then goes back to the queue', async () => {
    vi.mocked(deleteDocument).mockResolvedValue(undefined as never);
    const location = wrap();
    await userEvent.click(screen.getByRole('button', { name: 'Delete document…' }));
    await userEvent.click(screen.getByRole('button', { name: 'Delete for good' }));
    await waitFor(() => expect(location.history?.at(-1)).toBe('/queue'));
    expect(deleteDocument).toHaveBeenCalledWith('D1');
  });
});
