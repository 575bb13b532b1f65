/**
 * Two operators work one queue from two browsers: each gets a different document; one corrects (the
 * correction kept across a reload) and confirms, and the other sees it leave the queue at once; a
 * stale edit (the same document open in two tabs) is refused and explained; an admin reads the
 * document's history. Documents go through the real upload route and the reference service.
 */
import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { expectAccessible, keepScreenshot } from './support/artifacts';
import { valueOf } from './support/review-journey';
import { addOperator, csrfHeader, enqueuePdf, NOBODY, signIn, uniqueName } from './support/team';
import { invoicePdf } from './support/upload-documents';
import { INVOICE_MODEL_ID } from './support/upload-steps';
import { confirmThroughGate } from './support/confirm-through-gate';

interface Listed {
  id: string;
  fileName: string;
  state: string;
}

async function listQueue(request: APIRequestContext, query: string): Promise<Listed[]> {
  const response = await request.get(`/api/review/documents?${query}`);
  expect(response.status()).toBe(200);
  return ((await response.json()) as { documents: Listed[] }).documents;
}

/** Every document other journeys left waiting is confirmed, so that "next" gives ours. */
async function clearQueue(request: APIRequestContext): Promise<void> {
  const headers = await csrfHeader(request);
  for (;;) {
    const next = await request.post('/api/review/next', { headers });
    if (next.status() === 204) return;
    const { document } = (await next.json()) as { document: { id: string; version: number } };
    const confirmed = await request.post(`/api/review/documents/${document.id}/confirm`, {
      headers,
      data: { version: document.version },
    });
    expect(confirmed.status()).toBe(200);
  }
}

async function operatorPage(browser: Browser, name: string): Promise<Page> {
  const context = await browser.newContext({ storageState: NOBODY });
  const page = await context.newPage();
  await signIn(page, name);
  return page;
}

/**
 * Start reviewing from the queue filtered to this journey's batch: it takes a document of the batch
 * only (issue 21), whatever earlier journeys' uploads still come into the shared queue.
 */
async function startReviewing(page: Page, batch: string): Promise<string> {
  await page.goto(`/queue?q=${encodeURIComponent(batch)}`);
  await page.getByRole('button', { name: 'Start reviewing' }).click();
  await expect(page).toHaveURL(/\/review\/[0-9a-f-]{36}(\?.*)?$/);
  await expect(valueOf(page, 'invoice_number')).toBeVisible({ timeout: 30_000 });
  return new URL(page.url()).pathname.split('/').at(-1) ?? '';
}

test('two operators share one queue: different documents, live updates, stale edits refused, history', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const alice = uniqueName('Alice');
  const bob = uniqueName('Bob');
  await addOperator(alice, 'operator');
  await addOperator(bob, 'operator');

  // Two invoices, sent as the app sends them (the run's admin is signed in on `page`).
  await clearQueue(page.request);
  const batch = uniqueName('queue');
  for (const n of [1, 2]) {
    const pdf = await invoicePdf({ invoiceNumber: `Q-${n}000`, total: `${n}00.00` });
    await enqueuePdf(page.request, { name: `${batch}-${n}.pdf`, buffer: Buffer.from(pdf) }, INVOICE_MODEL_ID);
  }
  await expect(async () => {
    const ours = await listQueue(page.request, `q=${batch}&state=to_review`);
    expect(ours).toHaveLength(2);
  }).toPass({ timeout: 60_000 });

  // Each operator gets a document of their own.
  const alicePage = await operatorPage(browser, alice);
  const bobPage = await operatorPage(browser, bob);
  const aliceDoc = await startReviewing(alicePage, batch);
  const bobDoc = await startReviewing(bobPage, batch);
  expect(aliceDoc).not.toBe(bobDoc);
  const ours = await listQueue(page.request, `q=${batch}`);
  expect(ours.map((d) => d.id).sort()).toEqual([aliceDoc, bobDoc].sort());
  expect(ours.every((d) => d.state === 'in_review')).toBe(true);
  await expectAccessible(alicePage, 'queue-review');

  // Bob also has the queue open in another tab: Alice's document is in review there.
  const bobQueue = await bobPage.context().newPage();
  await bobQueue.goto(`/queue?q=${batch}`);
  const aliceRow = bobQueue
    .getByRole('row')
    .filter({ has: bobQueue.getByRole('link', { name: /-\d\.pdf$/ }) })
    .filter({ hasText: alice });
  await expect(aliceRow).toContainText(/in review/i);
  await keepScreenshot(bobQueue, 'team-queue-two-operators');

  // Alice corrects a value: saved to the server, and still there after a reload.
  await valueOf(alicePage, 'invoice_number').fill('Q-ALICE');
  await expect(alicePage.getByText('All changes saved')).toBeVisible({ timeout: 15_000 });
  await alicePage.reload();
  await expect(valueOf(alicePage, 'invoice_number')).toHaveValue('Q-ALICE', { timeout: 30_000 });

  // She confirms; Bob's queue tab shows it confirmed without being reloaded: the event makes it read
  // that one row (no poll while its event stream is open, issue 22).
  const rowRead = bobQueue.waitForResponse(
    async (response) =>
      response.url().endsWith(`/api/review/documents/${aliceDoc}/row`) &&
      response.ok() &&
      ((await response.json()) as { document: { state: string } }).document.state === 'confirmed',
  );
  await confirmThroughGate(alicePage);
  await expect(alicePage.getByText(/confirmed/i).first()).toBeVisible();
  const confirmedRow = bobQueue
    .getByRole('row')
    .filter({ hasText: /confirmed/i })
    .filter({ hasText: alice });
  await expect(confirmedRow).toBeVisible({ timeout: 8_000 });
  await rowRead;

  // Bob has his document open twice; an edit made in the first tab makes the second one's stale.
  const secondTab = await bobPage.context().newPage();
  await secondTab.goto(`/review/${bobDoc}`);
  await expect(valueOf(secondTab, 'invoice_number')).toBeVisible({ timeout: 30_000 });
  await valueOf(bobPage, 'invoice_number').fill('Q-BOB-FIRST');
  await expect(bobPage.getByText('All changes saved')).toBeVisible({ timeout: 15_000 });
  await valueOf(secondTab, 'invoice_number').fill('Q-BOB-SECOND');
  await expect(secondTab.getByText(/changed since you read it/i).first()).toBeVisible({ timeout: 15_000 });
  await expect(secondTab.getByRole('button', { name: 'Keep mine' })).toBeVisible();
  await keepScreenshot(secondTab, 'team-queue-stale-edit');
  // What changed, field by field: by the field's title (the model's data schema), its path on hover.
  await secondTab.getByText('What changed, and what each choice does').click();
  const changed = secondTab.getByRole('table', { name: 'What changed on the server' });
  const changedRow = changed.getByRole('row', { name: /^Invoice Number/ });
  await expect(changedRow).toContainText('Q-BOB-SECOND');
  await expect(changedRow).toContainText('Q-BOB-FIRST');
  await expect(changedRow.getByRole('rowheader')).toHaveAttribute('title', 'invoice_number');
  await keepScreenshot(secondTab, 'team-queue-stale-edit-changes');
  await secondTab.setViewportSize({ width: 1280, height: 720 });
  await keepScreenshot(secondTab, 'team-queue-stale-edit-changes-1280');

  // The admin reads Alice's document's history: taken, corrected, confirmed, by her.
  await page.goto(`/review/${aliceDoc}`);
  await page.getByRole('tab', { name: 'History' }).click();
  const history = page.getByRole('list').filter({ hasText: /confirmed/i });
  await expect(history).toContainText(alice);
  await expect(history).toContainText('Q-ALICE');
  await expect(page.getByRole('link', { name: /Download CSV/i })).toBeVisible();
  await keepScreenshot(page, 'team-queue-history');

  await alicePage.context().close();
  await bobPage.context().close();
});

test('the queue follows the operator: Start reviewing takes a document of the filters, Reject moves on, Release keeps the filters', async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  const carol = uniqueName('Carol');
  await addOperator(carol, 'operator');

  // Two invoices the filter shows, and one it does not, made the most urgent: unfiltered, "next"
  // would take it first.
  const batch = uniqueName('follow');
  for (const name of [`${batch}-mine-1.pdf`, `${batch}-mine-2.pdf`, `${batch}-other.pdf`]) {
    const pdf = await invoicePdf({ invoiceNumber: `F-${name.length}`, total: '10.00' });
    await enqueuePdf(page.request, { name, buffer: Buffer.from(pdf) }, INVOICE_MODEL_ID);
  }
  let other: Listed | undefined;
  await expect(async () => {
    const ours = await listQueue(page.request, `q=${batch}&state=to_review`);
    expect(ours).toHaveLength(3);
    other = ours.find((d) => d.fileName.endsWith('-other.pdf'));
  }).toPass({ timeout: 60_000 });
  const urgent = await page.request.post(`/api/review/documents/${other?.id ?? ''}/priority`, {
    headers: await csrfHeader(page.request),
    data: { priority: 1000 },
  });
  expect(urgent.status()).toBe(200);

  // The queue filtered to "To review" and our two: the counts are the filter's.
  const carolPage = await operatorPage(browser, carol);
  // The kept files Carol's page asks for, in order (the review prefetches the next document's).
  const files: string[] = [];
  carolPage.on('request', (request) => {
    const match = /^\/api\/review\/documents\/([^/]+)\/file$/.exec(new URL(request.url()).pathname);
    if (match?.[1]) files.push(match[1]);
  });
  const asked = (id: string | undefined) => files.filter((f) => f === id).length;
  const filters = `state=to_review&q=${batch}-mine`;
  await carolPage.goto(`/queue?${filters}`);
  const counts = carolPage.getByRole('group', { name: 'Show documents by state' });
  await expect(counts.getByRole('button', { name: /To review/ })).toContainText('2');
  await expect(counts.getByRole('button', { name: /^All/ })).toContainText('2');

  // Start reviewing takes one of the filter's documents (not the urgent other one), and keeps the filters.
  const reviewUrl = new RegExp(`/review/([0-9a-f-]{36})\\?${filters.replace(/[?]/g, '\\?')}$`);
  await carolPage.getByRole('button', { name: 'Start reviewing' }).click();
  await expect(carolPage).toHaveURL(reviewUrl);
  await expect(valueOf(carolPage, 'invoice_number')).toBeVisible({ timeout: 30_000 });
  const first = reviewUrl.exec(carolPage.url())?.[1];
  expect(first).not.toBe(other?.id);
  // While it is reviewed, the filter's next document is made ready: its file asked for before any
  // decision (the urgent one the filter does not show never is).
  const following = (await listQueue(page.request, filters)).find((d) => d.id !== first)?.id;
  await expect.poll(() => asked(following), { timeout: 30_000 }).toBe(1);

  // Reject moves on to the filter's other document, as Confirm and next does.
  await carolPage.getByRole('button', { name: 'Reject…' }).click();
  await carolPage.getByLabel(/Why is it rejected/).fill('Not ours');
  await carolPage.getByRole('dialog').getByRole('button', { name: 'Reject', exact: true }).click();
  await expect(carolPage).not.toHaveURL(new RegExp(first ?? 'none'));
  await expect(carolPage).toHaveURL(reviewUrl);
  const second = reviewUrl.exec(carolPage.url())?.[1];
  expect([first, other?.id]).not.toContain(second);
  await expect(valueOf(carolPage, 'invoice_number')).toBeVisible({ timeout: 30_000 });
  // Shown as soon as Reject was pressed (it was ready ahead), editable once the take gave it (issue 21).
  await expect(valueOf(carolPage, 'invoice_number')).toBeEnabled({ timeout: 15_000 });
  await expect(carolPage.getByText('Taking this document…')).toHaveCount(0);
  // The take gave the document prefetched: its review drew the file already in the page, not asked again.
  expect(second).toBe(following);
  expect(asked(second)).toBe(1);
  expect(asked(other?.id)).toBe(0);
  await keepScreenshot(carolPage, 'team-queue-filtered-review');

  // Release goes back to the queue as it was filtered.
  await carolPage.getByRole('button', { name: 'Release' }).click();
  await expect(carolPage).toHaveURL(new RegExp(`/queue\\?${filters}$`));
  await expect(counts.getByRole('button', { name: /To review/ })).toContainText('1');
  const ours = await listQueue(page.request, `q=${batch}`);
  expect(ours.find((d) => d.id === first)?.state).toBe('rejected');
  expect(ours.find((d) => d.id === other?.id)?.state).toBe('to_review');

  await carolPage.context().close();
});
