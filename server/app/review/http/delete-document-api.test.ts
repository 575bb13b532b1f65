/**
 * `DELETE /api/review/documents/{id}` over real HTTP, on both engines: admins only, with the CSRF
 * token; an unknown document is 404-010; one another operator reviews is refused 403-006 naming them,
 * unless `?force=true`; a deleted document's kept file goes, and it is gone from the queue. A file the
 * retention rule removed is said so by the file route, and the review document carries when.
 */
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocumentResponse, QueuePage } from '@extraction-review/contract/review/schemas';
import type { RunningServer } from '../../listen';
import { ENGINES, type TestStore } from '@extraction-review/test-kit/review/test-stores';
import type { ReviewBrowser } from '@extraction-review/test-kit/review/review-browser';
import {
  closeReviewApi,
  expectProblem,
  openReviewApiTeam,
} from '@extraction-review/test-kit/review/review-browser';
import type { OpenedReview } from '../open-review';
import { DAY_MS } from '../store/retention-sweep';
import { PurgeLog } from '../store/purge-log';
import { runPurge } from '../background/retention-purge';
import { PurgeLogResponse } from '@extraction-review/contract/review/purge-log';
import { AnalyticsResponse } from '@extraction-review/contract/review/analytics';

const T0 = Date.UTC(2026, 11, 7, 9, 0, 0);

describe.each(ENGINES)('deleting a document over HTTP on %s', (engine) => {
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

  async function queued(fileName: string, model = 'model-delete') {
    clock += 1000;
    const fileKey = randomUUID();
    await review.files?.save(fileKey, Readable.from([Buffer.from('%PDF-1.4 delete')]));
    const added = await review.queue.addDocument(
      { apiVersion: 'v2', modelKey: model, fileName, fileKey, upstreamJobId: `job-${String(clock)}` },
      clock,
    );
    await review.queue.setResult(
      added.id,
      { json: '{}', resultId: null, fieldsTotal: 1, fieldsToReview: 1 },
      clock,
    );
    return added;
  }

  const listed = async (id: string) => {
    const page = QueuePage.parse(await (await admin.send('GET', '/api/review/documents')).json());
    return page.documents.some((d) => d.id === id);
  };

  it('is for admins only, with the CSRF token; an unknown document is 404-010', async () => {
    const doc = await queued('only-admins.pdf');
    await expectProblem(await alice.send('DELETE', `/api/review/documents/${doc.id}`), 403, '403-005');
    await expectProblem(
      await admin.send('DELETE', `/api/review/documents/${doc.id}`, undefined, { 'X-CSRF-Token': '' }),
      403,
      '403-004',
    );
    await expectProblem(await admin.send('DELETE', `/api/review/documents/${randomUUID()}`), 404, '404-010');
    expect(await review.queue.find(doc.id)).toBeDefined();
  });

  it('deletes the document and its kept file: gone from the queue', async () => {
    const doc = await queued('delete-me.pdf');
    expect(await listed(doc.id)).toBe(true);
    const response = await admin.send('DELETE', `/api/review/documents/${doc.id}`);
    expect(response.status).toBe(204);
    expect(await review.queue.find(doc.id)).toBeUndefined();
    expect(await review.files?.open(doc.file_key ?? '')).toBeUndefined();
    expect(await listed(doc.id)).toBe(false);
    await expectProblem(await admin.send('GET', `/api/review/documents/${doc.id}`), 404, '404-010');
  });

  it('refuses a document Alice is reviewing, naming her, unless forced', async () => {
    const doc = await queued('held.pdf');
    expect((await alice.send('POST', `/api/review/documents/${doc.id}/take`)).status).toBe(200);
    const refused = await expectProblem(
      await admin.send('DELETE', `/api/review/documents/${doc.id}`),
      403,
      '403-006',
    );
    expect(refused.detail).toMatch(/Alice/);
    expect(await review.queue.find(doc.id)).toBeDefined();
    expect((await admin.send('DELETE', `/api/review/documents/${doc.id}?force=true`)).status).toBe(204);
    expect(await review.queue.find(doc.id)).toBeUndefined();
  });

  it('says when the retention rule removed a file', async () => {
    const doc = await queued('kept-30-days.pdf', 'model-retention');
    const settings = await admin.send('PUT', '/api/review/models/v2/model-retention/settings', {
      version: 0,
      routing: {},
      rules: [],
      retention: { filesAfterDays: 30, documentsAfterDays: null },
    });
    expect(settings.status).toBe(200);
    expect(await settings.json()).toMatchObject({
      retention: { filesAfterDays: 30, documentsAfterDays: null },
    });
    await expectProblem(
      await admin.send('PUT', '/api/review/models/v2/model-retention/settings', {
        version: 1,
        routing: {},
        rules: [],
        retention: { filesAfterDays: 30, documentsAfterDays: 10 },
      }),
      422,
      '422-008',
    );
    const aliceId = (await review.operators.findByName('Alice'))?.id ?? '';
    const taken = await review.queue.take(doc.id, aliceId, clock);
    if (!taken.ok) throw new Error('not taken');
    const rejected = await review.queue.decide(
      doc.id,
      aliceId,
      taken.document.version,
      'rejected',
      'Duplicate',
      clock,
    );
    expect(rejected.ok).toBe(true);
    // The sweep at a month on (the sessions' clock stays: they would have expired).
    const later = clock + 31 * DAY_MS;
    const pass = await review.queue.sweepRetention(later);
    expect(pass.items).toEqual([expect.objectContaining({ action: 'remove_file', documentId: doc.id })]);
    const body = DocumentResponse.parse(
      await (await admin.send('GET', `/api/review/documents/${doc.id}`)).json(),
    );
    expect(body.document.fileRemovedAt).toBe(new Date(later).toISOString());
    const problem = await expectProblem(
      await admin.send('GET', `/api/review/documents/${doc.id}/file`),
      404,
      '404-010',
    );
    expect(problem.detail).toMatch(/removed .* by the model's retention rule/);
  });

  it('shows admins what the retention purge removed (the purge log), one purge at a time', async () => {
    const doc = await queued('kept-a-day.pdf', 'model-log');
    expect(
      (
        await admin.send('PUT', '/api/review/models/v2/model-log/settings', {
          version: 0,
          routing: {},
          rules: [],
          retention: { filesAfterDays: null, documentsAfterDays: 1 },
        })
      ).status,
    ).toBe(200);
    const aliceId = (await review.operators.findByName('Alice'))?.id ?? '';
    const taken = await review.queue.take(doc.id, aliceId, clock);
    if (!taken.ok) throw new Error('not taken');
    await review.queue.decide(doc.id, aliceId, taken.document.version, 'confirmed', null, clock);
    const later = clock + 2 * DAY_MS;
    const log = new PurgeLog(review.database);
    const deps = { queue: review.queue, files: review.files, log, clock: { now: () => later } };
    const options = { copy: 'copy A', trigger: 'sweep' as const };
    // Another copy holds the purge: this one does nothing.
    const held = await log.acquire('copy B', later);
    expect(await runPurge(deps, { ...options, owner: 'copy A' })).toEqual({ busy: true });
    expect(await review.queue.find(doc.id)).toBeDefined();
    if (held !== undefined) await log.release(held, later);
    const done = await runPurge(deps, { ...options, owner: 'copy A' });
    expect(done).toMatchObject({ busy: false, run: { documentsDeleted: 1 } });
    expect(await review.files?.open(doc.file_key ?? '')).toBeUndefined();

    await expectProblem(await alice.send('GET', '/api/review/purge-runs'), 403, '403-005');
    const response = await admin.send('GET', '/api/review/purge-runs');
    expect(response.status).toBe(200);
    const body = PurgeLogResponse.parse(await response.json());
    expect(body.runs[0]).toEqual({
      id: expect.any(String),
      startedAt: new Date(later).toISOString(),
      finishedAt: new Date(later).toISOString(),
      copy: 'copy A',
      trigger: 'sweep',
      filesRemoved: 0,
      documentsDeleted: 1,
      models: [{ apiVersion: 'v2', model: 'model-log', filesRemoved: 0, documentsDeleted: 1 }],
      errors: [],
    });
    expect(JSON.stringify(body)).not.toContain('kept-a-day');
  });

  it('removes a deleted document from the queue, its counts, the export and every analytics figure', async () => {
    const aliceId = (await review.operators.findByName('Alice'))?.id ?? '';
    const confirmed = async (fileName: string) => {
      const doc = await queued(fileName, 'model-everywhere');
      const taken = await review.queue.take(doc.id, aliceId, clock);
      if (!taken.ok) throw new Error('not taken');
      clock += 60_000; // a minute's review: the time figures count it
      const corrected = await review.queue.saveCorrections(
        doc.id,
        aliceId,
        taken.document.version,
        [{ path: 'total', value: '12.50' }],
        clock,
      );
      if (!corrected.ok) throw new Error('not corrected');
      const done = await review.queue.decide(
        doc.id,
        aliceId,
        corrected.document.version,
        'confirmed',
        null,
        clock,
      );
      if (!done.ok) throw new Error('not confirmed');
      return doc;
    };
    const kept = await confirmed('kept-everywhere.pdf');
    const gone = await confirmed('Invoice Jane Roe.pdf');
    clock += 1000;

    const json = async (path: string) => {
      const response = await admin.send('GET', path);
      expect(response.status).toBe(200);
      return (await response.json()) as Record<string, unknown>;
    };
    const figures = async () => {
      const listed = QueuePage.parse(await json('/api/review/documents?model=model-everywhere'));
      const counts = await json('/api/review/counts?model=model-everywhere');
      const exportCount = await json('/api/exports/confirmed/count?model=model-everywhere');
      const exported = await (
        await admin.send('GET', '/api/exports/confirmed?model=model-everywhere')
      ).text();
      const analytics = AnalyticsResponse.parse(await json('/api/review/analytics?model=model-everywhere'));
      return {
        listed: listed.documents.map((d) => d.id).sort(),
        confirmed: (counts.counts as Record<string, number>).confirmed,
        exportCount,
        exported: exported.trim().split('\n').length,
        automatic: analytics.confirmations.automatic,
        byOperator: analytics.confirmations.byOperator,
        documentsConfirmed: analytics.corrections.documentsConfirmed,
        documentsCorrected: analytics.corrections.documentsCorrected,
        timed: analytics.time.documents,
        operatorDocuments: analytics.time.operators.map((o) => o.documents),
        mentionsGone: [exported, JSON.stringify(analytics)].some(
          (text) => text.includes(gone.id) || text.includes('Jane Roe'),
        ),
      };
    };
    expect(await figures()).toMatchObject({
      listed: [kept.id, gone.id].sort(),
      confirmed: 2,
      exportCount: { count: 2 },
      exported: 2,
      byOperator: 2,
      documentsConfirmed: 2,
      documentsCorrected: 2,
      timed: 2,
      operatorDocuments: [2],
      mentionsGone: true,
    });

    expect((await admin.send('DELETE', `/api/review/documents/${gone.id}`)).status).toBe(204);
    expect(await figures()).toEqual({
      listed: [kept.id],
      confirmed: 1,
      exportCount: { count: 1 },
      exported: 1,
      automatic: 0,
      byOperator: 1,
      documentsConfirmed: 1,
      documentsCorrected: 1,
      timed: 1,
      operatorDocuments: [1],
      mentionsGone: false,
    });
  });
});
