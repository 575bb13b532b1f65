/**
 * The housekeeping loop's sweep on a real store, both engines: expired sessions, used and expired
 * set-up links, used and expired password links go, batch after batch; live ones stay usable.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, openTestStore, type TestStore } from '@extraction-review/test-kit/review/test-stores';
import { OperatorStore } from '../store/operator-store';
import { PasswordLinks } from '../store/password-links';
import { PurgeLog } from '../store/purge-log';
import { QueueStore } from '../store/queue-store';
import { SessionStore } from '../store/session-store';
import { Housekeeping } from './housekeeping';

const T0 = Date.UTC(2026, 5, 1, 8, 0, 0);
const HOUR = 3_600_000;

describe.each(ENGINES)('the housekeeping sweep of sessions and links on %s', (engine) => {
  let store: TestStore;
  beforeAll(async () => {
    store = await openTestStore(engine);
  });
  afterAll(async () => {
    await store.cleanup();
  });

  it('removes expired sessions and spent or expired set-up and password links, and nothing live', async () => {
    const sessions = new SessionStore(store.database, { idleMs: 24 * HOUR, maxMs: 8 * HOUR });
    const links = new PasswordLinks(store.database);
    const operators = new OperatorStore(store.database);
    const op = async (name: string) =>
      (await operators.create({ name, role: 'operator', passwordHash: 'x' }, T0)).id;
    const now = T0 + 10 * HOUR;

    await sessions.create(await op('Old'), T0); // past its 8 hours
    const live = await sessions.create(await op('Live'), now - HOUR);

    const usedSetup = await sessions.createSetupToken(T0, 24 * HOUR);
    expect(await sessions.consumeSetupToken(usedSetup, T0 + 1)).toBe(true);
    await sessions.createSetupToken(T0, HOUR); // expired
    const liveSetup = await sessions.createSetupToken(now - HOUR, 24 * HOUR);

    const used = await links.create(await op('Used'), null, now - HOUR);
    expect((await links.use(used.token, 'y', now - HOUR + 1)).ok).toBe(true);
    await links.create(await op('Expired'), null, T0 - 30 * 24 * HOUR);
    const liveLink = await links.create(await op('Waiting'), null, now - HOUR);

    const housekeeping = new Housekeeping({
      review: { queue: new QueueStore(store.database, 60_000), sessions, clock: { now: () => now } },
      purgeLog: new PurgeLog(store.database),
      intervalMs: 0,
      batch: 1,
    });
    expect(await housekeeping.runOnce()).toMatchObject({ sessions: 1, links: 4, more: false });

    expect(await sessions.find(live.token, now)).toBeDefined();
    expect(await sessions.setupTokenValid(liveSetup, now)).toBe(true);
    expect(await links.check(liveLink.token, now)).toEqual({ name: 'Waiting' });
    const left = async (table: 'sessions' | 'setup_tokens' | 'password_links') =>
      (await store.database.db.selectFrom(table).select('created_at').execute()).length;
    expect([await left('sessions'), await left('setup_tokens'), await left('password_links')]).toEqual([
      1, 1, 1,
    ]);
  });
});
