/**
 * The gateway's route table read as an attacker writes paths: encoded separators, dot segments, empty
 * segments, other methods. Anything the table does not take exactly is refused (the HTTP walk is in
 * isolation.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { matchGatewayRoute, refusal } from './gateway-route-table';

const ID = '6f1e2a3b-4c5d-4e6f-8a9b-0c1d2e3f4a5b';
const MODEL = 'b4e6af9b-dfe5-44c8-9ae8-22225d8d2d5a';

describe('the gateway’s route table', () => {
  it('takes the known routes, with the id each must own', () => {
    const cases: [string, string, string, string | undefined][] = [
      ['POST', '/v2/products/extraction/enqueue', 'v2 enqueue', undefined],
      ['GET', `/v2/jobs/${ID}`, 'v2 job', ID],
      ['HEAD', `/v2/jobs/${ID}`, 'v2 job', ID],
      ['GET', `/v2/jobs/${ID}/`, 'v2 job', ID],
      ['GET', `/v2/products/extraction/results/${ID}`, 'v2 result', ID],
      ['GET', `/v2/inferences/${ID}`, 'v2 inference', ID],
      ['GET', `/v2/extensions/rag/${MODEL}/documents`, 'v2 RAG list', undefined],
      ['POST', `/v2/extensions/rag/${MODEL}/documents`, 'v2 RAG add', undefined],
      ['DELETE', `/v2/extensions/rag/${MODEL}/documents/${ID}`, 'v2 RAG delete', ID],
      ['POST', '/v1/products/mindee/invoices/v4/predict', 'v1 predict', undefined],
      ['GET', `/v1/products/mindee/invoices/v4/documents/queue/${ID}`, 'v1 product queue', ID],
      ['GET', `/v1/products/mindee/invoices/v4/documents/${ID}`, 'v1 document', ID],
      ['PATCH', `/v1/documents/${ID}/feedback`, 'v1 feedback', ID],
    ];
    for (const [method, pathname, name, id] of cases) {
      const version = pathname.startsWith('/v1/') ? 'v1' : 'v2';
      const matched = matchGatewayRoute(version, method, pathname);
      expect(matched.route?.name, `${method} ${pathname}`).toBe(name);
      if (matched.route !== undefined) expect(matched.id).toBe(id);
    }
  });

  it('refuses what it does not know, and a known path with another method', () => {
    const unknown = [
      `/v2/jobs/${ID}%2F..%2Finferences%2F${ID}`,
      `/v2/jobs/%2e%2e`,
      `/v2/jobs/.hidden`,
      `/v2//jobs/${ID}`,
      `/v2/jobs/${ID}/extra`,
      '/v2/jobs',
      `/v2/extensions/rag/${MODEL}%2Fdocuments`,
      '/v2/webhooks',
      `/v1/products/mindee/invoices/v4/documents/queue/${ID}/x`,
      `/v1/products/mindee%2Finvoices/v4/predict`,
    ];
    for (const pathname of unknown) {
      const version = pathname.startsWith('/v1/') ? 'v1' : 'v2';
      const matched = matchGatewayRoute(version, 'GET', pathname);
      expect(matched.route, pathname).toBeUndefined();
      if (matched.route === undefined) expect(matched.allowed, pathname).toEqual([]);
    }
    // A v1 path under /v2 (and the reverse) is nobody's route.
    expect(matchGatewayRoute('v2', 'GET', `/v1/documents/${ID}/feedback`).route).toBeUndefined();

    const wrongMethod = matchGatewayRoute('v2', 'DELETE', `/v2/jobs/${ID}`);
    expect(wrongMethod.route).toBeUndefined();
    if (wrongMethod.route !== undefined) return;
    expect(wrongMethod.allowed).toEqual(['GET']);
    const problem = refusal('DELETE', `/v2/jobs/${ID}`, wrongMethod.allowed);
    expect(problem.status).toBe(405);
    expect(problem.headers).toEqual({ Allow: 'GET, HEAD' });
    expect(refusal('GET', '/v2/x', []).code).toBe('404-003');
  });
});
