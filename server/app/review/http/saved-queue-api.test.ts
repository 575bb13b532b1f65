/**
 * Saved queues and the amount filter over real HTTP, on both engines: every operator lists the team's
 * saved queues with how many of their documents wait; only an admin (with the CSRF token) saves,
 * renames and deletes one; a taken name is 409-003, a stale version 409-006 with the queue as it is,
 * a body that does not fit 422-008 with pointers, an unknown id 404-018; the queue's readers take
 * `minAmount`/`maxAmount`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SavedQueueList, SavedQueueResponse } from '@extraction-review/contract/review/saved-queues';
import { DocumentResponse, QueuePage } from '@extraction-review/contract/review/schemas';
import { fixturesDir } from '@extraction-review/test-kit/fixtures-dir';
import type { RunningServer } from '../../listen';
import { ENGINES, type TestStore } from '@extraction-review/test-kit/review/test-stores';
import type { ReviewBrowser } from '@extraction-review/test-kit/review/review-browser';
import {
  closeReviewApi,
  expectProblem,
  openReviewApiTeam,
} from '@extraction-review/test-kit/review/review-browser';
import type { OpenedReview } from '../open-review';

const T0 = Date.UTC(2026, 11, 7, 9, 0, 0);
const FINANCIAL = readFileSync(
  path.join(fixturesDir, 'v2', 'products', 'extraction', 'financial_document', 'complete.json'),
  'utf8',
);

function v2Result(total: number): string {
  const result = JSON.parse(FINANCIAL) as { inference: { result: { fields: Record<string, unknown> } } };
  result.inference.result.fields['total_amount'] = { value: total };
  return JSON.stringify(result);
}

describe.each(ENGINES)('saved queues over HTTP on %s', (engine) => {
  let store: TestStore;
  let review: OpenedReview;
  let server: RunningServer;
  let admin: ReviewBrowser;
  let alice: ReviewBrowser;
  let clock = T0;

  beforeAll(async () => {
    ({ store, review, server, admin, alice } = await openReviewApiTeam(engine, () => clock, T0));
  });
  afterAll(() => closeReviewApi({ store, review, server }));

  async function queued(model: string, total: number) {
    clock += 1000;
    const added = await review.queue.addDocument(
      {
        apiVersion: 'v2',
        modelKey: model,
        fileName: `${model}-${String(total)}.pdf`,
        upstreamJobId: `job-${String(clock)}`,
      },
      clock,
    );
    await review.queue.setResult(
      added.id,
      { json: v2Result(total), resultId: `inf-${String(clock)}`, fieldsTotal: 10, fieldsToReview: 1 },
      clock,
    );
    return added.id;
  }

  it('filters the queue by amount, and saves, renames and deletes queues (admins only)', async () => {
    const big = await queued('invoices', 12000);
    await queued('invoices', 800);
    await queued('receipts', 50000);

    const page = QueuePage.parse(
      await (await alice.send('GET', '/api/review/documents?model=invoices&minAmount=10000')).json(),
    );
    expect(page.documents.map((d) => d.id)).toEqual([big]);
    expect(page.counts.to_review).toBe(1);
    await expectProblem(await alice.send('GET', '/api/review/documents?minAmount=lots'), 422, '422-008');

    const body = { name: 'Invoices over 10,000', filters: { model: 'invoices', minAmount: 10000 } };
    await expectProblem(await alice.send('POST', '/api/review/queues', body), 403, '403-005');
    const created = await admin.send('POST', '/api/review/queues', body);
    expect(created.status).toBe(201);
    const { queue } = SavedQueueResponse.parse(await created.json());
    expect(queue).toMatchObject({ ...body, version: 1, waiting: 1 });

    const taken = await expectProblem(
      await admin.send('POST', '/api/review/queues', { ...body, name: 'INVOICES over 10,000' }),
      409,
      '409-003',
    );
    expect(taken['errors']).toEqual([expect.objectContaining({ pointer: '#/name' })]);
    const invalid = await expectProblem(
      await admin.send('POST', '/api/review/queues', { name: '', filters: { minAmount: 5, maxAmount: 1 } }),
      422,
      '422-008',
    );
    expect((invalid['errors'] as { pointer: string }[]).map((e) => e.pointer).sort()).toEqual([
      '#/filters/maxAmount',
      '#/name',
    ]);
    await expectProblem(
      await admin.send('POST', '/api/review/queues', { name: 'All', filters: {} }),
      422,
      '422-008',
    );

    const listed = SavedQueueList.parse(await (await alice.send('GET', '/api/review/queues')).json());
    expect(listed.queues.map((q) => [q.name, q.waiting])).toEqual([['Invoices over 10,000', 1]]);

    // Start reviewing from the saved queue: its filters are the queue's.
    const next = await alice.send('POST', '/api/review/next?model=invoices&minAmount=10000');
    expect(DocumentResponse.parse(await next.json()).document.id).toBe(big);
    const after = SavedQueueList.parse(await (await alice.send('GET', '/api/review/queues')).json());
    expect(after.queues[0]?.waiting).toBe(0);

    const path = `/api/review/queues/${queue.id}`;
    await expectProblem(await alice.send('PUT', path, { version: 1, name: 'Mine' }), 403, '403-005');
    const renamed = await admin.send('PUT', path, { version: 1, name: 'Big invoices' });
    expect(SavedQueueResponse.parse(await renamed.json()).queue).toMatchObject({
      name: 'Big invoices',
      version: 2,
    });
    const stale = await expectProblem(
      await admin.send('PUT', path, { version: 1, name: 'Other' }),
      409,
      '409-006',
    );
    expect(stale['current']).toMatchObject({ name: 'Big invoices', version: 2 });

    const unknown = '/api/review/queues/00000000-0000-4000-8000-000000000000';
    await expectProblem(await admin.send('PUT', unknown, { version: 1, name: 'x' }), 404, '404-018');
    await expectProblem(await admin.send('DELETE', '/api/review/queues/nope'), 404, '404-018');
    await expectProblem(await alice.send('DELETE', path), 403, '403-005');
    expect((await admin.send('DELETE', path)).status).toBe(204);
    await expectProblem(await admin.send('DELETE', path), 404, '404-018');
  });
});
