/**
 * The review API over real HTTP, on both engines: the set-up link makes the first admin once, sign-in
 * and sign-out with an HttpOnly cookie and a CSRF token, operators created by an admin only, the queue
 * taken by "next" (204 when empty), corrections and decisions on the version read (409 stale, 403 held
 * by another, 409 wrong state, each with the document as it is now), reassign and reopen for admins,
 * the timeline as JSON and CSV, and every refusal a problem with a documented code.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DocumentResponse,
  QueuePage,
  SessionResponse,
  TimelineResponse,
} from '@extraction-review/contract/review/schemas';
import { QueueRowResponse } from '@extraction-review/contract/review/routes/components';
import type { RunningServer } from '../../listen';
import { ENGINES, openTestStore, type TestStore } from '@extraction-review/test-kit/review/test-stores';
import {
  addReadyDocument,
  expectProblem,
  listenReviewApi,
  ReviewBrowser,
  TEST_PASSWORD,
} from '@extraction-review/test-kit/review/review-browser';
import { openReview, type OpenedReview } from '../open-review';

const T0 = Date.UTC(2026, 10, 24, 9, 0, 0);
const LEASE = 60_000;
const PASSWORD = TEST_PASSWORD;

describe.each(ENGINES)('the review API on %s', (engine) => {
  let store: TestStore;
  let review: OpenedReview;
  let server: RunningServer;
  let clock = T0;

  beforeAll(async () => {
    store = await openTestStore(engine);
    review = await openReview({ ...store.settings, leaseMs: LEASE, clock: { now: () => clock } });
    server = await listenReviewApi(review);
  });
  afterAll(async () => {
    await server.close();
    await review.close();
    await store.cleanup();
  });

  async function readyDocument(fileName: string) {
    clock += 1000;
    return addReadyDocument(review, fileName, clock, { fieldsTotal: 5, fieldsToReview: 2 });
  }

  it('creates the first admin through the one-time set-up link, once', async () => {
    const token = await review.sessions.createSetupToken(clock, 60_000);
    const first = new ReviewBrowser(server.url);
    expect((await first.send('GET', `/api/setup/${token}`)).status).toBe(200);
    const weak = await first.send('POST', '/api/setup', { token, name: 'Ada', password: 'short' });
    expect((await expectProblem(weak, 422, '422-008')).errors).toEqual([
      { pointer: '#/password', detail: expect.any(String) },
    ]);

    const created = await first.send('POST', '/api/setup', { token, name: 'Ada', password: PASSWORD });
    expect(created.status).toBe(200);
    const cookie = created.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^er_session=[A-Za-z0-9_-]{43};/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\//);
    expect(SessionResponse.parse(await created.json()).operator).toMatchObject({
      name: 'Ada',
      role: 'admin',
    });

    // Used up: neither checking nor using it again works.
    await expectProblem(await first.send('GET', `/api/setup/${token}`), 404, '404-011');
    const again = new ReviewBrowser(server.url);
    await expectProblem(
      await again.send('POST', '/api/setup', { token, name: 'Eve', password: PASSWORD }),
      404,
      '404-011',
    );
  });

  it('signs in with an HttpOnly cookie and a CSRF token, and out again', async () => {
    const browser = new ReviewBrowser(server.url);
    await expectProblem(await browser.send('GET', '/api/session'), 401, '401-011');
    await expectProblem(
      await browser.send('POST', '/api/session', { name: 'Ada', password: 'wrong password!' }),
      401,
      '401-012',
    );
    await expectProblem(
      await browser.send('POST', '/api/session', { name: 'Nobody', password: PASSWORD }),
      401,
      '401-012',
    );
    await expectProblem(await browser.send('POST', '/api/session', { name: 'Ada' }), 422, '422-008');

    const session = await browser.signIn('ada');
    expect(session.operator.name).toBe('Ada');
    const read = await browser.send('GET', '/api/session');
    expect(SessionResponse.parse(await read.json()).csrfToken).toBe(session.csrfToken);

    // A change without the token, or with another, is refused; with it, it goes through.
    const token = browser.csrf;
    browser.csrf = undefined;
    await expectProblem(await browser.send('DELETE', '/api/session'), 403, '403-004');
    browser.csrf = 'x'.repeat(43);
    await expectProblem(await browser.send('DELETE', '/api/session'), 403, '403-004');
    browser.csrf = token;
    const cookie = browser.cookie;
    expect((await browser.send('DELETE', '/api/session')).status).toBe(200);
    expect(browser.cookie).toBeUndefined();
    // The old cookie is dead on the server, not only forgotten by the browser.
    browser.cookie = cookie;
    await expectProblem(await browser.send('GET', '/api/session'), 401, '401-011');
  });

  it('lets admins, and only admins, create operators', async () => {
    const admin = new ReviewBrowser(server.url);
    await admin.signIn('Ada');
    for (const name of ['Alice', 'Bob']) {
      const created = await admin.send('POST', '/api/operators', {
        name,
        role: 'operator',
        password: PASSWORD,
      });
      expect(created.status).toBe(201);
    }
    await expectProblem(
      await admin.send('POST', '/api/operators', { name: 'ALICE', role: 'operator', password: PASSWORD }),
      409,
      '409-003',
    );
    const listed = (await (await admin.send('GET', '/api/operators')).json()) as {
      operators: { name: string }[];
    };
    expect(listed.operators.map((o) => o.name)).toEqual(['Ada', 'Alice', 'Bob']);
    expect(JSON.stringify(listed)).not.toMatch(/argon2/);

    const alice = new ReviewBrowser(server.url);
    await alice.signIn('Alice');
    await expectProblem(await alice.send('GET', '/api/operators'), 403, '403-005');
    await expectProblem(
      await alice.send('POST', '/api/operators', { name: 'Mallory', role: 'admin', password: PASSWORD }),
      403,
      '403-005',
    );
  });

  it('hands out the queue one document per operator, and refuses stale or foreign writes', async () => {
    const first = await readyDocument('first.pdf');
    const second = await readyDocument('second.pdf');
    const alice = new ReviewBrowser(server.url);
    const bob = new ReviewBrowser(server.url);
    await alice.signIn('Alice');
    await bob.signIn('Bob');

    const aliceNext = DocumentResponse.parse(
      await (await alice.send('POST', '/api/review/next')).json(),
    ).document;
    const bobNext = DocumentResponse.parse(
      await (await bob.send('POST', '/api/review/next')).json(),
    ).document;
    expect(aliceNext).toMatchObject({
      id: first,
      state: 'in_review',
      holder: { name: 'Alice' },
      fieldsToReview: 2,
    });
    expect(aliceNext.result).toEqual({ inference: { id: 'inf', result: { fields: {} } } });
    expect(bobNext.id).toBe(second);
    expect((await alice.send('POST', '/api/review/next')).status).toBe(204);

    // Bob cannot touch Alice's document.
    const foreign = await bob.send('PUT', `/api/review/documents/${first}/corrections`, {
      version: aliceNext.version,
      corrections: [{ path: 'total_amount', value: 1 }],
    });
    const held = await expectProblem(foreign, 403, '403-006');
    expect(held.detail).toMatch(/Alice is reviewing this document/);
    expect(held.current).toMatchObject({ id: first, holder: { name: 'Alice' } });

    const saved = await alice.send('PUT', `/api/review/documents/${first}/corrections`, {
      version: aliceNext.version,
      corrections: [{ path: 'total_amount', value: 120.5 }],
    });
    const afterSave = DocumentResponse.parse(await saved.json()).document;
    expect(afterSave.version).toBe(aliceNext.version + 1);
    expect(afterSave.corrections).toEqual({ total_amount: 120.5 });

    // The version read before the save is stale now (another tab of hers, say).
    const stale = await alice.send('POST', `/api/review/documents/${first}/confirm`, {
      version: aliceNext.version,
    });
    const staleBody = await expectProblem(stale, 409, '409-001');
    expect(staleBody.current).toMatchObject({ version: afterSave.version });

    await expectProblem(
      await alice.send('POST', `/api/review/documents/${first}/confirm`, {}),
      422,
      '422-008',
    );
    const confirmed = await alice.send('POST', `/api/review/documents/${first}/confirm`, {
      version: afterSave.version,
    });
    expect(DocumentResponse.parse(await confirmed.json()).document).toMatchObject({
      state: 'confirmed',
      decidedBy: { name: 'Alice' },
    });
    // Confirmed: a second confirm is refused for its state.
    await expectProblem(
      await alice.send('POST', `/api/review/documents/${first}/confirm`, { version: afterSave.version + 1 }),
      409,
      '409-002',
    );
    await expectProblem(
      await bob.send('POST', `/api/review/documents/${second}/reject`, { version: bobNext.version }),
      422,
      '422-008',
    );
    const rejected = await bob.send('POST', `/api/review/documents/${second}/reject`, {
      version: bobNext.version,
      reason: 'Not an invoice',
    });
    expect(DocumentResponse.parse(await rejected.json()).document).toMatchObject({
      state: 'rejected',
      reason: 'Not an invoice',
    });
    await expectProblem(
      await bob.send('GET', '/api/review/documents/00000000-0000-4000-8000-000000000000'),
      404,
      '404-010',
    );
    await expectProblem(await bob.send('GET', '/api/review/documents/not-an-id'), 404, '404-010');
  });

  it('gives an idle document back to the queue, and says so to its late holder', async () => {
    const id = await readyDocument('idle.pdf');
    const alice = new ReviewBrowser(server.url);
    const bob = new ReviewBrowser(server.url);
    await alice.signIn('Alice');
    await bob.signIn('Bob');
    const taken = DocumentResponse.parse(
      await (await alice.send('POST', '/api/review/next')).json(),
    ).document;
    expect(taken.id).toBe(id);
    clock += LEASE + 1;
    const takenOver = DocumentResponse.parse(
      await (await bob.send('POST', '/api/review/next')).json(),
    ).document;
    expect(takenOver).toMatchObject({ id, holder: { name: 'Bob' } });
    const late = await alice.send('POST', `/api/review/documents/${id}/lease`);
    expect((await expectProblem(late, 403, '403-006')).current).toMatchObject({ holder: { name: 'Bob' } });
    expect((await bob.send('POST', `/api/review/documents/${id}/release`)).status).toBe(200);
  });

  it('lists the queue in pages with counts, and lets admins reassign, reopen and export the timeline', async () => {
    const admin = new ReviewBrowser(server.url);
    await admin.signIn('Ada');
    const page = QueuePage.parse(await (await admin.send('GET', '/api/review/documents?limit=2')).json());
    expect(page.documents.map((d) => d.fileName)).toEqual(['idle.pdf', 'second.pdf']);
    expect(page.nextCursor).not.toBeNull();
    expect(page.counts).toMatchObject({ to_review: 1, confirmed: 1, rejected: 1 });
    const rest = QueuePage.parse(
      await (await admin.send('GET', `/api/review/documents?limit=2&cursor=${page.nextCursor ?? ''}`)).json(),
    );
    expect(rest.documents.map((d) => d.fileName)).toEqual(['first.pdf']);
    expect(rest.nextCursor).toBeNull();
    await expectProblem(await admin.send('GET', '/api/review/documents?state=lost'), 422, '422-008');
    await expectProblem(await admin.send('GET', '/api/review/documents?cursor=garbage'), 422, '422-008');
    const search = QueuePage.parse(await (await admin.send('GET', '/api/review/documents?q=SECOND')).json());
    expect(search.documents.map((d) => d.fileName)).toEqual(['second.pdf']);

    const first = rest.documents[0]?.id ?? '';
    const reopened = await admin.send('POST', `/api/review/documents/${first}/reopen`);
    expect(DocumentResponse.parse(await reopened.json()).document.state).toBe('to_review');
    const reassigned = await admin.send('POST', `/api/review/documents/${first}/reassign`, {
      operator: 'Bob',
    });
    expect(DocumentResponse.parse(await reassigned.json()).document).toMatchObject({
      holder: { name: 'Bob' },
      assignedTo: { name: 'Bob' },
    });

    const alice = new ReviewBrowser(server.url);
    await alice.signIn('Alice');
    await expectProblem(await alice.send('POST', `/api/review/documents/${first}/reopen`), 403, '403-005');

    const timeline = TimelineResponse.parse(
      await (await alice.send('GET', `/api/review/documents/${first}/timeline`)).json(),
    );
    expect(timeline.events.map((e) => [e.kind, e.actor?.name ?? null])).toEqual([
      ['received', null],
      ['extracted', null],
      ['taken', 'Alice'],
      ['corrected', 'Alice'],
      ['confirmed', 'Alice'],
      ['reopened', 'Ada'],
      ['reassigned', 'Ada'],
      ['assigned', 'Ada'],
    ]);
    await expectProblem(
      await alice.send('GET', `/api/review/documents/${first}/timeline?format=csv`),
      403,
      '403-005',
    );
    const csv = await admin.send('GET', `/api/review/documents/${first}/timeline?format=csv`);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const bytes = Buffer.from(await csv.arrayBuffer());
    // A BOM, so that spreadsheet programs read UTF-8 (fetch's text() would hide it).
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.subarray(3).toString('utf8').split('\r\n');
    expect(lines[0]).toBe('at,event,operator,field,before,after,reason,details');
    expect(lines[4]).toMatch(/^2026-11-24T09:00:\d\d\.000Z,corrected,Alice,total_amount,null,120\.5,,$/);
  });

  it('lets admins raise a document, which then comes up first', async () => {
    const older = await readyDocument('routine.pdf');
    const urgent = await readyDocument('urgent.pdf');
    const admin = new ReviewBrowser(server.url);
    await admin.signIn('Ada');
    const alice = new ReviewBrowser(server.url);
    await alice.signIn('Alice');
    await expectProblem(
      await alice.send('POST', `/api/review/documents/${urgent}/priority`, { priority: 5 }),
      403,
      '403-005',
    );
    await expectProblem(
      await admin.send('POST', `/api/review/documents/${urgent}/priority`, { priority: 1.5 }),
      422,
      '422-008',
    );
    const raised = await admin.send('POST', `/api/review/documents/${urgent}/priority`, { priority: 5 });
    expect(DocumentResponse.parse(await raised.json()).document.priority).toBe(5);
    const next = DocumentResponse.parse(await (await alice.send('POST', '/api/review/next')).json()).document;
    expect(next.id).toBe(urgent);
    // Raised above every older waiting document, routine.pdf among them.
    expect(older).not.toBe(urgent);
    const history = TimelineResponse.parse(
      await (await admin.send('GET', `/api/review/documents/${urgent}/timeline`)).json(),
    );
    expect(history.events.find((e) => e.kind === 'prioritised')).toMatchObject({
      actor: { name: 'Ada' },
      data: { from: 0, to: 5 },
    });
    expect((await alice.send('POST', `/api/review/documents/${urgent}/release`)).status).toBe(200);
  });

  it('takes the next document of the filters, counts what they list, and postpones until a date (issue 21)', async () => {
    const wanted = await readyDocument('follow-wanted.pdf');
    const alice = new ReviewBrowser(server.url);
    await alice.signIn('Alice');
    const counts = await alice.send('GET', '/api/review/counts?q=follow-wanted');
    expect(((await counts.json()) as { counts: Record<string, number> }).counts).toMatchObject({
      to_review: 1,
      in_review: 0,
    });
    await expectProblem(await alice.send('POST', '/api/review/next?state=nothing'), 422, '422-008');
    expect((await alice.send('POST', '/api/review/next?q=follow-nobody')).status).toBe(204);
    const taken = DocumentResponse.parse(
      await (await alice.send('POST', '/api/review/next?q=follow-wanted&state=to_review')).json(),
    ).document;
    expect(taken.id).toBe(wanted);

    // Postponed until a time to come: refused for a past one, kept, and waiting again once it has come.
    await expectProblem(
      await alice.send('POST', `/api/review/documents/${wanted}/postpone`, {
        version: taken.version,
        until: new Date(clock - 1).toISOString(),
      }),
      422,
      '422-013',
    );
    const until = new Date(clock + 3 * LEASE).toISOString();
    const postponed = await alice.send('POST', `/api/review/documents/${wanted}/postpone`, {
      version: taken.version,
      until,
    });
    expect(DocumentResponse.parse(await postponed.json()).document).toMatchObject({
      state: 'postponed',
      postponedUntil: until,
    });
    clock += 3 * LEASE;
    const listed = await alice.send('GET', '/api/review/documents?q=follow-wanted');
    expect(QueuePage.parse(await listed.json()).documents[0]).toMatchObject({
      id: wanted,
      state: 'to_review',
      postponedUntil: null,
    });
    const again = await alice.send('POST', '/api/review/next?q=follow-wanted');
    expect(DocumentResponse.parse(await again.json()).document.id).toBe(wanted);
    expect((await alice.send('POST', `/api/review/documents/${wanted}/release`)).status).toBe(200);
  });

  it('says which document is next without taking it, the one the take then gives (issue 21)', async () => {
    const older = await readyDocument('peek-older.pdf');
    const newer = await readyDocument('peek-newer.pdf');
    const alice = new ReviewBrowser(server.url);
    await alice.signIn('Alice');
    const before = DocumentResponse.parse(
      await (await alice.send('GET', `/api/review/documents/${older}`)).json(),
    ).document;

    const peeked = await alice.send('GET', '/api/review/next?q=peek-');
    expect(peeked.status).toBe(200);
    expect(peeked.headers.get('cache-control')).toBe('no-store');
    expect(await peeked.json()).toEqual({ id: older });
    // Nothing taken, nothing written: no lease, the same version, and asking again gives the same.
    const after = DocumentResponse.parse(
      await (await alice.send('GET', `/api/review/documents/${older}`)).json(),
    ).document;
    expect(after).toMatchObject({ state: 'to_review', holder: null, version: before.version });
    expect(await (await alice.send('GET', '/api/review/next?q=peek-')).json()).toEqual({ id: older });

    // The take gives that one; then the next is the other, and none once both are held.
    const taken = DocumentResponse.parse(
      await (await alice.send('POST', '/api/review/next?q=peek-')).json(),
    ).document;
    expect(taken.id).toBe(older);
    expect(await (await alice.send('GET', '/api/review/next?q=peek-')).json()).toEqual({ id: newer });
    expect((await alice.send('GET', '/api/review/next?q=peek-&state=confirmed')).status).toBe(204);
    await alice.send('POST', '/api/review/next?q=peek-');
    expect((await alice.send('GET', '/api/review/next?q=peek-')).status).toBe(204);
    await expectProblem(await alice.send('GET', '/api/review/next?state=nothing'), 422, '422-008');
    await expectProblem(await new ReviewBrowser(server.url).send('GET', '/api/review/next'), 401, '401-011');
    for (const id of [older, newer])
      expect((await alice.send('POST', `/api/review/documents/${id}/release`)).status).toBe(200);
  });

  it('answers one document as a row of the list shows it, for live queues (issue 22)', async () => {
    const id = await readyDocument('row-of-the-list.pdf');
    const alice = new ReviewBrowser(server.url);
    await alice.signIn('Alice');
    await alice.send('POST', `/api/review/documents/${id}/take`);
    const listed = QueuePage.parse(
      await (await alice.send('GET', '/api/review/documents?q=row-of-the-list')).json(),
    ).documents;
    const answer = await alice.send('GET', `/api/review/documents/${id}/row`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const row = QueueRowResponse.parse(await answer.json()).document;
    expect(row).toMatchObject({ state: 'in_review', holder: { name: 'Alice' } });
    expect([row]).toEqual(listed);

    await expectProblem(
      await alice.send('GET', '/api/review/documents/00000000-0000-4000-8000-000000000000/row'),
      404,
      '404-010',
    );
    await expectProblem(
      await new ReviewBrowser(server.url).send('GET', `/api/review/documents/${id}/row`),
      401,
      '401-011',
    );
    expect((await alice.send('POST', `/api/review/documents/${id}/release`)).status).toBe(200);
  });

  it('refuses the review to anybody not signed in, and to other sites', async () => {
    const stranger = new ReviewBrowser(server.url);
    await expectProblem(await stranger.send('POST', '/api/review/next'), 401, '401-011');
    await expectProblem(await stranger.send('GET', '/api/review/documents'), 401, '401-011');
    const admin = new ReviewBrowser(server.url);
    await admin.signIn('Ada');
    // Even with the cookie and the token, a request from another site's page is refused first.
    await expectProblem(
      await admin.send('POST', '/api/review/next', undefined, { Origin: 'http://evil.example' }),
      403,
      '403-003',
    );
  });
});
