/**
 * The gateway's record of whose an upstream id is, on both engines: an id keeps its first owner, and
 * a batch with an id already recorded still records the others.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, openTestStore, type TestStore } from '@extraction-review/test-kit/review/test-stores';
import { GatewayIdsStore } from './gateway-ids-store';
import { IntegrationStore } from './integration-store';

const T0 = 1_800_000_000_000;

describe.each(ENGINES)('the gateway ids on %s', (engine) => {
  let store: TestStore;
  let ids: GatewayIdsStore;
  let a: string;
  let b: string;

  beforeAll(async () => {
    store = await openTestStore(engine);
    ids = new GatewayIdsStore(store.database);
    const integrations = new IntegrationStore(store.database);
    a = (await integrations.create({ name: 'A' }, T0)).integration.id;
    b = (await integrations.create({ name: 'B' }, T0)).integration.id;
  });
  afterAll(async () => {
    await store.cleanup();
  });

  it('keeps the first owner of an id, and records the rest of a batch', async () => {
    await ids.record([{ api_version: 'v2', kind: 'inference', upstream_id: 'i-1', integration_id: a }], T0);
    await ids.record(
      [
        { api_version: 'v2', kind: 'inference', upstream_id: 'i-1', integration_id: b },
        { api_version: 'v2', kind: 'inference', upstream_id: 'i-2', integration_id: b },
      ],
      T0 + 1,
    );

    expect(await ids.findOwner('v2', 'inference', 'i-1')).toEqual({ integration_id: a });
    expect(await ids.findOwner('v2', 'job', 'i-1')).toBeUndefined();
    expect(await ids.findOwner('v1', 'inference', 'i-1')).toBeUndefined();
    const owners = await ids.listOwners('v2', 'inference', ['i-1', 'i-2', 'i-3']);
    expect(owners.sort((x, y) => x.upstream_id.localeCompare(y.upstream_id))).toEqual([
      { upstream_id: 'i-1', integration_id: a },
      { upstream_id: 'i-2', integration_id: b },
    ]);
  });
});
