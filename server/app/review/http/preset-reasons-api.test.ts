/**
 * The reasons a model's review offers (issue 21) over real HTTP, on both engines: the defaults until
 * an admin saves some; saved with the settings' version (a save that leaves them out keeps them, a
 * stale version changes nothing); refused with pointers when empty, too long, too many or twice
 * (422 `422-008`); only admins change them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_REASONS, ModelSettings } from '@extraction-review/contract/review/model-settings';
import { SessionResponse } from '@extraction-review/contract/review/schemas';
import { ErrorResponse } from '@extraction-review/contract/v2/schemas';
import { createApp } from '../../create-app';
import { listen, type RunningServer } from '../../listen';
import { hashPassword } from '../auth/passwords';
import { ENGINES, openTestStore, type TestStore } from '@extraction-review/test-kit/review/test-stores';
import { openReview, type OpenedReview } from '../open-review';
import { mountReview } from './mount-review';

const T0 = Date.UTC(2026, 11, 7, 9, 0, 0);
const PASSWORD = 'correct horse battery staple';
const MODEL = 'reasons-model';
const ROUTING = { autoConfirm: false, minConfidence: 'High', requiredFields: [], samplePercent: 0 };
const REASONS = {
  reject: ['Not ours', 'Unreadable'],
  postpone: [],
  override: ['Checked against the paper original', 'Agreed with the supplier'],
};

class Browser {
  cookie: string | undefined;
  csrf: string | undefined;
  constructor(private readonly base: string) {}

  async send(method: string, path: string, body?: unknown) {
    const response = await fetch(`${this.base}${path}`, {
      method,
      headers: {
        Origin: this.base,
        'Sec-Fetch-Site': 'same-origin',
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...(this.cookie === undefined ? {} : { Cookie: this.cookie }),
        ...(this.csrf === undefined ? {} : { 'X-CSRF-Token': this.csrf }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const setCookie = response.headers.get('set-cookie');
    if (setCookie !== null) this.cookie = setCookie.split(';')[0];
    return response;
  }

  async signIn(name: string) {
    const response = await this.send('POST', '/api/session', { name, password: PASSWORD });
    expect(response.status).toBe(200);
    this.csrf = SessionResponse.parse(await response.json()).csrfToken;
  }
}

async function problem(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  const body = (await response.json()) as Record<string, unknown>;
  expect(ErrorResponse.parse(body)).toMatchObject({ status, code });
  return body;
}

describe.each(ENGINES)('preset reasons on %s', (engine) => {
  let store: TestStore;
  let review: OpenedReview;
  let server: RunningServer;
  let admin: Browser;
  let alice: Browser;
  const clock = T0;
  const path = `/api/review/models/v2/${MODEL}/settings`;

  beforeAll(async () => {
    store = await openTestStore(engine);
    review = await openReview({ ...store.settings, clock: { now: () => clock } });
    server = await listen(createApp({ upstream: {}, staticDir: null, review: mountReview(review) }), {
      host: '127.0.0.1',
      port: 0,
    });
    const passwordHash = await hashPassword(PASSWORD);
    await review.operators.create({ name: 'Ada', role: 'admin', passwordHash }, T0);
    await review.operators.create({ name: 'Alice', role: 'operator', passwordHash }, T0);
    admin = new Browser(server.url);
    await admin.signIn('Ada');
    alice = new Browser(server.url);
    await alice.signIn('Alice');
  });
  afterAll(async () => {
    await server.close();
    await review.close();
    await store.cleanup();
  });

  async function read(browser: Browser = alice) {
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
    const body = await problem(stale, 409, '409-001');
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
    const body = await problem(refused, 422, '422-008');
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
    const repeated = await problem(twice, 422, '422-008');
    expect(repeated.errors).toEqual([
      expect.objectContaining({
        pointer: '#/reasons/reject/1',
        detail: expect.stringMatching(/same reason/),
      }),
    ]);
    // A kind missing, or one not known, is refused too.
    await problem(
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
    await problem(
      await alice.send('PUT', path, { version: 2, routing: ROUTING, rules: [], reasons: REASONS }),
      403,
      '403-005',
    );
  });
});
