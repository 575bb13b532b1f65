import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Route, Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { ProblemDetailsError } from '../../../api/errors';
import { reviewKeys } from '../../../api/keys';
import type * as Endpoints from '../../../api/review/endpoints';
import {
  confirmDocument,
  getReviewDocument,
  peekNext,
  rejectDocument,
  renewLease,
  saveCorrections,
  takeDocument,
  takeNext,
} from '../../../api/review/endpoints';
import type {
  OperatorRef,
  ReviewDocument,
  SessionResponse,
} from '@extraction-review/contract/review/schemas';
import { ReviewDocumentRoute } from '../../../app/review-document-route';
import type * as DraftStore from '../../../lib/draft-store';
import { deleteDraft, loadDraft } from '../../../lib/draft-store';
import { extractionFixture } from '@extraction-review/test-kit/recorded-results';
import { moveOnStore } from './move-on';

vi.mock('../../../api/review/endpoints', async (importOriginal) => ({
  ...(await importOriginal<typeof Endpoints>()),
  // Which document is next, asked by the review to prefetch it (use-next-ahead.ts): none here.
  peekNext: vi.fn(async () => undefined),
  getReviewDocument: vi.fn(),
  takeDocument: vi.fn(),
  renewLease: vi.fn(),
  saveCorrections: vi.fn(),
  confirmDocument: vi.fn(),
  rejectDocument: vi.fn(),
  takeNext: vi.fn(),
  getTimeline: vi.fn(async () => ({ events: [] })),
}));
// jsdom has no IndexedDB: the drafts live in memory here.
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

const ALICE: OperatorRef = { id: 'op-alice', name: 'Alice' };
const BOB: OperatorRef = { id: 'op-bob', name: 'Bob' };
const result = extractionFixture('standard_field_types.json');
const FIELD = 'field_simple_string';
/** Its editor's name: the field's title (no data schema here: its name made human). */
const FIELD_TITLE = 'Field simple string';

function reviewDocument(overrides: Partial<ReviewDocument> = {}): ReviewDocument {
  return {
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
    ...overrides,
  };
}

const signedIn = (role: 'admin' | 'operator' = 'operator'): SessionResponse => ({
  operator: { ...ALICE, name: 'Alice', role, hasPassword: true, createdAt: '2026-01-01T00:00:00.000Z' },
  csrfToken: 'csrf',
});

function renderRoute(document: ReviewDocument, role: 'admin' | 'operator' = 'operator', search = '') {
  vi.mocked(getReviewDocument).mockResolvedValue({ document });
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  client.setQueryData(reviewKeys.session(), signedIn(role));
  const location = memoryLocation({ path: `/review/${document.id}`, searchPath: search, record: true });
  render(
    <QueryClientProvider client={client}>
      <Router hook={location.hook} searchHook={location.searchHook}>
        <ReviewDocumentRoute documentId={document.id} />
      </Router>
    </QueryClientProvider>,
  );
  return { client, url: () => location.history.at(-1) ?? '' };
}

const problem = (status: number, code: string, detail: string) =>
  new ProblemDetailsError({ status, code, title: 'Refused', detail, errors: [] }, { endpoint: 'PUT /x' });

/** The review store's PUT: the latest value per path kept, the version moved on. */
/** The field's whole value replaced in one input event (selected, then pasted over). */
async function replaceValue(editor: HTMLElement, value: string) {
  await userEvent.click(editor);
  (editor as HTMLInputElement).select();
  await userEvent.paste(value);
}

function keepCorrections(start: ReviewDocument) {
  let held = start;
  vi.mocked(saveCorrections).mockImplementation(async (_id, { version, corrections }) => {
    const kept = { ...held.corrections };
    for (const c of corrections) kept[c.path] = c.value;
    held = { ...held, version: version + 1, corrections: kept };
    return { document: held };
  });
}

beforeEach(() => {
  vi.resetAllMocks();
  // jsdom has no modal dialogs (the reasons', the unchecked values'): open and close as the browser's do.
  HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
    this.removeAttribute('open');
    this.dispatchEvent(new Event('close'));
  };
  vi.mocked(loadDraft).mockResolvedValue(null);
  keepCorrections(reviewDocument());
  // The kept file and anything else asked of the server: 404 (the review shows the values alone).
  vi.stubGlobal(
    'fetch',
    vi.fn(
      async () =>
        new Response('{"status":404,"title":"Not found","detail":"none","code":"404-010"}', {
          status: 404,
          headers: { 'content-type': 'application/problem+json' },
        }),
    ),
  );
  vi.mocked(renewLease).mockImplementation(async () => ({ document: reviewDocument() }));
});
afterEach(() => {
  vi.unstubAllGlobals();
  moveOnStore.set({ taking: null, failed: null, notice: null, takeFailed: null });
});

describe('ReviewDocumentRoute', () => {
  it('held by me: editable, each correction saved on the version read', async () => {
    renderRoute(reviewDocument());
    const editor = await screen.findByLabelText(FIELD_TITLE);
    expect(editor).toBeEnabled();
    expect(screen.getByRole('button', { name: /Confirm and next/ })).toBeInTheDocument();
    expect(screen.getByText('All changes saved')).toHaveAttribute('role', 'status');
    await waitFor(() => expect(renewLease).toHaveBeenCalledWith('D1'));

    // One input event: saves wait for a pause in the typing, and a loaded machine types slowly.
    await replaceValue(editor, 'fixed');
    await waitFor(() => expect(saveCorrections).toHaveBeenCalled(), { timeout: 3000 });
    expect(saveCorrections).toHaveBeenCalledTimes(1);
    expect(vi.mocked(saveCorrections).mock.calls[0]?.[1]).toEqual({
      version: 5,
      corrections: [{ path: FIELD, value: 'fixed' }],
    });
    await waitFor(() => expect(screen.getByText('All changes saved')).toBeInTheDocument());
  });

  it('lays the local draft over the server’s corrections and sends what differs', async () => {
    vi.mocked(loadDraft).mockResolvedValueOnce({
      values: { [FIELD]: 'from the draft' },
      removed: [],
      added: {},
      reviewed: [],
      updatedAt: '2026-01-05T10:00:00.000Z',
    });
    const held = reviewDocument({ corrections: { field_simple_int: 7 } });
    keepCorrections(held);
    renderRoute(held);
    expect(await screen.findByLabelText(FIELD_TITLE)).toHaveValue('from the draft');
    expect(screen.getByLabelText('Field simple int')).toHaveValue('7');
    await waitFor(() =>
      expect(saveCorrections).toHaveBeenCalledWith('D1', {
        version: 5,
        corrections: [{ path: FIELD, value: 'from the draft' }],
      }),
    );
  });

  it('held by another: read-only, with who holds it and until when', async () => {
    renderRoute(reviewDocument({ holder: BOB }));
    expect(await screen.findByText(/^Bob is reviewing this document \(until .+\)\.$/)).toBeInTheDocument();
    expect(await screen.findByLabelText(FIELD_TITLE)).toBeDisabled();
    expect(screen.queryByRole('button', { name: /Confirm/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Review this document' })).toBeNull();
    expect(renewLease).not.toHaveBeenCalled();
  });

  it('waiting: a read-only preview, then editable once taken', async () => {
    vi.mocked(takeDocument).mockResolvedValue({ document: reviewDocument({ version: 6 }) });
    renderRoute(reviewDocument({ state: 'to_review', holder: null, leaseExpiresAt: null }));
    expect(await screen.findByLabelText(FIELD_TITLE)).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Review this document' }));
    expect(takeDocument).toHaveBeenCalledWith('D1');
    await waitFor(() => expect(screen.getByLabelText(FIELD_TITLE)).toBeEnabled());
    expect(screen.getByRole('button', { name: /Confirm and next/ })).toBeInTheDocument();
  });

  it('decided: read-only with who decided, when and why; admins may reopen', async () => {
    renderRoute(
      reviewDocument({
        state: 'rejected',
        holder: null,
        leaseExpiresAt: null,
        decidedBy: BOB,
        decidedAt: '2026-01-05T11:00:00.000Z',
        reason: 'Not an invoice',
      }),
      'admin',
    );
    expect(await screen.findByText(/^Rejected by Bob on .+: Not an invoice$/)).toBeInTheDocument();
    expect(await screen.findByLabelText(FIELD_TITLE)).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Reopen' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Review this document' })).toBeNull();
  });

  it('a stale save shows what changed on the server beside the operator’s value; "Keep mine" resends', async () => {
    vi.mocked(saveCorrections).mockRejectedValueOnce(problem(409, '409-001', 'The document changed.'));
    renderRoute(reviewDocument());
    const editor = await screen.findByLabelText(FIELD_TITLE);
    vi.mocked(getReviewDocument).mockResolvedValue({
      document: reviewDocument({ version: 8, corrections: { [FIELD]: 'their value' } }),
    });
    await replaceValue(editor, 'my value');

    const table = await screen.findByRole('table', { name: 'What changed on the server' }, { timeout: 3000 });
    // The field by its title, as its row names it; the API path on hover.
    const row = within(table).getByRole('row', { name: new RegExp(FIELD_TITLE) });
    expect(within(row).getByRole('rowheader')).toHaveAttribute('title', FIELD);
    expect(row).toHaveTextContent('my value');
    expect(row).toHaveTextContent('their value');
    expect(screen.getAllByRole('alert').some((a) => a.textContent?.includes('409-001'))).toBe(true);

    await userEvent.click(screen.getByRole('button', { name: 'Keep mine' }));
    await waitFor(() =>
      expect(saveCorrections).toHaveBeenLastCalledWith('D1', {
        version: 8,
        corrections: [{ path: FIELD, value: 'my value' }],
      }),
    );
    expect(screen.queryByRole('table', { name: 'What changed on the server' })).toBeNull();
  });

  it('a save refused for a lost hold makes the review read-only, names the holder, keeps the draft', async () => {
    vi.mocked(saveCorrections).mockRejectedValueOnce(
      problem(403, '403-006', 'Bob is reviewing this document (until 2026-01-05T10:52:00.000Z).'),
    );
    renderRoute(reviewDocument());
    const editor = await screen.findByLabelText(FIELD_TITLE);
    vi.mocked(getReviewDocument).mockResolvedValue({
      document: reviewDocument({ version: 7, holder: BOB, leaseExpiresAt: '2026-01-05T10:52:00.000Z' }),
    });
    await userEvent.type(editor, '!');
    const status = await screen.findByRole('region', { name: 'Status' }, { timeout: 3000 });
    await waitFor(() => expect(status).toHaveTextContent(/Bob is reviewing this document \(until \d/));
    expect(screen.getByLabelText(FIELD_TITLE)).toBeDisabled();
    expect(screen.getAllByRole('alert').some((a) => /kept in this browser/.test(a.textContent ?? ''))).toBe(
      true,
    );
    expect(deleteDraft).not.toHaveBeenCalled();
  });

  it('"Confirm and next" confirms on the version read, then opens the next document', async () => {
    const next = reviewDocument({ id: 'D2', fileName: 'invoice-2.pdf' });
    vi.mocked(confirmDocument).mockResolvedValue({
      document: reviewDocument({ state: 'confirmed', holder: null, decidedBy: ALICE, version: 6 }),
    });
    vi.mocked(takeNext).mockResolvedValue(next);
    // Taken from a filtered queue (issue 21): the next document is of the same filters, which it keeps.
    const { client, url } = renderRoute(reviewDocument(), 'operator', 'state=to_review&model=receipts');
    await userEvent.click(await screen.findByRole('button', { name: /Confirm and next/ }));
    // Its values at Medium, Low or no confidence are not checked: asked once (the unchecked-values gate).
    await userEvent.click(await screen.findByRole('button', { name: 'Confirm anyway' }));
    await waitFor(() => expect(url()).toBe('/review/D2?state=to_review&model=receipts'));
    expect(takeNext).toHaveBeenCalledWith({ state: 'to_review', model: 'receipts' });
    expect(confirmDocument).toHaveBeenCalledWith('D1', 5, { uncheckedConfirmed: expect.any(Number) });
    expect(client.getQueryData(reviewKeys.document('D2'))).toEqual({ document: next });
  });

  it('Ctrl+Enter confirms and goes back to the queue when nothing is left', async () => {
    vi.mocked(confirmDocument).mockResolvedValue({
      document: reviewDocument({ state: 'confirmed', holder: null, decidedBy: ALICE, version: 6 }),
    });
    vi.mocked(takeNext).mockResolvedValue(undefined);
    const { url } = renderRoute(reviewDocument());
    await userEvent.click(await screen.findByLabelText(FIELD_TITLE));
    await userEvent.keyboard('{Control>}{Enter}{/Control}');
    await userEvent.click(await screen.findByRole('button', { name: 'Confirm anyway' }));
    await waitFor(() => expect(url()).toBe('/queue'));
    expect(confirmDocument).toHaveBeenCalledTimes(1);
  });

  it('a rejection asks for its reason first', async () => {
    HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
      this.setAttribute('open', '');
    };
    HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
      this.removeAttribute('open');
      this.dispatchEvent(new Event('close'));
    };
    vi.mocked(rejectDocument).mockResolvedValue({
      document: reviewDocument({ state: 'rejected', holder: null, decidedBy: ALICE, reason: 'Blurred' }),
    });
    vi.mocked(takeNext).mockResolvedValue(undefined);
    const { url } = renderRoute(reviewDocument());
    await userEvent.click(await screen.findByRole('button', { name: 'Reject…' }));
    await userEvent.click(screen.getByRole('button', { name: 'Reject' }));
    expect(await screen.findByText(/Say why/)).toBeInTheDocument();
    expect(rejectDocument).not.toHaveBeenCalled();
    await userEvent.type(screen.getByLabelText(/Why is it rejected/), 'Blurred');
    await userEvent.click(screen.getByRole('button', { name: 'Reject' }));
    await waitFor(() => expect(rejectDocument).toHaveBeenCalledWith('D1', 5, 'Blurred'));
    // Rejected, the review moves on to the queue's next document (issue 21), or back to the queue.
    await waitFor(() => expect(url()).toBe('/queue'));
    expect(takeNext).toHaveBeenCalledTimes(1);
  });

  it('a result that does not parse is explained, not a crash', async () => {
    renderRoute(reviewDocument({ result: { inference: { id: 42 } } }));
    expect(await screen.findByText(/The stored result is not a v2 extraction result/)).toBeInTheDocument();
  });
});

/** The review route by the address, as the app has it: a move on opens another document's page. */
function renderRoutes(documents: ReviewDocument[]) {
  vi.mocked(getReviewDocument).mockImplementation(async (id) => {
    const document = documents.find((d) => d.id === id);
    if (!document) throw problem(404, '404-010', 'No such document.');
    return { document };
  });
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  client.setQueryData(reviewKeys.session(), signedIn());
  const location = memoryLocation({ path: `/review/${documents[0]?.id ?? ''}`, record: true });
  render(
    <QueryClientProvider client={client}>
      <Router hook={location.hook} searchHook={location.searchHook}>
        <Route path="/review/:id">{(params) => <ReviewDocumentRoute documentId={params.id} />}</Route>
      </Router>
    </QueryClientProvider>,
  );
  return { client, history: () => [...location.history] };
}

function deferred<T>() {
  let resolve: (value: T) => void = () => undefined;
  let reject: (error: unknown) => void = () => undefined;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** D2, waiting, next in the queue: its value tells its review from D1's. */
const waitingNext = (overrides: Partial<ReviewDocument> = {}) =>
  reviewDocument({
    id: 'D2',
    fileName: 'invoice-2.pdf',
    state: 'to_review',
    holder: null,
    leaseExpiresAt: null,
    corrections: { [FIELD]: 'second' },
    ...overrides,
  });

/** Until the review of D1 has made D2 ready ahead: its record and (no) file in the cache. */
async function readyAhead(client: QueryClient) {
  await waitFor(
    () => {
      expect(client.getQueryData(reviewKeys.document('D2'))).toBeDefined();
      expect(client.getQueryData(reviewKeys.file('D2'))).toBeDefined();
    },
    { timeout: 3000 },
  );
}

// Several round trips through the whole review each: more than the default 5 s on a loaded machine.
describe('moving on to the next document ready ahead (issue 21)', { timeout: 30_000 }, () => {
  it('Reject opens it before the decision and the take answer, read-only and "Taking…", then editable', async () => {
    vi.mocked(peekNext).mockResolvedValue('D2');
    const rejected = deferred<{ document: ReviewDocument }>();
    const taken = deferred<ReviewDocument | undefined>();
    vi.mocked(rejectDocument).mockReturnValue(rejected.promise);
    vi.mocked(takeNext).mockReturnValue(taken.promise);
    const { client, history } = renderRoutes([reviewDocument(), waitingNext()]);
    expect(await screen.findByLabelText(FIELD_TITLE)).toBeEnabled();
    await readyAhead(client);

    await userEvent.click(screen.getByRole('button', { name: 'Reject…' }));
    await userEvent.type(screen.getByLabelText(/Why is it rejected/), 'Blurred');
    await userEvent.click(screen.getByRole('button', { name: 'Reject' }));

    // D2 is shown at once, its values read-only: neither the rejection nor the take has answered.
    await waitFor(() => expect(history()).toEqual(['/review/D1', '/review/D2']));
    expect(await screen.findByText('Taking this document…')).toBeInTheDocument();
    expect(screen.getByLabelText(FIELD_TITLE)).toHaveValue('second');
    expect(screen.getByLabelText(FIELD_TITLE)).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Release' })).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Review this document' })).toBeNull();
    expect(rejectDocument).toHaveBeenCalledWith('D1', 5, 'Blurred');
    expect(takeNext).not.toHaveBeenCalled();

    // Rejected, then taken: D2 is the operator's, editable.
    rejected.resolve({ document: reviewDocument({ state: 'rejected', holder: null, reason: 'Blurred' }) });
    await waitFor(() => expect(takeNext).toHaveBeenCalledTimes(1));
    expect(screen.getByText('Taking this document…')).toBeInTheDocument();
    taken.resolve(waitingNext({ state: 'in_review', holder: ALICE, version: 6 }));
    await waitFor(() => expect(screen.getByLabelText(FIELD_TITLE)).toBeEnabled());
    expect(screen.getByLabelText(FIELD_TITLE)).toHaveValue('second');
    expect(screen.queryByText('Taking this document…')).toBeNull();
    expect(history()).toEqual(['/review/D1', '/review/D2']);
    expect(client.getQueryData(reviewKeys.document('D1'))).toMatchObject({ document: { state: 'rejected' } });
  });

  it('a refused decision goes back to the document decided, the correction kept, the problem shown', async () => {
    vi.mocked(peekNext).mockResolvedValue('D2');
    const confirmed = deferred<{ document: ReviewDocument }>();
    vi.mocked(confirmDocument).mockReturnValue(confirmed.promise);
    const { client, history } = renderRoutes([reviewDocument(), waitingNext()]);
    await replaceValue(await screen.findByLabelText(FIELD_TITLE), 'mine');
    await waitFor(() => expect(screen.getByText('All changes saved')).toBeInTheDocument(), { timeout: 3000 });
    await readyAhead(client);

    await userEvent.click(screen.getByRole('button', { name: /Confirm and next/ }));
    await userEvent.click(await screen.findByRole('button', { name: 'Confirm anyway' }));
    await waitFor(() => expect(history().at(-1)).toBe('/review/D2'));
    expect(await screen.findByText('Taking this document…')).toBeInTheDocument();
    // Saved first, as always, then decided on the version the save gave.
    expect(confirmDocument).toHaveBeenCalledWith('D1', 6, { uncheckedConfirmed: expect.any(Number) });

    confirmed.reject(problem(422, '422-009', 'The rule total_matches fails.'));
    await waitFor(() => expect(history().at(-1)).toBe('/review/D1'));
    expect(await screen.findByText(/The rule total_matches fails\./)).toBeInTheDocument();
    expect(screen.getByText(/Nothing was decided/)).toBeInTheDocument();
    expect(await screen.findByLabelText(FIELD_TITLE)).toBeEnabled();
    expect(screen.getByLabelText(FIELD_TITLE)).toHaveValue('mine');
    expect(takeNext).not.toHaveBeenCalled();
  });

  it('another document given by the take replaces the one shown, and says who took it', async () => {
    vi.mocked(peekNext).mockResolvedValue('D2');
    vi.mocked(confirmDocument).mockResolvedValue({
      document: reviewDocument({ state: 'confirmed', holder: null, decidedBy: ALICE, version: 6 }),
    });
    const other = reviewDocument({ id: 'D3', fileName: 'invoice-3.pdf', corrections: { [FIELD]: 'third' } });
    const documents = [reviewDocument(), waitingNext(), other];
    vi.mocked(takeNext).mockImplementation(async () => {
      // Bob took D2 a moment before.
      documents[1] = waitingNext({ state: 'in_review', holder: BOB });
      return other;
    });
    const { client, history } = renderRoutes(documents);
    await screen.findByLabelText(FIELD_TITLE);
    await readyAhead(client);

    await userEvent.click(screen.getByRole('button', { name: /Confirm and next/ }));
    await userEvent.click(await screen.findByRole('button', { name: 'Confirm anyway' }));
    // D3 in D2's place: Back leads to D1.
    await waitFor(() => expect(history()).toEqual(['/review/D1', '/review/D3']));
    expect(
      await screen.findByText('Bob took invoice-2.pdf meanwhile; here is the next one.'),
    ).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText(FIELD_TITLE)).toBeEnabled());
    expect(screen.getByLabelText(FIELD_TITLE)).toHaveValue('third');
  });

  it('nothing left to take: to the queue, as without a document ahead', async () => {
    vi.mocked(peekNext).mockResolvedValue('D2');
    vi.mocked(rejectDocument).mockResolvedValue({
      document: reviewDocument({ state: 'rejected', holder: null, reason: 'Blurred' }),
    });
    vi.mocked(takeNext).mockResolvedValue(undefined);
    const { client, history } = renderRoutes([reviewDocument(), waitingNext()]);
    await screen.findByLabelText(FIELD_TITLE);
    await readyAhead(client);
    await userEvent.click(screen.getByRole('button', { name: 'Reject…' }));
    await userEvent.type(screen.getByLabelText(/Why is it rejected/), 'Blurred');
    await userEvent.click(screen.getByRole('button', { name: 'Reject' }));
    await waitFor(() => expect(history()).toEqual(['/review/D1', '/queue']));
  });
});
