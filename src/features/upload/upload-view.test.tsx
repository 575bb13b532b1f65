import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type * as AppEvents from '../../api/v2/app-events';
import { getAppConfig } from '../../api/v2/app-events';
import { searchModels } from '../../api/v2/endpoints';
import type { ModelsSearchResponse } from '@extraction-review/contract/v2/schemas';
import type * as CheckDocument from '../../lib/check-document';
import { checkDocument } from '../../lib/check-document';
import { UploadView } from './upload-view';

vi.mock('../../api/v2/endpoints');
vi.mock('../../api/v2/app-events', async (importOriginal) => ({
  ...(await importOriginal<typeof AppEvents>()),
  getAppConfig: vi.fn(),
}));
vi.mock('../../lib/check-document', async (importOriginal) => ({
  ...(await importOriginal<typeof CheckDocument>()),
  checkDocument: vi.fn(),
}));
const add = vi.fn((_uploads: unknown[]) => [] as unknown[]);
vi.mock('./upload-queue-provider', () => ({
  useUploadQueue: () => ({ add }),
  useUploads: () => [],
}));

const MODEL_ID = '0b6b0a4e-4f4b-4c38-9d6b-3f0d6e2b1a11';
const MODELS = {
  models: [{ id: MODEL_ID, name: 'Invoices', model_type: 'extraction', webhooks: [] }],
  pagination: { page: 1, per_page: 50, total_items: 1, total_pages: 1 },
} as unknown as ModelsSearchResponse;

function renderUploadView() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const user = userEvent.setup();
  render(
    <QueryClientProvider client={client}>
      <UploadView />
    </QueryClientProvider>,
  );
  return user;
}

describe('UploadView', () => {
  beforeEach(() => {
    vi.clearAllMocks();
    vi.mocked(getAppConfig).mockResolvedValue({ v2: { webhookIds: [] } } as never);
    vi.mocked(checkDocument).mockResolvedValue({ mimeType: 'application/pdf', problem: null });
  });

  // A fresh page under load: the file was chosen and "Extract" pressed before the model list had
  // arrived. The press used to be lost ("Choose a model." then nothing); it is now kept.
  it('sends a file whose "Extract" was pressed while the model list was loading, once it arrives', async () => {
    let answer: (response: ModelsSearchResponse) => void = () => {};
    vi.mocked(searchModels).mockReturnValue(new Promise((resolve) => (answer = resolve)));
    const user = renderUploadView();
    await user.upload(
      screen.getByLabelText('Document'),
      new File(['%PDF-1.7'], 'invoice.pdf', { type: 'application/pdf' }),
    );
    await user.click(screen.getByRole('button', { name: 'Extract' }));
    expect(screen.getByRole('status')).toHaveTextContent('Loading the models…');
    expect(add).not.toHaveBeenCalled();

    answer(MODELS);
    await waitFor(() => expect(add).toHaveBeenCalledTimes(1));
    const [uploads] = add.mock.calls[0] ?? [];
    expect(uploads).toHaveLength(1);
    expect(uploads).toMatchObject([
      { label: 'invoice.pdf', payload: { api: 'v2', input: { model_id: MODEL_ID } } },
    ]);
  });

  it('asks for a model when the list could not be read, and sends nothing', async () => {
    vi.mocked(searchModels).mockRejectedValue(new Error('offline'));
    const user = renderUploadView();
    await user.upload(
      screen.getByLabelText('Document'),
      new File(['%PDF-1.7'], 'invoice.pdf', { type: 'application/pdf' }),
    );
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Choose a model.'));
    await user.click(screen.getByRole('button', { name: 'Extract' }));
    expect(add).not.toHaveBeenCalled();
  });
});
