/**
 * The reasons a model's review offers (issue 21) over real HTTP, on both engines: the defaults until
 * an admin saves some; saved with the settings' version (a save that leaves them out keeps them, a
 * stale version changes nothing); refused with pointers when empty, too long, too many or twice
 * (422 `422-008`); only admins change them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_REASONS, ModelSettings } from '@extraction-review/contract/review/model-settings';
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
const MODEL = 'reasons-model';
const ROUTING = { autoConfirm: false, minConfidence: 'High', requiredFields: [], samplePercent: 0 };
const REASONS = {
  reject: ['Not ours', 'Unreadable'],
  postpone: [],
  override: ['Checked against the paper original', 'Agreed with the supplier'],
};

describe.each(ENGINES)('preset reasons on %s', (engine) => {
  let store: TestStore;
  let review: OpenedReview;
  let server: RunningServer;
  let admin: ReviewBrowser;
  let alice: ReviewBrowser;
  const clock = T0;
  const path = `/api/review/models/v2/${MODEL}/settings`;

  beforeAll(async () => {
    ({ store, review, server, admin, alice } = await openReviewApiTeam(engine, () => clock, T0));
  });
  afterAll(() => closeReviewApi({ store, review, server }));

  async function read(browser: ReviewBrowser = alice) {
    const response = await browser.send('GET', path);
    expect(response.status).toBe(200);
    return ModelSettings.parse(await response.json());
  }

  it('offers the defaults until an admin saves some', async () => {
    expect(await read()).toMatchObject({ version: 0, reasons: DEFAULT_REASONS });
  });

  it('saves them trimmed with the settings’ version; a save without them keeps them', async () => {
    const saved = await admin.send('PUT', path, {
      version: 0,
      routing: ROUTING,
      rules: [],
      reasons: { ...REASONS, reject: ['  Not ours ', 'Unreadable'] },
    });
    expect(saved.status).toBe(200);
    expect(ModelSettings.parse(await saved.json())).toMatchObject({ version: 1, reasons: REASONS });
    expect(await read()).toMatchObject({ version: 1, reasons: REASONS });

    // A client that does not know the reasons (an older script) saves the routing: they stay.
    const routingOnly = await admin.send('PUT', path, {
      version: 1,
      routing: { ...ROUTING, samplePercent: 5 },
      rules: [],
    });
    expect(routingOnly.status).toBe(200);
    expect(await read()).toMatchObject({ version: 2, routing: { samplePercent: 5 }, reasons: REASONS });

    const models = await alice.send('GET', '/api/review/models');
    const listed = ((await models.json()) as { models: { model: string; reasons: unknown }[] }).models;
    expect(listed.find((m) => m.model === MODEL)?.reasons).toEqual(REASONS);
  });

  it('changes nothing on a stale version (409 with the reasons as they are now)', async () => {
    const stale = await admin.send('PUT', path, {
      version: 1,
      routing: ROUTING,
      rules: [],
      reasons: { reject: [], postpone: [], override: [] },
    });
    const body = await expectProblem(stale, 409, '409-001');
    expect(ModelSettings.parse(body.current)).toMatchObject({ version: 2, reasons: REASONS });
    expect(await read()).toMatchObject({ version: 2, reasons: REASONS });
  });

  it('refuses empty, long, repeated or too many reasons, pointing at each (422-008)', async () => {
    const refused = await admin.send('PUT', path, {
      version: 2,
      routing: ROUTING,
      rules: [],
      reasons: {
        reject: ['Unreadable', '   ', 'unreadable '],
        postpone: ['x'.repeat(201)],
        override: Array.from({ length: 31 }, (_, i) => `Reason ${String(i)}`),
      },
    });
    const body = await expectProblem(refused, 422, '422-008');
    const pointers = (body.errors as { pointer: string }[]).map((e) => e.pointer);
    expect(pointers).toEqual(
      expect.arrayContaining(['#/reasons/reject/1', '#/reasons/postpone/0', '#/reasons/override']),
    );
    // Only once the list is otherwise valid can zod see the repetition: sent alone, it is pointed at.
    const twice = await admin.send('PUT', path, {
      version: 2,
      routing: ROUTING,
      rules: [],
      reasons: { reject: ['Unreadable', 'unreadable '], postpone: [], override: [] },
    });
    const repeated = await expectProblem(twice, 422, '422-008');
    expect(repeated.errors).toEqual([
      expect.objectContaining({
        pointer: '#/reasons/reject/1',
        detail: expect.stringMatching(/same reason/),
      }),
    ]);
    // A kind missing, or one not known, is refused too.
    await expectProblem(
      await admin.send('PUT', path, {
        version: 2,
        routing: ROUTING,
        rules: [],
        reasons: { reject: [], postpone: [], override: [], other: [] },
      }),
      422,
      '422-008',
    );
    expect(await read()).toMatchObject({ version: 2, reasons: REASONS });
  });

  it('lets only admins change them', async () => {
    await expectProblem(
      await alice.send('PUT', path, { version: 2, routing: ROUTING, rules: [], reasons: REASONS }),
      403,
      '403-005',
    );
  });
});
