/**
 * Integration webhooks aimed inside (issue 18), on both engines, written as the attack: an admin's
 * webhook URL naming or resolving to loopback, private, link-local (cloud metadata), unique-local,
 * carrier-grade NAT, multicast, reserved or unspecified addresses is refused when it is set, unless
 * ALLOW_PRIVATE_WEBHOOKS allows it; and checked again before each delivery, with a real receiver on
 * 127.0.0.1: a URL stored before the rule is refused at send time (failed once, with the reason, never
 * retried, nothing received); a name that answered a public address when it was set and 127.0.0.1 now
 * (DNS rebinding) is refused; and the connection goes to the address that was checked, never to a
 * second resolution of the name.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookAddressGuard, type Resolver } from '@extraction-review/server-kit/webhook-address';
import { ENGINES, openTestStore, type TestStore } from '@extraction-review/test-kit/review/test-stores';
import { IntegrationStore, WebhookRefusedError } from '../store/integration-store';
import { OperatorStore } from '../store/operator-store';
import { QueueStore } from '../store/queue-store';
import { DeliveryStore } from './delivery-store';
import { DeliveryWorker } from './delivery-worker';
import { deliveriesOnConfirm } from './deliveries-on-confirm';
import { systemClock } from '@extraction-review/server-kit/clock';

const V2_RESULT = JSON.stringify({ inference: { result: { fields: {} } } });
const FAST = { maxAttempts: 3, initialDelayMs: 1, maxDelayMs: 1, attemptTimeoutMs: 2_000 };
const PUBLIC = '93.184.215.14';

/** Every kind of address a webhook must not reach unasked, as an attacker would spell them. */
const INSIDE = [
  'http://127.0.0.1:9/hook',
  'http://localhost:9/hook',
  'http://2130706433/hook', // 127.0.0.1 as one number
  'http://0x7f.1/hook', // 127.0.0.1 in hex, short form
  'http://[::1]/hook',
  'http://[::ffff:127.0.0.1]/hook',
  'http://10.0.0.5/hook',
  'http://172.16.3.4/hook',
  'http://192.168.1.1/hook',
  'http://169.254.169.254/latest/meta-data/',
  'http://[fe80::1]/hook',
  'http://[fd00::1]/hook',
  'http://100.64.0.1/hook',
  'http://0.0.0.0/hook',
  'http://224.0.0.1/hook',
  'http://240.0.0.1/hook',
  'https://metadata.test/computeMetadata/v1/',
  'https://mixed.test/hook',
];

/** A DNS of our own: what each name resolves to, counted. */
function fakeDns(table: Record<string, string[]>): Resolver & { calls: string[] } {
  const calls: string[] = [];
  const resolve = (async (host: string) => {
    calls.push(host);
    const addresses = table[host];
    if (addresses === undefined) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }) as const);
  }) as Resolver & { calls: string[] };
  resolve.calls = calls;
  return resolve;
}

const DNS = {
  localhost: ['127.0.0.1', '::1'],
  'metadata.test': ['169.254.169.254'],
  'mixed.test': [PUBLIC, '10.1.2.3'],
  'hooks.public.test': [PUBLIC],
};

interface Receiver {
  port: number;
  calls: http.IncomingHttpHeaders[];
  close(): Promise<void>;
}

async function listenReceiver(): Promise<Receiver> {
  const calls: http.IncomingHttpHeaders[] = [];
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      calls.push(request.headers);
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

describe.each(ENGINES)('integration webhooks aimed inside, on %s', (engine) => {
  let store: TestStore;
  let operatorId: string;
  let queue: QueueStore;
  let receiver: Receiver;
  let deliveries: DeliveryStore;

  beforeAll(async () => {
    store = await openTestStore(engine);
    operatorId = (
      await new OperatorStore(store.database).create(
        { name: 'Ada', role: 'admin', passwordHash: 'x' },
        Date.now(),
      )
    ).id;
    queue = new QueueStore(store.database, 600_000, undefined, deliveriesOnConfirm({ rag: false }));
    deliveries = new DeliveryStore(store.database);
    receiver = await listenReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await store.cleanup();
  });

  /** A confirmed document of the integration: its webhook delivery is written, pending. */
  async function confirmedDelivery(integrationId: string) {
    const now = Date.now();
    const added = await queue.addDocument(
      {
        apiVersion: 'v2',
        modelKey: 'model-1',
        fileName: 'scan.pdf',
        upstreamJobId: `job-${now}-${Math.random()}`,
        integrationId,
      },
      now,
    );
    await queue.setResult(
      added.id,
      { json: V2_RESULT, resultId: null, fieldsTotal: 0, fieldsToReview: 0 },
      now,
    );
    const taken = await queue.take(added.id, operatorId, now);
    if (!taken.ok) throw new Error('not taken');
    const decided = await queue.decide(added.id, operatorId, taken.document.version, 'confirmed', null, now);
    if (!decided.ok) throw new Error('not confirmed');
    const [delivery] = await deliveries.forDocument(added.id);
    if (delivery === undefined) throw new Error('no delivery');
    return delivery;
  }

  function worker(webhooks: WebhookAddressGuard, log: string[] = []) {
    return new DeliveryWorker({
      database: store.database,
      clock: systemClock,
      upstream: {},
      retry: FAST,
      webhooks,
      log: (message) => log.push(message),
    });
  }

  it('refuses every address inside when the URL is set, and writes nothing', async () => {
    const integrations = new IntegrationStore(store.database, {
      webhooks: new WebhookAddressGuard([], fakeDns(DNS)),
    });
    await integrations.create({ name: `plain-${engine}` }, Date.now());
    for (const url of INSIDE) {
      await expect(
        integrations.create({ name: `x-${url}`, webhookUrl: url }, Date.now()),
        url,
      ).rejects.toThrow(WebhookRefusedError);
      await expect(integrations.setWebhook(`plain-${engine}`, url), url).rejects.toThrow(
        /ALLOW_PRIVATE_WEBHOOKS/,
      );
    }
    expect(await integrations.findByName(`plain-${engine}`)).toMatchObject({ webhook_url: null });
    expect((await integrations.list()).map((i) => i.name)).toEqual([`plain-${engine}`]);
    await expect(integrations.setWebhook(`plain-${engine}`, 'http://169.254.169.254/')).rejects.toThrow(
      /169\.254\.169\.254 is a link-local \(where cloud metadata services answer\) address/,
    );
    await expect(integrations.setWebhook(`plain-${engine}`, 'https://mixed.test/')).rejects.toThrow(
      /mixed\.test is at 10\.1\.2\.3, a private address/,
    );

    // Public addresses are taken; a name that does not resolve now is taken with a note.
    expect(await integrations.setWebhook(`plain-${engine}`, 'https://hooks.public.test/x')).toMatchObject({
      row: { webhook_url: 'https://hooks.public.test/x' },
      webhookNote: null,
    });
    expect((await integrations.setWebhook(`plain-${engine}`, 'https://later.test/x'))?.webhookNote).toMatch(
      /later\.test could not be resolved \(ENOTFOUND\); it is checked again before each delivery/,
    );
  });

  it('takes what ALLOW_PRIVATE_WEBHOOKS names (host, address, range), and nothing else', async () => {
    const integrations = new IntegrationStore(store.database, {
      webhooks: new WebhookAddressGuard(['127.0.0.1', 'metadata.test', '10.0.0.0/8'], fakeDns(DNS)),
    });
    for (const [i, url] of [
      'http://127.0.0.1:9/hook',
      'http://2130706433/hook',
      'https://metadata.test/',
      'http://10.200.0.1/hook',
    ].entries()) {
      await expect(
        integrations.create({ name: `allowed-${i}-${engine}`, webhookUrl: url }, Date.now()),
      ).resolves.toBeDefined();
    }
    for (const url of [
      'http://[::1]/hook',
      'http://localhost/hook',
      'http://192.168.1.1/',
      'http://169.254.169.254/',
    ])
      await expect(
        integrations.create({ name: `y-${url}`, webhookUrl: url }, Date.now()),
        url,
      ).rejects.toThrow(WebhookRefusedError);
  });

  it('refuses at send time a loopback URL stored before the rule: failed once, with the reason, nothing sent', async () => {
    const integrations = new IntegrationStore(store.database);
    const { integration } = await integrations.create({ name: `before-${engine}` }, Date.now());
    // Stored by an older version, which took any URL: written straight into the table.
    await store.database.db
      .updateTable('integrations')
      .set({ webhook_url: `http://127.0.0.1:${receiver.port}/hook`, webhook_secret: 'whsec_old' })
      .where('id', '=', integration.id)
      .execute();
    const delivery = await confirmedDelivery(integration.id);
    const log: string[] = [];
    const strict = worker(new WebhookAddressGuard(), log);
    await strict.drain();
    await strict.drain();
    const after = await deliveries.find(delivery.id);
    expect(after).toMatchObject({ state: 'failed', attempts: 0 });
    expect(after?.last_error).toMatch(
      /address 127\.0\.0\.1 is a loopback address: .*ALLOW_PRIVATE_WEBHOOKS.* The webhook was not sent\./,
    );
    expect(receiver.calls).toHaveLength(0);
    expect(log).toHaveLength(1);

    // The same delivery, retried by an admin once ALLOW_PRIVATE_WEBHOOKS allows the receiver: sent.
    await deliveries.retry(delivery.id, Date.now());
    await worker(new WebhookAddressGuard(['127.0.0.1'])).drain();
    expect(await deliveries.find(delivery.id)).toMatchObject({ state: 'delivered', attempts: 1 });
    expect(receiver.calls).toHaveLength(1);
    receiver.calls.length = 0;
  });

  it('refuses a name that resolved to a public address when set and to 127.0.0.1 now (DNS rebinding)', async () => {
    const dns = { 'rebind.test': [PUBLIC] } as Record<string, string[]>;
    const resolver = fakeDns(dns);
    const integrations = new IntegrationStore(store.database, {
      webhooks: new WebhookAddressGuard([], resolver),
    });
    const { integration } = await integrations.create(
      { name: `rebind-${engine}`, webhookUrl: `http://rebind.test:${receiver.port}/hook` },
      Date.now(),
    );
    dns['rebind.test'] = ['127.0.0.1'];
    const delivery = await confirmedDelivery(integration.id);
    await worker(new WebhookAddressGuard([], resolver)).drain();
    expect(await deliveries.find(delivery.id)).toMatchObject({ state: 'failed', attempts: 0 });
    expect((await deliveries.find(delivery.id))?.last_error).toMatch(
      /rebind\.test is at 127\.0\.0\.1, a loopback address/,
    );
    expect(receiver.calls).toHaveLength(0);
  });

  it('connects to the address it checked, never to a second answer of the name', async () => {
    // `pinned.test` answers 127.0.0.1 once (allowed), then an address nobody listens on; the system's
    // own resolver knows no such name: a delivery can only arrive through the checked address.
    let answers = 0;
    const resolver: Resolver = async (host) => {
      if (host !== 'pinned.test') throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
      answers += 1;
      return [{ address: answers === 1 ? '127.0.0.1' : '10.255.255.1', family: 4 }];
    };
    const guard = new WebhookAddressGuard(['127.0.0.1'], resolver);
    const integrations = new IntegrationStore(store.database, { webhooks: guard });
    const { integration } = await integrations.create({ name: `pinned-${engine}` }, Date.now());
    await store.database.db
      .updateTable('integrations')
      .set({ webhook_url: `http://pinned.test:${receiver.port}/hook` })
      .where('id', '=', integration.id)
      .execute();
    const delivery = await confirmedDelivery(integration.id);
    await worker(guard).drain();
    expect(answers).toBe(1);
    expect(await deliveries.find(delivery.id)).toMatchObject({ state: 'delivered' });
    expect(receiver.calls.map((headers) => headers.host)).toEqual([`pinned.test:${receiver.port}`]);
    receiver.calls.length = 0;
  });

  it('retries a name that does not resolve at send time, then fails it with the reason', async () => {
    const integrations = new IntegrationStore(store.database, {
      webhooks: new WebhookAddressGuard([], fakeDns({})),
    });
    const { integration } = await integrations.create(
      { name: `gone-${engine}`, webhookUrl: 'https://gone.test/hook' },
      Date.now(),
    );
    const delivery = await confirmedDelivery(integration.id);
    const w = worker(new WebhookAddressGuard([], fakeDns({})));
    for (let i = 0; i < FAST.maxAttempts; i++) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      await w.drain();
    }
    const after = await deliveries.find(delivery.id);
    expect(after).toMatchObject({ state: 'failed', attempts: FAST.maxAttempts });
    expect(after?.last_error).toMatch(
      /could not be reached \(the webhook URL's host gone\.test could not be resolved \(ENOTFOUND\)\)/,
    );
  });
});
