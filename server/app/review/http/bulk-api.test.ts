/**
 * Admins' bulk changes and the sorted queue over real HTTP, on both engines: only an admin may change
 * many documents at once (an operator is refused 403-005, a request without its CSRF token 403-004);
 * the body is bounded; a document another operator reviews is skipped and named; a deleted document's
 * kept file goes with it. The list's cursor belongs to its order.
 */
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BulkResponse } from '@extraction-review/contract/review/bulk';
import { QueuePage } from '@extraction-review/contract/review/schemas';
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

describe.each(ENGINES)('bulk changes over HTTP on %s', (engine) => {
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

  /** A waiting document with a kept file. */
  async function queued(fileName: string) {
    clock += 1000;
    const fileKey = randomUUID();
    await review.files?.save(fileKey, Readable.from([Buffer.from('%PDF-1.4 bulk')]));
    const added = await review.queue.addDocument(
      { apiVersion: 'v2', modelKey: 'model-bulk', fileName, fileKey, upstreamJobId: `job-${String(clock)}` },
      clock,
    );
    await review.queue.setResult(
      added.id,
      { json: '{}', resultId: null, fieldsTotal: 1, fieldsToReview: 1 },
      clock,
    );
    return added;
  }

  it('is for admins only, with the CSRF token, and bounded', async () => {
    const doc = await queued('only-admins.pdf');
    const body = { action: 'priority', ids: [doc.id], priority: 2 };
    await expectProblem(await alice.send('POST', '/api/review/documents/bulk', body), 403, '403-005');
    await expectProblem(
      await admin.send('POST', '/api/review/documents/bulk', body, { 'X-CSRF-Token': '' }),
      403,
      '403-004',
    );
    const tooMany = Array.from(
      { length: 501 },
      (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    );
    for (const wrong of [
      { action: 'priority', ids: tooMany, priority: 1 },
      { action: 'priority', ids: [], priority: 1 },
      { action: 'priority', ids: [doc.id, doc.id], priority: 1 },
      { action: 'priority', ids: ['not-an-id'], priority: 1 },
      { action: 'reject', ids: [doc.id], reason: '  ' },
      { action: 'explode', ids: [doc.id] },
    ]) {
      await expectProblem(await admin.send('POST', '/api/review/documents/bulk', wrong), 422, '422-008');
    }
    await expectProblem(
      await admin.send('POST', '/api/review/documents/bulk', {
        action: 'assign',
        ids: [doc.id],
        operator: 'Nobody',
      }),
      404,
      '404-012',
    );
    expect((await review.queue.find(doc.id))?.priority).toBe(0);
  });

  it('changes what it may, skips what Alice reviews, and deletes the kept files', async () => {
    const free = await queued('free.pdf');
    const held = await queued('held.pdf');
    expect((await alice.send('POST', `/api/review/documents/${held.id}/take`)).status).toBe(200);

    const rejected = await admin.send('POST', '/api/review/documents/bulk', {
      action: 'reject',
      ids: [free.id, held.id],
      reason: 'Sent twice',
    });
    expect(rejected.status).toBe(200);
    expect(BulkResponse.parse(await rejected.json())).toEqual({
      action: 'reject',
      changed: [free.id],
      skipped: [{ id: held.id, reason: 'held', detail: 'Another operator is reviewing it.' }],
    });

    const assigned = await admin.send('POST', '/api/review/documents/bulk', {
      action: 'assign',
      ids: [held.id],
      operator: 'Ada',
    });
    expect(BulkResponse.parse(await assigned.json()).skipped).toMatchObject([
      { id: held.id, reason: 'held' },
    ]);

    expect(await review.files?.open(free.file_key ?? '')).toBeDefined();
    const deleted = await admin.send('POST', '/api/review/documents/bulk', {
      action: 'delete',
      ids: [free.id, held.id],
    });
    expect(BulkResponse.parse(await deleted.json())).toMatchObject({
      changed: [free.id],
      skipped: [{ id: held.id, reason: 'held' }],
    });
    expect(await review.files?.open(free.file_key ?? '')).toBeUndefined();
    await expectProblem(await admin.send('GET', `/api/review/documents/${free.id}`), 404, '404-010');
  });

  it('lists in the order asked, and refuses a cursor of another order', async () => {
    for (const name of ['zeta.pdf', 'alpha.pdf', 'mu.pdf']) await queued(name);
    const from = new Date(clock - 2500).toISOString();
    const page = async (query: string) => {
      const response = await alice.send(
        'GET',
        `/api/review/documents?from=${encodeURIComponent(from)}&${query}`,
      );
      expect(response.status).toBe(200);
      return QueuePage.parse(await response.json());
    };
    const first = await page('sort=name&limit=2');
    expect(first.documents.map((d) => d.fileName)).toEqual(['alpha.pdf', 'mu.pdf']);
    const second = await page(`sort=name&limit=2&cursor=${first.nextCursor ?? ''}`);
    expect(second.documents.map((d) => d.fileName)).toEqual(['zeta.pdf']);
    expect((await page('sort=-name')).documents.map((d) => d.fileName)).toEqual([
      'zeta.pdf',
      'mu.pdf',
      'alpha.pdf',
    ]);
    await expectProblem(
      await alice.send('GET', `/api/review/documents?sort=-received&cursor=${first.nextCursor ?? ''}`),
      422,
      '422-008',
    );
    await expectProblem(await alice.send('GET', '/api/review/documents?sort=colour'), 422, '422-008');
  });
});
