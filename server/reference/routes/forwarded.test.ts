/**
 * The base of the URLs the service writes: REFERENCE_PUBLIC_URL, else what a trusted proxy forwards
 * (X-Forwarded-Proto/Host or Forwarded), else the listening address. Forwarded headers from a peer
 * that is not trusted change nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReferenceService } from '../create-reference-service';
import { expectJobResponse } from '@extraction-review/test-kit/reference/contract';
import { generatePdf } from '@extraction-review/test-kit/reference/generate-pdf';
import {
  INVOICE_MODEL_ID,
  makeDataDir,
  startTestService,
  TEST_API_KEY,
  waitForJob,
} from '@extraction-review/test-kit/reference/reference-harness';
import { forwardedOrigin, trustedPeers } from '@extraction-review/server-kit/trusted-proxy';

let data: Awaited<ReturnType<typeof makeDataDir>>;
let pdf: Uint8Array;
const services: ReferenceService[] = [];

beforeAll(async () => {
  data = await makeDataDir();
  pdf = (await generatePdf([{ lines: [{ text: 'Invoice number: FWD-1', x: 72, y: 700 }] }])).bytes;
});
afterAll(async () => {
  await Promise.all(services.map((s) => s.close()));
  await data.remove();
});

async function serviceWith(options: Parameters<typeof startTestService>[1]): Promise<ReferenceService> {
  const service = await startTestService(`${data.dir}/${services.length}`, options);
  services.push(service);
  return service;
}

/** Enqueues from this test process (peer 127.0.0.1) with the given extra headers. */
async function enqueueWith(service: ReferenceService, headers: Record<string, string>) {
  const form = new FormData();
  form.set('model_id', INVOICE_MODEL_ID);
  form.set('file', new Blob([new Uint8Array(pdf)]), 'f.pdf');
  const response = await fetch(`${service.url}/v2/products/extraction/enqueue`, {
    method: 'POST',
    headers: { Authorization: TEST_API_KEY, ...headers },
    body: form,
  });
  expect(response.status).toBe(202);
  return expectJobResponse(await response.json()).job;
}

const TLS_PROXY = { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'reference.test' };

describe('URLs behind a proxy', () => {
  it('follows X-Forwarded-Proto/Host from a trusted peer, in polling_url, result_url and Location', async () => {
    const service = await serviceWith({ trustProxy: ['loopback'], allowedHosts: ['reference.test'] });
    const job = await enqueueWith(service, TLS_PROXY);
    expect(job.polling_url).toBe(`https://reference.test/v2/jobs/${job.id}`);
    await waitForJob(service, job.id);
    const poll = await fetch(`${service.url}/v2/jobs/${job.id}`, {
      headers: { Authorization: TEST_API_KEY, ...TLS_PROXY },
      redirect: 'manual',
    });
    expect(poll.status).toBe(302);
    const { job: processed } = expectJobResponse(await poll.json());
    expect(processed.result_url).toMatch(/^https:\/\/reference\.test\/v2\/products\/extraction\/results\//);
    expect(poll.headers.get('location')).toBe(processed.result_url);
  });

  it('reads Forwarded too, and keeps the Host header when only the protocol is forwarded', async () => {
    const service = await serviceWith({
      trustProxy: ['127.0.0.1', '::1'],
      allowedHosts: ['api.example.test:8443'],
    });
    const viaForwarded = await enqueueWith(service, {
      Forwarded: 'for=192.0.2.60;proto=https;host="api.example.test:8443", for=10.0.0.1',
    });
    expect(viaForwarded.polling_url).toBe(`https://api.example.test:8443/v2/jobs/${viaForwarded.id}`);

    const protoOnly = await enqueueWith(service, { 'X-Forwarded-Proto': 'https' });
    expect(protoOnly.polling_url).toBe(`${service.url.replace('http:', 'https:')}/v2/jobs/${protoOnly.id}`);

    const junk = await enqueueWith(service, {
      'X-Forwarded-Proto': 'gopher',
      'X-Forwarded-Host': 'evil.test/path?x=1',
    });
    expect(junk.polling_url).toBe(`${service.url}/v2/jobs/${junk.id}`);
  });

  it('ignores forwarded headers from a peer it does not trust, and by default', async () => {
    for (const service of [await serviceWith({ trustProxy: ['10.0.0.0/8'] }), await serviceWith({})]) {
      const job = await enqueueWith(service, TLS_PROXY);
      expect(job.polling_url).toBe(`${service.url}/v2/jobs/${job.id}`);
    }
  });

  it('lets REFERENCE_PUBLIC_URL win over forwarded headers', async () => {
    const service = await serviceWith({
      trustProxy: ['loopback'],
      publicUrl: 'https://public.example.test/api',
      allowedHosts: ['reference.test'],
    });
    const job = await enqueueWith(service, TLS_PROXY);
    expect(job.polling_url).toBe(`https://public.example.test/api/v2/jobs/${job.id}`);
  });
});

describe('trustedPeers', () => {
  it('matches loopback, addresses and ranges, IPv4-mapped addresses as IPv4', () => {
    const loopback = trustedPeers(['loopback']);
    expect(loopback('127.0.0.1')).toBe(true);
    expect(loopback('127.8.9.10')).toBe(true);
    expect(loopback('::1')).toBe(true);
    expect(loopback('::ffff:127.0.0.1')).toBe(true);
    expect(loopback('10.0.0.1')).toBe(false);
    expect(loopback(undefined)).toBe(false);

    const ranges = trustedPeers(['10.0.0.0/8', '2001:db8::/32', '192.0.2.7']);
    expect(ranges('10.200.0.1')).toBe(true);
    expect(ranges('::ffff:10.1.1.1')).toBe(true);
    expect(ranges('2001:db8:1::5')).toBe(true);
    expect(ranges('192.0.2.7')).toBe(true);
    expect(ranges('192.0.2.8')).toBe(false);
    expect(ranges('127.0.0.1')).toBe(false);

    expect(trustedPeers([])('127.0.0.1')).toBe(false);
  });
});

describe('forwardedOrigin', () => {
  it('takes the first hop, and drops what is not a plain protocol or host', () => {
    const headers = (init: Record<string, string>) => new Headers(init);
    expect(
      forwardedOrigin(headers({ 'X-Forwarded-Proto': 'https, http', 'X-Forwarded-Host': 'a.test, b.test' })),
    ).toEqual({ proto: 'https', host: 'a.test' });
    expect(forwardedOrigin(headers({ Forwarded: 'proto=HTTPS;host=[::1]:8443' }))).toEqual({
      proto: 'https',
      host: '[::1]:8443',
    });
    expect(forwardedOrigin(headers({ 'X-Forwarded-Host': 'user@evil.test' }))).toEqual({
      proto: undefined,
      host: undefined,
    });
    expect(forwardedOrigin(headers({}))).toEqual({ proto: undefined, host: undefined });
  });
});
