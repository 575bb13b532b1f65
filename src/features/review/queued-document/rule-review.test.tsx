/**
 * Business rules in the review of a queue document: a failing rule marks its field with its message
 * and is listed above the decision bar; confirming asks for an override reason (required), sent as
 * `overrideReason`, the model's preset reasons offered as choices that fill it; a correction that makes the rule pass takes the mark away and confirms without one.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { reviewKeys } from '../../../api/keys';
import type * as Endpoints from '../../../api/review/endpoints';
import {
  confirmDocument,
  getReviewDocument,
  renewLease,
  saveCorrections,
  takeNext,
} from '../../../api/review/endpoints';
import { BusinessRules, RoutingRules } from '@extraction-review/contract/review/model-settings';
import type { ReviewDocument } from '@extraction-review/contract/review/schemas';
import { ReviewDocumentRoute } from '../../../app/review-document-route';
import type * as DraftStore from '../../../lib/draft-store';
import { extractionFixture } from '@extraction-review/test-kit/recorded-results';

vi.mock('../../../api/review/endpoints', async (importOriginal) => ({
  ...(await importOriginal<typeof Endpoints>()),
  // Which document is next, asked by the review to prefetch it (use-next-ahead.ts): none here.
  peekNext: vi.fn(async () => undefined),
  getReviewDocument: vi.fn(),
  renewLease: vi.fn(),
  saveCorrections: vi.fn(),
  confirmDocument: vi.fn(),
  takeNext: vi.fn(),
  getTimeline: vi.fn(async () => ({ events: [] })),
}));
vi.mock('../../../lib/draft-store', async (importOriginal) => ({
  ...(await importOriginal<typeof DraftStore>()),
  loadDraft: vi.fn(async () => null),
  saveDraft: vi.fn(async () => undefined),
  deleteDraft: vi.fn(async () => undefined),
  createDraftWriter: () => ({ write: () => undefined }),
}));
vi.mock('./draft-base-store', () => ({
  loadDraftBase: async () => null,
  saveDraftBase: async () => undefined,
  deleteDraftBase: async () => undefined,
}));
vi.mock('../viewer/preload', () => ({
  preloadDocumentViewer: () => undefined,
  useOpenDocumentAhead: () => undefined,
  drawDocumentAhead: () => () => undefined,
  documentViewerForLazy: () => import('../viewer/document-viewer'),
}));

const ALICE = { id: 'op-alice', name: 'Alice' };
const result = extractionFixture('standard_field_types.json');
const FIELD = 'field_simple_string';
// As the operator reads it: the field by its title, the value as it is.
const MESSAGE = 'Field simple string "field_simple_string-value" does not match ^INV-';

const document: ReviewDocument = {
  id: 'D1',
  version: 5,
  apiVersion: 'v2',
  model: result.inference.model.id,
  fileName: 'invoice-1.pdf',
  alias: null,
  state: 'in_review',
  holder: ALICE,
  leaseExpiresAt: '2026-01-05T10:42:00.000Z',
  decidedBy: null,
  decidedAt: null,
  reason: null,
  priority: 0,
  fieldsTotal: 9,
  fieldsToReview: 1,
  createdAt: '2026-01-05T08:00:00.000Z',
  readyAt: '2026-01-05T08:00:05.000Z',
  upstreamJobId: null,
  upstreamResultId: null,
  uploadedBy: null,
  duplicateOf: null,
  result,
  error: null,
  corrections: {},
};

const SETTINGS = {
  apiVersion: 'v2',
  model: document.model,
  version: 1,
  routing: RoutingRules.parse({}),
  rules: BusinessRules.parse([{ id: 'fmt', kind: 'pattern', field: FIELD, pattern: '^INV-' }]),
  feedbackEnabled: false,
  updatedAt: null,
  updatedBy: null,
};

function renderRoute() {
  vi.mocked(getReviewDocument).mockResolvedValue({ document });
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  client.setQueryData(reviewKeys.session(), {
    operator: { ...ALICE, role: 'operator', hasPassword: true, createdAt: '2026-01-01T00:00:00.000Z' },
    csrfToken: 'csrf',
  });
  const location = memoryLocation({ path: '/review/D1', record: true });
  render(
    <QueryClientProvider client={client}>
      <Router hook={location.hook}>
        <ReviewDocumentRoute documentId="D1" />
      </Router>
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  vi.resetAllMocks();
  HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
    this.removeAttribute('open');
    this.dispatchEvent(new Event('close'));
  };
  // The model's settings come from the server; anything else asked of it (the kept file): 404.
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) =>
      String(input instanceof Request ? input.url : input).includes('/api/review/models/')
        ? Response.json(SETTINGS)
        : new Response('{"status":404,"title":"Not found","detail":"none","code":"404-010"}', {
            status: 404,
            headers: { 'content-type': 'application/problem+json' },
          }),
    ),
  );
  vi.mocked(renewLease).mockResolvedValue({ document });
  vi.mocked(takeNext).mockResolvedValue(undefined);
  let held = document;
  vi.mocked(saveCorrections).mockImplementation(async (_id, { version, corrections }) => {
    const kept = { ...held.corrections };
    for (const c of corrections) kept[c.path] = c.value;
    held = { ...held, version: version + 1, corrections: kept };
    return { document: held };
  });
  vi.mocked(confirmDocument).mockResolvedValue({
    document: { ...document, state: 'confirmed', holder: null, decidedBy: ALICE, version: 6 },
  });
});
afterEach(() => vi.unstubAllGlobals());

// The whole review renders in jsdom: seconds on a loaded machine. A guard against hangs only.
describe('business rules in the review', { timeout: 30_000 }, () => {
  it('marks the field of a failing rule and sums the rules up in one line that unfolds', async () => {
    renderRoute();
    const marks = await screen.findByRole('list', { name: 'Rules failing on Field simple string' });
    expect(marks).toHaveAttribute('data-field-path', FIELD);
    expect(within(marks).getByText(`Rule fails: ${MESSAGE}`)).toBeInTheDocument();
    const panel = screen.getByRole('region', { name: 'Business rules' });
    const summary = within(panel).getByRole('button', { name: /1 rule fails/ });
    expect(summary).toHaveAttribute('aria-expanded', 'false');
    expect(within(panel).queryByText(`: ${MESSAGE}`, { exact: false })).toBeNull();
    await userEvent.click(summary);
    expect(summary).toHaveAttribute('aria-expanded', 'true');
    expect(within(panel).getByText(`: ${MESSAGE}`, { exact: false })).toBeInTheDocument();
  });

  it('asks for an override reason to confirm, requires it, and sends it', async () => {
    renderRoute();
    await screen.findByRole('region', { name: 'Business rules' });
    await userEvent.click(screen.getByRole('button', { name: 'Confirm…' }));
    // Its values at Medium, Low or no confidence nobody checked: asked about first (the unchecked gate).
    const unchecked = await screen.findByRole('dialog', { name: /values? not checked$/ });
    await userEvent.click(within(unchecked).getByRole('button', { name: 'Confirm anyway' }));
    const dialog = screen.getByRole('dialog', { name: 'Confirm although a rule fails' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm anyway' }));
    expect(await within(dialog).findByText(/Say why/)).toBeInTheDocument();
    expect(confirmDocument).not.toHaveBeenCalled();
    await userEvent.type(within(dialog).getByLabelText(/Why confirm although fmt fails/), 'Old numbering');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm anyway' }));
    await waitFor(() =>
      expect(confirmDocument).toHaveBeenCalledWith('D1', 5, {
        overrideReason: 'Old numbering',
        uncheckedConfirmed: expect.any(Number),
      }),
    );
  });

  it('offers the model’s reasons for an override: the one chosen fills the reason, as sent', async () => {
    renderRoute();
    await screen.findByRole('region', { name: 'Business rules' });
    await userEvent.click(screen.getByRole('button', { name: 'Confirm…' }));
    const unchecked = await screen.findByRole('dialog', { name: /values? not checked$/ });
    await userEvent.click(within(unchecked).getByRole('button', { name: 'Confirm anyway' }));
    const dialog = screen.getByRole('dialog', { name: 'Confirm although a rule fails' });
    // The model's settings say none: its defaults are offered.
    const paper = within(dialog).getByRole('radio', { name: 'Checked against the paper original' });
    expect(paper).toHaveFocus();
    await userEvent.click(paper);
    expect(within(dialog).getByLabelText(/Why confirm although fmt fails/)).toHaveValue(
      'Checked against the paper original',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm anyway' }));
    await waitFor(() =>
      expect(confirmDocument).toHaveBeenCalledWith('D1', 5, {
        overrideReason: 'Checked against the paper original',
        uncheckedConfirmed: expect.any(Number),
      }),
    );
  });

  it('takes the mark away once a correction makes the rule pass, and confirms without a reason', async () => {
    renderRoute();
    await screen.findByRole('region', { name: 'Business rules' });
    const editor = screen.getByLabelText('Field simple string');
    await userEvent.clear(editor);
    await userEvent.type(editor, 'INV-7');
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Business rules' })).toBeNull());
    expect(screen.queryByRole('list', { name: 'Rules failing on Field simple string' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    const unchecked = await screen.findByRole('dialog', { name: /values? not checked$/ });
    await userEvent.click(within(unchecked).getByRole('button', { name: 'Confirm anyway' }));
    await waitFor(() =>
      expect(confirmDocument).toHaveBeenCalledWith('D1', expect.any(Number), {
        uncheckedConfirmed: expect.any(Number),
      }),
    );
  });
});
