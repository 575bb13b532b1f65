import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { DeliveryView } from '@extraction-review/contract/review/deliveries';
import { getDocumentDeliveries } from '../../../api/review/delivery-endpoints';
import { DocumentDeliveries } from './document-deliveries';

vi.mock('../../../api/review/delivery-endpoints');

const ID = 'd0c5a1e2-0000-4000-8000-000000000007';
const webhook: DeliveryView = {
  id: 7,
  kind: 'webhook',
  state: 'pending',
  documentId: ID,
  fileName: 'march.pdf',
  integration: { id: 'int-1', name: 'ERP' },
  decidedAt: '2026-11-24T09:00:00.000Z',
  attempts: 2,
  nextAttemptAt: '2026-11-24T09:00:04.000Z',
  lastStatus: null,
  lastError: 'Attempt 2 of 5: the webhook URL could not be reached (connect ECONNREFUSED).',
  createdAt: '2026-11-24T09:00:00.000Z',
  updatedAt: '2026-11-24T09:00:02.000Z',
  deliveredAt: null,
};

function renderFor(deliveries: DeliveryView[]) {
  vi.mocked(getDocumentDeliveries).mockResolvedValue({ deliveries });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <DocumentDeliveries documentId={ID} />
    </QueryClientProvider>,
  );
}

describe('DocumentDeliveries', () => {
  beforeEach(() => vi.resetAllMocks());

  it('says what the confirmation sent and how far each got', async () => {
    renderFor([
      webhook,
      {
        ...webhook,
        id: 8,
        kind: 'v2_rag',
        state: 'delivered',
        integration: null,
        attempts: 1,
        lastError: null,
        deliveredAt: '2026-11-24T09:00:01.000Z',
      },
      {
        ...webhook,
        id: 9,
        kind: 'v1_feedback',
        state: 'failed',
        integration: null,
        attempts: 5,
        lastError: 'Attempt 5 of 5: the v1 upstream answered 403 Forbidden; a 2xx status is expected.',
      },
    ]);
    const list = await screen.findByRole('list', { name: 'Sent on confirmation' });
    expect(list).toHaveTextContent('Webhook to ERP: retrying (2 attempts so far)');
    expect(list).toHaveTextContent(/ECONNREFUSED/);
    expect(list).toHaveTextContent(/RAG: delivered/);
    expect(list).toHaveTextContent('v1 feedback: failed after 5 attempts');
    expect(list).toHaveTextContent(/403 Forbidden/);
    expect(getDocumentDeliveries).toHaveBeenCalledWith(ID, expect.anything());
  });

  it('shows nothing when the document sent nothing', async () => {
    const view = renderFor([]);
    await vi.waitFor(() => expect(getDocumentDeliveries).toHaveBeenCalled());
    expect(view.container).toBeEmptyDOMElement();
  });
});
