import { screen, within } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AnalyticsResponse } from '@extraction-review/contract/review/analytics';
import { getAnalytics } from '../../api/review/analytics-endpoints';
import { ada, bob, renderTeam, sessionOf } from '../../app/session/testing';
import AnalyticsPage from './analytics-page';

vi.mock('../../api/review/analytics-endpoints');

const MIN = 60_000;
const figures: AnalyticsResponse = {
  model: null,
  from: '2026-11-19T00:00:00.000Z',
  to: '2026-11-26T00:00:00.000Z',
  bucket: 'day',
  generatedAt: '2026-11-25T12:00:00.000Z',
  models: [
    { apiVersion: 'v2', model: 'invoices' },
    { apiVersion: 'v1', model: 'acme/receipts/v2' },
  ],
  confirmations: {
    automatic: 2,
    byOperator: 4,
    rejected: 1,
    automaticShare: 2 / 6,
    periods: [
      {
        from: '2026-11-19T00:00:00.000Z',
        to: '2026-11-20T00:00:00.000Z',
        automatic: 2,
        byOperator: 4,
        rejected: 1,
        automaticShare: 2 / 6,
      },
    ],
  },
  corrections: {
    documentsConfirmed: 4,
    documentsCorrected: 3,
    fields: [
      {
        field: 'line_items[].total_price',
        documents: 2,
        values: 3,
        share: 0.5,
        examples: [
          {
            documentId: 'doc-b',
            fileName: '<b>march</b>.pdf',
            path: 'line_items[2].total_price',
            before: '<img src=x onerror=alert(1)>',
            after: null,
            confirmedAt: '2026-11-20T09:00:00.000Z',
          },
        ],
      },
    ],
    listEdits: [{ list: 'line_items', documents: 2, added: 1, removed: 1 }],
  },
  time: {
    documents: 5,
    totalMs: 21 * MIN,
    medianMs: 4 * MIN,
    p90Ms: 7 * MIN,
    ranges: [{ label: '2–5 min', fromMs: 2 * MIN, toMs: 5 * MIN, count: 3 }],
    operators: [{ operatorId: 'op-bob', name: 'Bob', documents: 4, totalMs: 11 * MIN, medianMs: 2 * MIN }],
  },
  queue: {
    total: 3,
    waiting: 1,
    inReview: 1,
    postponed: 1,
    medianMs: 12 * 3_600_000,
    p90Ms: 4 * 86_400_000,
    maxMs: 4 * 86_400_000,
    ages: [{ label: 'under 1 hour', fromMs: 0, toMs: 3_600_000, count: 1 }],
  },
};

describe('AnalyticsPage', () => {
  beforeAll(() => {
    // jsdom has no layout: the charts' container measures nothing, the tables carry the figures.
    globalThis.ResizeObserver ??= class {
      observe() {}
      unobserve() {}
      disconnect() {}
    } as unknown as typeof ResizeObserver;
  });
  beforeEach(() => {
    vi.resetAllMocks();
    vi.mocked(getAnalytics).mockResolvedValue(figures);
  });

  it('tells an operator that only admins see it, without asking for it', () => {
    renderTeam(<AnalyticsPage />, { session: sessionOf(bob), path: '/analytics' });
    expect(screen.getByText(/Only admins see where time goes/)).toBeInTheDocument();
    expect(getAnalytics).not.toHaveBeenCalled();
  });

  it('says what was corrected most, with its example as text, and every figure in a table', async () => {
    renderTeam(<AnalyticsPage />, { session: sessionOf(ada), path: '/analytics' });
    expect(await screen.findByText(/line_items\[\]\.total_price, in 2 documents of 4/)).toBeInTheDocument();
    const examples = screen.getByRole('table', { name: 'Examples of corrections, before and after' });
    // Extracted text stays text: no element made of it.
    expect(within(examples).getByText('<img src=x onerror=alert(1)>')).toBeInTheDocument();
    expect(within(examples).getByText('(empty)')).toBeInTheDocument();
    expect(within(examples).getByRole('link', { name: '<b>march</b>.pdf' })).toHaveAttribute(
      'href',
      '/review/doc-b',
    );
    expect(examples.querySelector('img')).toBeNull();

    const operators = screen.getByRole('table', { name: 'Time per operator' });
    expect(within(operators).getByRole('row', { name: /Bob 4 11 min 2 min/ })).toBeInTheDocument();
    expect(screen.getByRole('table', { name: 'Decisions per day' })).toHaveTextContent('33.3 %');
    expect(screen.getByRole('table', { name: 'List items added and removed' })).toHaveTextContent(
      'line_items',
    );
    expect(screen.getAllByText(/3 documents without a decision/).length).toBeGreaterThan(0);
  });

  it('asks for the model and period chosen, and links each table as CSV', async () => {
    const { user } = renderTeam(<AnalyticsPage />, { session: sessionOf(ada), path: '/analytics' });
    // Models by their names (a v1 product as words), chosen by their keys.
    await screen.findByRole('option', { name: 'Receipts v2 (acme) (v1)' });
    await user.selectOptions(screen.getByLabelText('Model'), 'acme/receipts/v2');
    await user.selectOptions(screen.getByLabelText('Period'), 'custom');
    const first = screen.getByLabelText('First day');
    await user.clear(first);
    await user.type(first, '2026-11-02');
    const last = screen.getByLabelText('Last day (included)');
    await user.clear(last);
    await user.type(last, '2026-11-08');

    const asked = vi.mocked(getAnalytics).mock.calls.at(-1)?.[0];
    expect(asked).toEqual({
      model: 'acme/receipts/v2',
      from: new Date(2026, 10, 2).toISOString(),
      to: new Date(2026, 10, 9).toISOString(),
    });
    const csv =
      screen.getByRole('link', { name: 'Export CSV of fields corrected most' }).getAttribute('href') ?? '';
    const url = new URL(csv, 'http://app.test');
    expect(url.pathname).toBe('/api/review/analytics');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      model: 'acme/receipts/v2',
      from: new Date(2026, 10, 2).toISOString(),
      to: new Date(2026, 10, 9).toISOString(),
      format: 'csv',
      table: 'fields',
    });
  });
});
