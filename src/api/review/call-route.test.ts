/**
 * The browser's calls of declared routes over real HTTP (a test server): the method and path come
 * from the declaration (parameters as encoded segments), the query and JSON body as given, the CSRF
 * token on a change (the doorway's), and the answer checked by the declared answers' schemas (a 204
 * reads as undefined). The call's types come from the declaration too.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { SchemaMismatchError } from '../errors';
import { sendJson, serveEach } from '../testing/test-server';
import { callRoute, routeUrl } from './call-route';
import { rememberCsrfToken } from '@extraction-review/contract/review/csrf';
import { getModelSettings } from './model-settings-endpoints';
import * as queue from '@extraction-review/contract/review/routes/queue';
import * as session from '@extraction-review/contract/review/routes/session';
import type {
  DocumentResponse,
  QueuePage,
  SessionResponse,
} from '@extraction-review/contract/review/schemas';

const serve = serveEach();

const PAGE: QueuePage = {
  documents: [],
  nextCursor: null,
  counts: {
    processing: 0,
    failed: 0,
    to_review: 0,
    in_review: 0,
    confirmed: 0,
    rejected: 0,
    postponed: 0,
  },
};

describe('callRoute', () => {
  it('sends the declared method, path, query and body, with the CSRF token on a change', async () => {
    rememberCsrfToken('token-1');
    const { server, client } = await serve((req, res) => {
      if (req.method === 'GET') sendJson(res, 200, PAGE);
      else res.writeHead(204).end();
    });
    const page = await callRoute(
      queue.listDocuments,
      { query: { state: 'to_review', limit: 5 } },
      { client },
    );
    expect(page).toEqual(PAGE);
    expect(await callRoute(queue.takeNext, {}, { client })).toBeUndefined();
    const [list, next] = server.requests;
    expect(list).toMatchObject({ method: 'GET', url: '/api/review/documents?state=to_review&limit=5' });
    expect(list?.headers['x-csrf-token']).toBeUndefined();
    expect(next).toMatchObject({ method: 'POST', url: '/api/review/next' });
    expect(next?.headers['x-csrf-token']).toBe('token-1');
    rememberCsrfToken(undefined);
  });

  it('sends the JSON body, and puts parameters in the path as segments', async () => {
    const { server, client } = await serve((_req, res) =>
      sendJson(res, 200, {
        operator: {
          id: 'a',
          name: 'Ada',
          role: 'admin',
          hasPassword: true,
          createdAt: '2026-11-24T09:00:00.000Z',
        },
        csrfToken: 't',
      }),
    );
    await callRoute(session.signIn, { body: { name: 'Ada', password: 'correct horse battery' } }, { client });
    const [signIn] = server.requests;
    expect(signIn).toMatchObject({ method: 'POST', url: '/api/session' });
    expect(JSON.parse(signIn?.body.toString() ?? '')).toEqual({
      name: 'Ada',
      password: 'correct horse battery',
    });
    await expect(getModelSettings('v1', 'acme/invoices/v4', { client })).rejects.toBeInstanceOf(
      SchemaMismatchError,
    );
    expect(server.requests[1]?.url).toBe('/api/review/models/v1/acme%2Finvoices%2Fv4/settings');
  });

  it('refuses an answer that fits none of the declared ones', async () => {
    const { client } = await serve((_req, res) => sendJson(res, 200, { document: 'none' }));
    await expect(callRoute(queue.takeNext, {}, { client })).rejects.toBeInstanceOf(SchemaMismatchError);
  });

  it('builds link targets from the declaration', () => {
    const id = '0b7f2f7e-4c1d-4a51-9a53-2f0e8f0e6b11';
    expect(routeUrl(queue.getTimeline, { id }, { format: 'csv' })).toBe(
      `/api/review/documents/${id}/timeline?format=csv`,
    );
    expect(routeUrl(queue.getDocumentFile, { id })).toBe(`/api/review/documents/${id}/file`);
  });

  it('types its input and output by the declaration', () => {
    expectTypeOf<Awaited<ReturnType<typeof callRoute<typeof queue.takeNext>>>>().toEqualTypeOf<
      DocumentResponse | undefined
    >();
    expectTypeOf<
      Awaited<ReturnType<typeof callRoute<typeof session.getSession>>>
    >().toEqualTypeOf<SessionResponse>();
    expectTypeOf<Parameters<typeof callRoute<typeof queue.getDocument>>[1]>().toHaveProperty('params');
  });
});
