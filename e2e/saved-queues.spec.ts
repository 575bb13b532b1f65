/**
 * A saved filter is a queue (issue 21): an admin filters the team queue by amount, saves the filters
 * as "Invoices over 10,000", and the saved queue shows how many of its documents wait; opened from
 * "All documents", it puts its filters back; its amount changed, the admin saves the change to it;
 * Start reviewing takes one of its documents, never the small invoice beside them. The invoices go through the real upload route and the reference
 * service, which reads their totals.
 */
import { expect, test, type APIRequestContext } from '@playwright/test';
import { expectAccessible, keepScreenshot } from './support/artifacts';
import { restoring } from './support/restoring';
import { valueOf } from './support/review-journey';
import { csrfHeader, enqueuePdf, uniqueName } from './support/team';
import { invoicePdf } from './support/upload-documents';
import { INVOICE_MODEL_ID } from './support/upload-steps';

interface Listed {
  id: string;
  fileName: string;
}

async function listQueue(request: APIRequestContext, query: string): Promise<Listed[]> {
  const response = await request.get(`/api/review/documents?${query}`);
  expect(response.status()).toBe(200);
  return ((await response.json()) as { documents: Listed[] }).documents;
}

/** Deletes the journey's saved queue, so that other journeys' queue pages do not show it. */
async function deleteQueue(request: APIRequestContext, name: string): Promise<void> {
  const listed = (await (await request.get('/api/review/queues')).json()) as {
    queues: { id: string; name: string }[];
  };
  for (const queue of listed.queues.filter((q) => q.name === name)) {
    const deleted = await request.delete(`/api/review/queues/${queue.id}`, {
      headers: await csrfHeader(request),
    });
    expect(deleted.status()).toBe(204);
  }
}

test('a saved filter is a queue: its waiting count, its filters back in one click, Start reviewing takes from it', async ({
  page,
}) => {
  test.setTimeout(150_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  const batch = uniqueName('amounts');
  for (const [name, total] of [
    [`${batch}-big-1.pdf`, '12500.00'],
    [`${batch}-big-2.pdf`, '10400.50'],
    [`${batch}-small.pdf`, '250.00'],
  ] as const) {
    const pdf = await invoicePdf({ invoiceNumber: `AM-${total}`, total });
    await enqueuePdf(page.request, { name, buffer: Buffer.from(pdf) }, INVOICE_MODEL_ID);
  }
  await expect(async () => {
    expect(await listQueue(page.request, `q=${batch}&state=to_review`)).toHaveLength(3);
  }).toPass({ timeout: 90_000 });
  const queueName = `Invoices over 10,000 (${batch})`;

  await restoring(
    async () => {
      // The admin filters by the journey's batch, then by amount: the counts follow the filter.
      await page.goto(`/queue?q=${batch}`);
      const counts = page.getByRole('group', { name: 'Show documents by state' });
      await expect(counts.getByRole('button', { name: /^All/ })).toContainText('3');
      // The amount is among the filters folded away, the table kept high: unfolded on demand.
      const more = page.getByRole('button', { name: /^More filters/ });
      await expect(more).toHaveAttribute('aria-expanded', 'false');
      await keepScreenshot(page, 'queue-filters-closed-1280');
      await more.click();
      await page.getByLabel('Amount from').fill('10000');
      await expect(page).toHaveURL(/minAmount=10000/);
      await expect(counts.getByRole('button', { name: /^All/ })).toContainText('2');

      // Saved under a name: the saved queue is the current one, with its two documents waiting.
      await page.getByRole('button', { name: 'Save as a queue…' }).click();
      await page.getByLabel('Queue name').fill(queueName);
      await page.getByRole('button', { name: 'Save queue' }).click();
      const saved = page.getByRole('navigation', { name: 'Saved queues' });
      const link = saved.getByRole('link', { name: new RegExp(queueName.replace(/[()]/g, '\\$&')) });
      await expect(link).toHaveAttribute('aria-current', 'page');
      await expect(link).toContainText('2');
      await expectAccessible(page, 'queue with a saved queue');
      await keepScreenshot(page, 'saved-queue-1280');
      await page.setViewportSize({ width: 1440, height: 900 });
      await keepScreenshot(page, 'saved-queue-1440');
      await page.setViewportSize({ width: 1280, height: 720 });

      // From "All documents", one click puts the queue's filters back.
      await saved.getByRole('link', { name: 'All documents' }).click();
      await expect(page).not.toHaveURL(/minAmount/);
      await link.click();
      await expect(page).toHaveURL(/minAmount=10000/);
      await expect(page).toHaveURL(new RegExp(`q=${batch}`));
      // Its amount set, "More filters" shows itself, and says how many of its filters are set.
      await expect(page.getByRole('button', { name: 'More filters 1 set' })).toHaveAttribute(
        'aria-expanded',
        'true',
      );
      await expectAccessible(page, 'queue with more filters open');
      await keepScreenshot(page, 'queue-filters-open-1280');
      await page.setViewportSize({ width: 1440, height: 900 });
      await keepScreenshot(page, 'queue-filters-open-1440');
      await page.setViewportSize({ width: 1280, height: 720 });

      // The filters changed, the admin saves the changes to the queue: it is the current one again.
      await page.getByLabel('Amount from').fill('11000');
      await expect(page).toHaveURL(/minAmount=11000/);
      await expect(link).not.toHaveAttribute('aria-current');
      await page.getByRole('button', { name: `Save changes to “${queueName}”` }).click();
      await expect(link).toHaveAttribute('aria-current', 'page');
      await expect(link).toContainText('1');
      await expect(page).toHaveURL(/minAmount=11000/);

      // Start reviewing takes one of the queue's documents, never the small invoice.
      const bigIds = (await listQueue(page.request, `q=${batch}&minAmount=11000`)).map((d) => d.id);
      expect(bigIds).toHaveLength(1);
      await page.getByRole('button', { name: 'Start reviewing' }).click();
      await expect(page).toHaveURL(/\/review\/[0-9a-f-]{36}/);
      await expect(valueOf(page, 'invoice_number')).toBeVisible({ timeout: 30_000 });
      const taken = /\/review\/([0-9a-f-]{36})/.exec(page.url())?.[1];
      expect(bigIds).toContain(taken);
      await page.getByRole('button', { name: 'Release' }).click();
    },
    async () => {
      await deleteQueue(page.request, queueName);
    },
  );
});
