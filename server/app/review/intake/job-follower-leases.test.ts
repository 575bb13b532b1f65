/**
 * The job follower with several app-server copies on one store (issue 19), on both engines, against a
 * real upstream on 127.0.0.1 that counts the polls it gets. Times come from an injected clock: a
 * follower looks only when its clock says a job is due, so counts are exact and nothing sleeps.
 *
 * - three followers on one store poll each job once per due time, as one follower does;
 * - a follower that stops gives its jobs back at once; one that dies mid-check (its request never
 *   answered) holds them until its lease runs out, then another copy carries on;
 * - a 404 fails a document only when it comes from the upstream that took it: a document of another
 *   upstream is not even polled, one of no recorded upstream (kept before) waits its 15 minutes.
 */
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startUpstream, v2JobBody, type TestUpstream } from '@extraction-review/test-kit/app/upstream';
import { ENGINES, openTestStore, type TestStore } from '@extraction-review/test-kit/review/test-stores';
import { QueueStore } from '../store/queue-store';
import { FIRST_CHECK_MS, FOLLOW_LEASE_MS, GIVE_UP_MS, JobFollower, type FollowerDeps } from './job-follower';
import { EMBEDDED_REFERENCE_IDENTITY, upstreamIdentity } from './upstream-identity';

const T0 = 1_800_000_000_000;

describe.each(ENGINES)('the job follower with several copies on %s', (engine) => {
  let store: TestStore;
  let queue: QueueStore;
  let upstream: TestUpstream;
  let clock = T0;
  const followers: JobFollower[] = [];

  beforeAll(async () => {
    store = await openTestStore(engine);
    queue = new QueueStore(store.database, 60_000);
    upstream = await startUpstream((req, res) => {
      const job = decodeURIComponent((req.url ?? '').split('?')[0]?.split('/').at(-1) ?? '');
      if (job.startsWith('gone-')) answer(res, 404, { status: 404, title: 'Not found' });
      else answer(res, 200, v2JobBody(job));
    });
  });
  afterAll(async () => {
    await upstream.close();
    await store.cleanup();
  });
  beforeEach(async () => {
    await Promise.all(followers.splice(0).map((f) => f.stop()));
    await store.database.db.deleteFrom('documents').execute();
    upstream.requests.length = 0;
    clock = T0;
  });

  function follower(extra: Partial<FollowerDeps> = {}): JobFollower {
    const made = new JobFollower({
      review: { queue, database: store.database, clock: { now: () => clock } },
      upstream: { v2: { url: upstream.url, apiKey: 'test-key' } },
      ...extra,
    });
    followers.push(made);
    return made;
  }

  async function addJob(job: string, upstreamId: string | null = upstreamIdentity(upstream.url)) {
    return queue.addDocument(
      { apiVersion: 'v2', modelKey: 'model-a', fileName: `${job}.pdf`, upstreamJobId: job, upstreamId },
      T0,
    );
  }

  /** How many times each job was polled, by job id. */
  function polls(): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const request of upstream.requests) {
      const job = decodeURIComponent(request.url.split('?')[0]?.split('/').at(-1) ?? '');
      counts[job] = (counts[job] ?? 0) + 1;
    }
    return counts;
  }

  async function row(id: string) {
    return store.database.db
      .selectFrom('documents')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  }

  it('polls each job once per due time with three copies, as with one', async () => {
    const jobs = ['job-1', 'job-2', 'job-3', 'job-4', 'job-5', 'job-6'];
    for (const job of jobs) await addJob(job);
    const copies = [follower(), follower(), follower()];
    const allTick = () => Promise.all(copies.map((copy) => copy.tick()));

    clock = T0 + FIRST_CHECK_MS - 1;
    await allTick();
    expect(upstream.requests).toHaveLength(0);

    clock = T0 + FIRST_CHECK_MS;
    await allTick();
    expect(polls()).toEqual(Object.fromEntries(jobs.map((job) => [job, 1])));
    await allTick();
    await allTick();
    expect(upstream.requests).toHaveLength(jobs.length);

    // Backing off ×1.5: the next look 2.25 s later, by whichever copy takes it first.
    clock += FIRST_CHECK_MS * 1.5 - 1;
    await allTick();
    expect(upstream.requests).toHaveLength(jobs.length);
    clock += 1;
    await allTick();
    await allTick();
    expect(polls()).toEqual(Object.fromEntries(jobs.map((job) => [job, 2])));

    const [first] = jobs;
    const document = await store.database.db
      .selectFrom('documents')
      .selectAll()
      .where('upstream_job_id', '=', first ?? '')
      .executeTakeFirstOrThrow();
    expect(document).toMatchObject({
      state: 'processing',
      follow_holder: null,
      follow_until: null,
      check_interval_ms: FIRST_CHECK_MS * 1.5 * 1.5,
      next_check_at: clock + FIRST_CHECK_MS * 1.5 * 1.5,
    });

    // On through the back-off (whole milliseconds in the row) up to its 30 s ceiling: still once each.
    let interval = FIRST_CHECK_MS * 1.5 * 1.5;
    for (let round = 3; round <= 12; round++) {
      clock += interval;
      await allTick();
      await allTick();
      expect(polls()).toEqual(Object.fromEntries(jobs.map((job) => [job, round])));
      interval = Math.round(Math.min(interval * 1.5, 30_000));
    }
    expect(interval).toBe(30_000);
  });

  it('hands a job over at once when its follower stops, after the lease when it dies', async () => {
    // A follower whose upstream never answers, until its request is cut short (stop()). It is the
    // same upstream to the store (the identity of the one that took the jobs), at another address.
    const stalled = await startUpstream(() => undefined);
    const stalledDeps: Partial<FollowerDeps> = {
      upstream: { v2: { url: stalled.url, apiKey: 'test-key', identity: upstreamIdentity(upstream.url) } },
    };
    const whenAsked = () => stalled.nextRequest('/v2/jobs/');

    // Dies: holds job-a, mid-check, forever.
    const a = await addJob('job-a');
    clock = T0 + FIRST_CHECK_MS;
    const dying = follower(stalledDeps);
    const asking = whenAsked();
    const dyingTick = dying.tick();
    await asking;
    expect((await row(a.id)).follow_holder).toBe(dying.holder);

    const other = follower();
    await other.tick();
    expect(polls()['job-a']).toBeUndefined();
    clock = T0 + FIRST_CHECK_MS + FOLLOW_LEASE_MS - 1;
    await other.tick();
    expect(polls()['job-a']).toBeUndefined();
    clock += 1;
    await other.tick();
    expect(polls()['job-a']).toBe(1);
    const afterTakeover = await row(a.id);
    expect(afterTakeover).toMatchObject({ follow_holder: null, next_check_at: clock + FIRST_CHECK_MS * 1.5 });

    // The dead copy's late end changes nothing: the lease is no longer its own.
    await dying.stop();
    await dyingTick;
    expect(await row(a.id)).toMatchObject({
      follow_holder: null,
      next_check_at: afterTakeover.next_check_at,
      check_interval_ms: afterTakeover.check_interval_ms,
    });

    // Stops: job-b is given back, due at once for the other copy.
    const b = await queue.addDocument(
      { apiVersion: 'v2', modelKey: 'model-a', fileName: 'b.pdf', upstreamJobId: 'job-b', upstreamId: null },
      clock - FIRST_CHECK_MS,
    );
    const stopping = follower(stalledDeps);
    const askedB = whenAsked();
    const stoppingTick = stopping.tick();
    await askedB;
    expect((await row(b.id)).follow_holder).toBe(stopping.holder);
    await stopping.stop();
    await stoppingTick;
    expect((await row(b.id)).follow_holder).toBeNull();
    await other.tick();
    expect(polls()['job-b']).toBe(1);
    expect(stalled.requests).toHaveLength(2);
    // Both cut short (their connections closed, never answered): at stop(), the dead one's at last.
    await Promise.all(stalled.requests.map((r) => r.closed));
    await stalled.close();
  });

  it('fails a document on a 404 only from the upstream that took it', async () => {
    const mine = await addJob('gone-mine');
    const foreign = await addJob('gone-foreign', upstreamIdentity('http://elsewhere.example:9000/api/'));
    const old = await addJob('gone-old', null);
    const copy = follower();

    clock = T0 + FIRST_CHECK_MS;
    await copy.tick();
    expect(polls()).toEqual({ 'gone-mine': 1, 'gone-old': 1 });
    expect(await row(mine.id)).toMatchObject({
      state: 'failed',
      error_json: JSON.stringify({ title: 'Job not found upstream' }),
    });
    expect((await row(old.id)).state).toBe('processing');
    expect((await row(foreign.id)).state).toBe('processing');

    // The old document waits its 15 minutes; the other upstream's is never polled nor failed here.
    clock = T0 + GIVE_UP_MS + 1;
    await copy.tick();
    expect(polls()).toEqual({ 'gone-mine': 1, 'gone-old': 2 });
    expect(await row(old.id)).toMatchObject({ state: 'failed' });
    expect(JSON.parse((await row(old.id)).error_json ?? '{}')).toMatchObject({ title: 'Result never came' });
    expect((await row(foreign.id)).state).toBe('processing');
  });

  it("follows the embedded reference service's jobs after a restart on another port", async () => {
    // Recorded by the copy before its restart, whose embedded service listened on another port.
    const before = await addJob('restarted', EMBEDDED_REFERENCE_IDENTITY);
    const copy = follower({
      upstream: { v2: { url: upstream.url, apiKey: 'test-key', identity: EMBEDDED_REFERENCE_IDENTITY } },
    });
    clock = T0 + FIRST_CHECK_MS;
    await copy.tick();
    expect(polls()).toEqual({ restarted: 1 });
    expect((await row(before.id)).state).toBe('processing');
  });
});

function answer(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}
