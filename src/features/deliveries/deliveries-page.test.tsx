import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { DeliveryPage, DeliveryView } from '@extraction-review/contract/review/deliveries';
import { getDelivery, listDeliveries, retryDelivery } from '../../api/review/delivery-endpoints';
import { ada, bob, problem, renderTeam, sessionOf } from '../../app/session/testing';
import { DeliveriesPage } from './deliveries-page';

vi.mock('../../api/review/delivery-endpoints');

const failed: DeliveryView = {
  id: 7,
  kind: 'webhook',
  state: 'failed',
  documentId: 'd0c5a1e2-0000-4000-8000-000000000007',
  fileName: 'march.pdf',
  integration: { id: 'int-1', name: 'ERP' },
  decidedAt: '2026-11-24T09:00:00.000Z',
  attempts: 5,
  nextAttemptAt: null,
  lastStatus: 503,
  lastError: 'Attempt 5 of 5: the webhook URL answered 503 Service Unavailable; a 2xx status is expected.',
  createdAt: '2026-11-24T09:00:00.000Z',
  updatedAt: '2026-11-24T09:01:00.000Z',
  deliveredAt: null,
};
const delivered: DeliveryView = {
  ...failed,
  id: 6,
  kind: 'v1_feedback',
  state: 'delivered',
  integration: null,
  attempts: 1,
  lastStatus: 200,
  lastError: null,
  deliveredAt: '2026-11-24T09:00:01.000Z',
};
const page = (deliveries: DeliveryView[]): DeliveryPage => ({
  deliveries,
  nextCursor: null,
  counts: { pending: 0, delivered: 1, failed: 1 },
});

function row(id: number): HTMLElement {
  const tr = screen.getByRole('rowheader', { name: String(id) }).closest('tr');
  if (tr === null) throw new Error(`no row ${id}`);
  return tr;
}

// Part of the app project, whose file glob the team's testing helper shares (src/**): a cross-feature
// import for tests only.
describe('DeliveriesPage', () => {
  beforeEach(() => {
    vi.resetAllMocks();
    vi.mocked(listDeliveries).mockResolvedValue(page([failed, delivered]));
  });

  it('tells an operator that only admins see the deliveries, without asking for them', () => {
    renderTeam(<DeliveriesPage />, { session: sessionOf(bob), path: '/deliveries' });
    expect(screen.getByText(/Only admins see the deliveries/)).toBeInTheDocument();
    expect(listDeliveries).not.toHaveBeenCalled();
  });

  it('lists deliveries with their state, kind, document, integration, attempts and last error', async () => {
    renderTeam(<DeliveriesPage />, { session: sessionOf(ada), path: '/deliveries' });
    await screen.findByRole('table');
    expect(row(7)).toHaveTextContent('Webhook');
    expect(row(7)).toHaveTextContent('ERP');
    expect(row(7)).toHaveTextContent('Failed');
    expect(row(7)).toHaveTextContent(/answered 503 Service Unavailable/);
    expect(within(row(7)).getByRole('link', { name: 'march.pdf' })).toHaveAttribute(
      'href',
      `/review/${failed.documentId}`,
    );
    expect(row(6)).toHaveTextContent('v1 feedback');
    expect(row(6)).toHaveTextContent('Delivered');
    expect(within(row(6)).queryByRole('button', { name: /Retry/ })).toBeNull();
    expect(screen.getByRole('button', { name: /Failed 1/ })).toBeInTheDocument();
  });

  it('filters by state and kind', async () => {
    const { user } = renderTeam(<DeliveriesPage />, { session: sessionOf(ada), path: '/deliveries' });
    await screen.findByRole('table');
    await user.click(screen.getByRole('button', { name: /^Failed/ }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Kind' }), 'webhook');
    expect(listDeliveries).toHaveBeenLastCalledWith(
      { state: 'failed', kind: 'webhook', cursor: undefined, limit: 50 },
      expect.anything(),
    );
  });

  it('shows a delivery’s attempts, and retries a failed one', async () => {
    vi.mocked(getDelivery).mockResolvedValue({
      delivery: {
        ...failed,
        attemptLog: [
          {
            at: '2026-11-24T09:00:00.000Z',
            outcome: 'network',
            status: null,
            error: 'not reached',
            durationMs: 3,
          },
          {
            at: '2026-11-24T09:00:02.000Z',
            outcome: 'status',
            status: 503,
            error: 'answered 503',
            durationMs: 12,
          },
        ],
        payload: {},
      },
    });
    vi.mocked(retryDelivery).mockResolvedValue({ delivery: { ...failed, state: 'pending', attempts: 0 } });
    const { user } = renderTeam(<DeliveriesPage />, { session: sessionOf(ada), path: '/deliveries' });
    await screen.findByRole('table');
    await user.click(within(row(7)).getByRole('button', { name: 'Attempts of delivery 7' }));
    const attempts = await screen.findByRole('list', { name: 'Attempts of delivery 7' });
    expect(within(attempts).getAllByRole('listitem')).toHaveLength(2);
    expect(attempts).toHaveTextContent(/answered 503/);

    const calls = vi.mocked(listDeliveries).mock.calls.length;
    await user.click(within(row(7)).getByRole('button', { name: 'Retry delivery 7' }));
    expect(retryDelivery).toHaveBeenCalledWith(7);
    // The list is read again.
    await vi.waitFor(() => expect(vi.mocked(listDeliveries).mock.calls.length).toBeGreaterThan(calls));
  });

  it('says why a retry was refused', async () => {
    vi.mocked(retryDelivery).mockRejectedValue(
      problem(409, '409-004', 'Already delivered', 'This delivery was delivered already.'),
    );
    const { user } = renderTeam(<DeliveriesPage />, { session: sessionOf(ada), path: '/deliveries' });
    await screen.findByRole('table');
    await user.click(within(row(7)).getByRole('button', { name: 'Retry delivery 7' }));
    expect(await screen.findByText(/delivered already/)).toBeInTheDocument();
  });
});
