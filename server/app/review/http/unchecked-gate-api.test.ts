/**
 * The unchecked-values gate over real HTTP, on both engines: a confirmation counts the values at
 * Medium, Low or no confidence that nobody confirmed or corrected and keeps that count, with what
 * the operator was told (`uncheckedConfirmed`), in the history; an admin (only) makes a model's gate
 * strict, and then such a confirmation is refused (422 `422-014` pointing at each value) until the
 * values are checked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UncheckedGate } from '@extraction-review/contract/review/unchecked-gate';
import { DocumentResponse, TimelineResponse } from '@extraction-review/contract/review/schemas';
import {
  generatedInvoice,
  type GeneratedInvoice,
} from '@extraction-review/test-kit/invoices/generated-invoice';
import type { RunningServer } from '../../listen';
import { ENGINES, type TestStore } from '@extraction-review/test-kit/review/test-stores';
import type { ReviewBrowser } from '@extraction-review/test-kit/review/review-browser';
import {
  closeReviewApi,
  expectProblem,
  openReviewApiTeam,
} from '@extraction-review/test-kit/review/review-browser';
import type { OpenedReview } from '../open-review';

const T0 = Date.UTC(2026, 10, 24, 9, 0, 0);

describe.each(ENGINES)('the unchecked-values gate on %s', (engine) => {
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

  const gatePath = (apiVersion: string, model: string) =>
    `/api/review/models/${apiVersion}/${encodeURIComponent(model)}/unchecked-gate`;

  /** An invoice whose values are all Certain but `total_amount` (Low) and `date` (none). */
  async function queued(model: string) {
    clock += 1000;
    const added = await review.queue.addDocument(
      { apiVersion: 'v2', modelKey: model, fileName: 'invoice.pdf', upstreamJobId: `job-${String(clock)}` },
      clock,
    );
    const invoice: GeneratedInvoice = {
      lines: [50, 50],
      net: 100,
      tax: 20,
      total: 120,
      confidence: 'Certain',
      confidenceOf: { total_amount: 'Low', date: null },
    };
    await review.queue.setResult(
      added.id,
      {
        json: JSON.stringify(generatedInvoice(invoice)),
        resultId: 'inf',
        fieldsTotal: 14,
        fieldsToReview: 2,
      },
      clock,
    );
    const taken = await alice.send('POST', `/api/review/documents/${added.id}/take`);
    expect(taken.status).toBe(200);
    return DocumentResponse.parse(await taken.json()).document;
  }

  async function lastEvent(id: string) {
    const timeline = TimelineResponse.parse(
      await (await alice.send('GET', `/api/review/documents/${id}/timeline`)).json(),
    );
    return timeline.events.at(-1);
  }

  it('asks nothing of the server by default: the count and the operator’s answer go in the history', async () => {
    const gate = await alice.send('GET', gatePath('v2', 'asked-model'));
    expect(UncheckedGate.parse(await gate.json())).toEqual({
      apiVersion: 'v2',
      model: 'asked-model',
      strict: false,
      updatedAt: null,
      updatedBy: null,
    });
    const document = await queued('asked-model');
    const confirmed = await alice.send('POST', `/api/review/documents/${document.id}/confirm`, {
      version: document.version,
      uncheckedConfirmed: 2,
    });
    expect(confirmed.status).toBe(200);
    expect(await lastEvent(document.id)).toMatchObject({
      kind: 'confirmed',
      actor: { name: 'Alice' },
      data: { unchecked: 2, uncheckedConfirmed: 2 },
    });
  });

  it('lets admins, and only admins, make a gate strict; then refuses to confirm unchecked values, naming them', async () => {
    await expectProblem(
      await alice.send('PUT', gatePath('v2', 'strict-model'), { strict: true }),
      403,
      '403-005',
    );
    await expectProblem(
      await admin.send('PUT', gatePath('v2', 'strict-model'), { strict: 'yes' }),
      422,
      '422-008',
    );
    const saved = await admin.send('PUT', gatePath('v2', 'strict-model'), { strict: true });
    expect(saved.status).toBe(200);
    expect(UncheckedGate.parse(await saved.json())).toMatchObject({
      strict: true,
      updatedAt: new Date(clock).toISOString(),
      updatedBy: { name: 'Ada' },
    });

    const document = await queued('strict-model');
    const refused = await expectProblem(
      await alice.send('POST', `/api/review/documents/${document.id}/confirm`, {
        version: document.version,
        uncheckedConfirmed: 2,
      }),
      422,
      '422-014',
    );
    expect((refused.errors as { pointer: string }[]).map((e) => e.pointer).sort()).toEqual([
      '#/fields/date',
      '#/fields/total_amount',
    ]);
    expect(refused.detail).toMatch(/^2 values are not checked/);

    // One confirmed (checked), the other corrected: nothing is left unchecked.
    const saves = await alice.send('PUT', `/api/review/documents/${document.id}/corrections`, {
      version: document.version,
      corrections: [
        { path: '#reviewed', value: ['total_amount'] },
        { path: 'date', value: '2026-11-02' },
      ],
    });
    expect(saves.status).toBe(200);
    const after = DocumentResponse.parse(await saves.json()).document;
    const confirmed = await alice.send('POST', `/api/review/documents/${document.id}/confirm`, {
      version: after.version,
    });
    expect(confirmed.status).toBe(200);
    const event = await lastEvent(document.id);
    expect(event?.kind).toBe('confirmed');
    expect(event?.data ?? {}).not.toHaveProperty('unchecked');

    // Back to asking.
    const relaxed = await admin.send('PUT', gatePath('v2', 'strict-model'), { strict: false });
    expect(UncheckedGate.parse(await relaxed.json()).strict).toBe(false);
  });

  it('refuses to strengthen the gate of a model written wrongly', async () => {
    await expectProblem(
      await admin.send('PUT', gatePath('v1', 'invoices'), { strict: true }),
      404,
      '404-004',
    );
  });
});
