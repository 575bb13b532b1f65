/**
 * The reference service's Host check (REFERENCE_ALLOWED_HOSTS), over real HTTP: on loopback it
 * answers only to its own names, the listed hosts and REFERENCE_PUBLIC_URL's, checking the host a
 * trusted proxy forwards; every refusal a 421 problem naming the REFERENCE_ settings.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorResponse } from '@extraction-review/contract/v2/schemas';
import { json, rawRequest } from '@extraction-review/test-kit/app/http-client';
import { checksHosts, type ReferenceService } from '../create-reference-service';
import {
  makeDataDir,
  startTestService,
  TEST_API_KEY,
} from '@extraction-review/test-kit/reference/reference-harness';

let data: Awaited<ReturnType<typeof makeDataDir>>;
const services: ReferenceService[] = [];

beforeAll(async () => {
  data = await makeDataDir();
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

const get = (service: ReferenceService, pathname: string, headers: Record<string, string>) =>
  rawRequest(`${service.url}${pathname}`, { headers: { Authorization: TEST_API_KEY, ...headers } });

describe('the reference service on loopback', () => {
  it('refuses a foreign Host on every route with a 421 naming its settings', async () => {
    const service = await serviceWith({});
    for (const pathname of ['/health', '/v2/search/models', '/v1/extensions/products', '/v2/nowhere']) {
      const response = await get(service, pathname, { Host: 'evil.example' });
      expect(response.status, pathname).toBe(421);
      expect(response.headers['content-type']).toBe('application/problem+json');
      const problem = ErrorResponse.parse(json(response));
      expect(problem.code).toBe('421-001');
      expect(problem.detail).toContain('REFERENCE_ALLOWED_HOSTS');
      expect(problem.detail).toContain('REFERENCE_PUBLIC_URL');
      expect(problem.detail).toContain('REFERENCE_TRUST_PROXY');
    }
  });

  it('answers its own names, the listed hosts and its public URL', async () => {
    const service = await serviceWith({
      allowedHosts: ['reference.internal'],
      publicUrl: 'https://reference.example.org/base/',
    });
    const port = new URL(service.url).port;
    for (const host of [
      `127.0.0.1:${port}`,
      `localhost:${port}`,
      'reference.internal',
      'reference.example.org',
    ]) {
      expect((await get(service, '/v2/search/models', { Host: host })).status, host).toBe(200);
    }
    expect((await get(service, '/v2/search/models', { Host: 'other.example.org' })).status).toBe(421);
  });

  it('checks the host a trusted proxy forwards', async () => {
    const service = await serviceWith({ trustProxy: ['loopback'], allowedHosts: ['reference.test'] });
    expect((await get(service, '/health', { 'X-Forwarded-Host': 'reference.test' })).status).toBe(200);
    expect((await get(service, '/health', { 'X-Forwarded-Host': 'evil.example' })).status).toBe(421);
  });
});

describe('when the check applies', () => {
  it('on loopback, or when hosts are listed; not on a public interface with no list', () => {
    expect(checksHosts('127.0.0.1', [])).toBe(true);
    expect(checksHosts('localhost', undefined)).toBe(true);
    expect(checksHosts('::1', [])).toBe(true);
    expect(checksHosts('0.0.0.0', [])).toBe(false);
    expect(checksHosts('::', undefined)).toBe(false);
    expect(checksHosts('0.0.0.0', ['reference.example.org'])).toBe(true);
  });
});
