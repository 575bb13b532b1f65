/**
 * Assignments over real HTTP, on both engines: an admin assigns documents to Alice in bulk, Alice's
 * "next" (peek and take) gives them to her first, Bob's never; the queue's "Assigned" filter lists and
 * counts them, with whose they are; unassigning gives them back to the team; a deactivated operator
 * cannot be assigned (422-016); removing an operator gives their assignments back, with the event;
 * a saved queue keeps the filter.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BulkResponse } from '@extraction-review/contract/review/bulk';
import { NextPeek } from '@extraction-review/contract/review/routes/components';
import { DocumentResponse, QueuePage, TimelineResponse } from '@extraction-review/contract/review/schemas';
import { SavedQueueResponse } from '@extraction-review/contract/review/saved-queues';
import type { RunningServer } from '../../listen';
import type { TestStore } from '@extraction-review/test-kit/review/test-stores';
import { ENGINES } from '@extraction-review/test-kit/review/test-stores';
import {
  addOperators,
  closeReviewApi,
  expectProblem,
  openReviewApiTeam,
  signedIn,
  type ReviewBrowser,
} from '@extraction-review/test-kit/review/review-browser';
import type { OpenedReview } from '../open-review';

const T0 = Date.UTC(2026, 11, 7, 9, 0, 0);
const MODEL = 'model-assign';

describe.each(ENGINES)('assignments over HTTP on %s', (engine) => {
  let store: TestStore;
  let review: OpenedReview;
  let server: RunningServer;
  let admin: ReviewBrowser;
  let alice: ReviewBrowser;
  let bob: ReviewBrowser;
  let ids: Record<string, string>;
  let clock = T0;

  beforeAll(async () => {
    ({ store, review, server, admin, alice } = await openReviewApiTeam(engine, () => clock, T0));
    ids = await addOperators(review, { Bob: 'operator', Carol: 'operator', Dan: 'operator' }, T0);
    bob = await signedIn(server.url, 'Bob');
    ids['Alice'] = (await review.operators.findByName('Alice'))?.id ?? '';
  });
  afterAll(() => closeReviewApi({ store, review, server }));

  async function queued(fileName: string, priority = 0) {
    clock += 1000;
    const added = await review.queue.addDocument(
      { apiVersion: 'v2', modelKey: MODEL, fileName, upstreamJobId: `job-${fileName}`, priority },
      clock,
    );
    await review.queue.setResult(
      added.id,
      { json: '{}', resultId: null, fieldsTotal: 1, fieldsToReview: 1 },
      clock,
    );
    return added.id;
  }
  const bulk = async (body: unknown) => {
    const response = await admin.send('POST', '/api/review/documents/bulk', body);
    expect(response.status).toBe(200);
    return BulkResponse.parse(await response.json());
  };
  const q = `model=${MODEL}`;
  const peek = async (who: ReviewBrowser, query = q) => {
    const response = await who.send('GET', `/api/review/next?${query}`);
    return response.status === 204 ? null : NextPeek.parse(await response.json()).id;
  };
  const take = async (who: ReviewBrowser, query = q) => {
    const response = await who.send('POST', `/api/review/next?${query}`);
    return response.status === 204 ? null : DocumentResponse.parse(await response.json()).document;
  };

  it('gives Alice the documents assigned to her first, Bob never, and lists them as hers', async () => {
    // The team's document is more urgent: without the assignment it would come first.
    const team = await queued('team.pdf', 5);
    const first = await queued('first.pdf');
    const second = await queued('second.pdf');
    expect(await bulk({ action: 'assign', ids: [first, second], operator: 'Alice' })).toEqual({
      action: 'assign',
      changed: [first, second],
      skipped: [],
    });

    const page = QueuePage.parse(
      await (await alice.send('GET', `/api/review/documents?${q}&assigned=me&sort=name`)).json(),
    );
    expect(page.documents.map((d) => [d.fileName, d.state, d.assignedTo?.name])).toEqual([
      ['first.pdf', 'to_review', 'Alice'],
      ['second.pdf', 'to_review', 'Alice'],
    ]);
    expect(page.counts.to_review).toBe(2);
    const nobody = QueuePage.parse(
      await (await bob.send('GET', `/api/review/documents?${q}&assigned=nobody`)).json(),
    );
    expect(nobody.documents.map((d) => d.id)).toEqual([team]);

    // Bob's "next" gives the team's document, then nothing: Alice's are never his.
    expect(await peek(bob)).toBe(team);
    expect((await take(bob))?.id).toBe(team);
    expect(await take(bob)).toBeNull();
    expect(await take(bob, `${q}&assigned=${ids['Alice'] ?? ''}`)).toBeNull();

    expect(await peek(alice)).toBe(first);
    const taken = await take(alice);
    expect(taken).toMatchObject({ id: first, assignedTo: { name: 'Alice' }, holder: { name: 'Alice' } });
    expect((await take(alice))?.id).toBe(second);
  });

  it('unassigns: the document goes back to the team, and the timeline says who did what', async () => {
    const doc = await queued('unassigned.pdf');
    await bulk({ action: 'assign', ids: [doc], operator: ids['Alice'] });
    expect(await take(bob)).toBeNull();
    expect(await bulk({ action: 'unassign', ids: [doc] })).toEqual({
      action: 'unassign',
      changed: [doc],
      skipped: [],
    });
    expect((await take(bob))?.id).toBe(doc);
    const { events } = TimelineResponse.parse(
      await (await admin.send('GET', `/api/review/documents/${doc}/timeline`)).json(),
    );
    expect(events.map((e) => [e.kind, e.actor?.name, e.data?.['toName'] ?? e.data?.['fromName']])).toEqual(
      expect.arrayContaining([
        ['assigned', 'Ada', 'Alice'],
        ['unassigned', 'Ada', 'Alice'],
      ]),
    );
  });

  it('refuses to assign to a deactivated operator, in bulk or one by one (422-016), and changes nothing', async () => {
    const doc = await queued('refused.pdf');
    const deactivated = await admin.send('PUT', `/api/operators/${ids['Carol'] ?? ''}/access`, {
      role: 'operator',
      active: false,
    });
    expect(deactivated.status).toBe(200);
    const body = await expectProblem(
      await admin.send('POST', '/api/review/documents/bulk', {
        action: 'assign',
        ids: [doc],
        operator: 'Carol',
      }),
      422,
      '422-016',
    );
    expect(body['errors']).toEqual([{ pointer: '#/operator', detail: 'Carol is deactivated.' }]);
    await expectProblem(
      await admin.send('POST', `/api/review/documents/${doc}/reassign`, { operator: 'Carol' }),
      422,
      '422-016',
    );
    expect(await review.queue.find(doc)).toMatchObject({ assigned_to: null, state: 'to_review' });
    await expectProblem(
      await alice.send('POST', '/api/review/documents/bulk', { action: 'unassign', ids: [doc] }),
      403,
      '403-005',
    );
    // Taken by Bob's "next" (the team's): nothing else waits in this model.
    expect((await take(bob))?.id).toBe(doc);
  });

  it('gives a removed operator’s assignments back to the team, and a saved queue keeps the filter', async () => {
    const doc = await queued('dans.pdf');
    await bulk({ action: 'assign', ids: [doc], operator: 'Dan' });
    const created = await admin.send('POST', '/api/review/queues', {
      name: 'Assigned to me',
      filters: { model: MODEL, assigned: 'me' },
    });
    expect(created.status).toBe(201);
    const saved = SavedQueueResponse.parse(await created.json()).queue;
    expect(saved).toMatchObject({ filters: { assigned: 'me' }, waiting: 0 });
    expect((await admin.send('DELETE', `/api/operators/${ids['Dan'] ?? ''}`)).status).toBe(204);
    expect(await review.queue.find(doc)).toMatchObject({ assigned_to: null });
    const { events } = TimelineResponse.parse(
      await (await admin.send('GET', `/api/review/documents/${doc}/timeline`)).json(),
    );
    expect(events.at(-1)).toMatchObject({
      kind: 'unassigned',
      actor: { name: 'Ada' },
      data: { fromName: 'Dan', why: 'operator_left' },
    });
    // "Hand to" assigns too: the saved queue of Ada's assignments now counts it for her.
    const handed = await admin.send('POST', `/api/review/documents/${doc}/reassign`, { operator: 'Ada' });
    expect(DocumentResponse.parse(await handed.json()).document).toMatchObject({
      assignedTo: { name: 'Ada' },
      holder: { name: 'Ada' },
    });
    clock += 11 * 60 * 1000; // the lease (10 minutes) runs out: waiting again, still Ada’s
    const queues = (await (await admin.send('GET', '/api/review/queues')).json()) as {
      queues: { name: string; waiting: number }[];
    };
    expect(queues.queues.find((x) => x.name === 'Assigned to me')?.waiting).toBe(1);
    // Every assigned document waiting is Alice's or Ada's: none is Bob's to take.
    expect(await peek(bob, `${q}&assigned=anyone`)).toBeNull();
    expect(await peek(admin, `${q}&assigned=anyone`)).toBe(doc);
  });
});
