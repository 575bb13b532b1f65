/**
 * `GET /api/review/analytics` over real HTTP, on both engines: an admin gets the figures (parsed with
 * the browser's schema) and each table as CSV; an operator is refused (403), a caller without a
 * session too (401); a query that does not fit is a 422 whose pointers name its parameters.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnalyticsResponse } from '@extraction-review/contract/review/analytics';
import { SessionResponse } from '@extraction-review/contract/review/schemas';
import { generatedInvoice } from '@extraction-review/test-kit/invoices/generated-invoice';
import { createApp } from '../../create-app';
import { listen, type RunningServer } from '../../listen';
import { hashPassword } from '../auth/passwords';
import { ENGINES, openTestStore, type TestStore } from '@extraction-review/test-kit/review/test-stores';
import { mountReview } from '../http/mount-review';
import { openReview, type OpenedReview } from '../open-review';

const PASSWORD = 'correct horse battery staple';
const MIN = 60_000;
const DAY = 86_400_000;
const T0 = Date.UTC(2026, 10, 23, 9, 0, 0);

describe.each(ENGINES)('the analytics route on %s', (engine) => {
  let store: TestStore;
  let review: OpenedReview;
  let server: RunningServer;
  let clock = T0;
  let adminCookie = '';
  let operatorCookie = '';

  async function signIn(name: string): Promise<string> {
    const answer = await fetch(`${server.url}/api/session`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: server.url },
      body: JSON.stringify({ name, password: PASSWORD }),
    });
    SessionResponse.parse(await answer.json());
    return (answer.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  }

  beforeAll(async () => {
    store = await openTestStore(engine);
    review = await openReview({ ...store.settings, clock: { now: () => clock } });
    const passwordHash = await hashPassword(PASSWORD);
    const ada = (await review.operators.create({ name: 'Ada', role: 'admin', passwordHash }, clock)).id;
    await review.operators.create({ name: 'Bob', role: 'operator', passwordHash }, clock);
    server = await listen(createApp({ upstream: {}, staticDir: null, review: mountReview(review) }), {
      host: '127.0.0.1',
      port: 0,
    });

    // One invoice: Ada corrects the total (57 → =SUM(1), a formula a spreadsheet must not run) and
    // confirms after 3 minutes; another waits.
    const added = await review.queue.addDocument(
      { apiVersion: 'v2', modelKey: 'model-a', fileName: 'a.pdf' },
      clock,
    );
    await review.queue.setResult(
      added.id,
      { json: JSON.stringify(generatedInvoice()), resultId: 'inf-a', fieldsTotal: 12, fieldsToReview: 1 },
      clock,
    );
    const taken = await review.queue.take(added.id, ada, clock + MIN);
    if (!taken.ok) throw new Error('not taken');
    const saved = await review.queue.saveCorrections(
      added.id,
      ada,
      taken.document.version,
      [{ path: 'total_amount', value: '=SUM(1)' }],
      clock + 2 * MIN,
    );
    if (!saved.ok) throw new Error('not saved');
    const decided = await review.queue.decide(
      added.id,
      ada,
      saved.document.version,
      'confirmed',
      null,
      clock + 4 * MIN,
    );
    if (!decided.ok) throw new Error('not decided');
    await review.queue.addDocument({ apiVersion: 'v2', modelKey: 'model-a', fileName: 'b.pdf' }, clock);

    clock = T0 + DAY;
    adminCookie = await signIn('Ada');
    operatorCookie = await signIn('Bob');
  });
  afterAll(async () => {
    await server.close();
    await review.close();
    await store.cleanup();
  });

  const get = (query: string, cookie = adminCookie) =>
    fetch(`${server.url}/api/review/analytics${query}`, { headers: cookie === '' ? {} : { Cookie: cookie } });

  it('gives an admin the last seven days by default, parsed by the browser’s schema', async () => {
    const answer = await get('');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const figures = AnalyticsResponse.parse(await answer.json());
    expect(figures).toMatchObject({
      model: null,
      from: new Date(clock - 7 * DAY).toISOString(),
      to: new Date(clock).toISOString(),
      bucket: 'day',
    });
    expect(figures.corrections.fields).toEqual([
      {
        field: 'total_amount',
        documents: 1,
        values: 1,
        share: 1,
        examples: [
          {
            documentId: expect.any(String) as string,
            fileName: 'a.pdf',
            path: 'total_amount',
            before: '57',
            after: '=SUM(1)',
            confirmedAt: new Date(T0 + 4 * MIN).toISOString(),
          },
        ],
      },
    ]);
    expect(figures.time).toMatchObject({ documents: 1, totalMs: 3 * MIN });
  });

  it('takes a model, a period and a bucket', async () => {
    const answer = await get('?model=model-b&from=2026-11-01&to=2026-11-30&bucket=week');
    const figures = AnalyticsResponse.parse(await answer.json());
    expect(figures).toMatchObject({
      model: 'model-b',
      from: '2026-11-01T00:00:00.000Z',
      to: '2026-12-01T00:00:00.000Z',
      bucket: 'week',
    });
    expect(figures.confirmations.periods).toHaveLength(5);
    expect(figures.corrections.fields).toEqual([]);
  });

  it('writes one table as CSV, formulas defused', async () => {
    const answer = await get('?format=csv&table=examples');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(answer.headers.get('content-disposition')).toBe(
      'attachment; filename="where-time-goes-examples-2026-11-17-2026-11-24.csv"',
    );
    const bytes = new Uint8Array(await answer.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]); // the BOM, which decoding drops
    const lines = new TextDecoder().decode(bytes).split('\r\n');
    expect(lines[0]).toBe('field,path,before,after,document_id,file_name,confirmed_at');
    expect(lines[1]).toMatch(
      /^total_amount,total_amount,57,'=SUM\(1\),[0-9a-f-]{36},a\.pdf,2026-11-23T09:04:00\.000Z$/,
    );
  });

  it('refuses operators and callers without a session', async () => {
    const asOperator = await get('', operatorCookie);
    expect(asOperator.status).toBe(403);
    expect(((await asOperator.json()) as { code: string }).code).toBe('403-005');
    const anonymous = await get('', '');
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as { code: string }).code).toBe('401-011');
  });

  it('answers 422 with pointers for a query that does not fit', async () => {
    const cases: [string, string[]][] = [
      ['?from=yesterday', ['#/from']],
      ['?from=2026-11-20&to=2026-11-10', ['#/to']],
      ['?from=2024-01-01&to=2026-01-01', ['#/from']],
      ['?format=csv', ['#/table']],
      ['?bucket=month&table=nothing', ['#/bucket', '#/table']],
    ];
    for (const [query, pointers] of cases) {
      const answer = await get(query);
      expect(answer.status, query).toBe(422);
      const problem = (await answer.json()) as { code: string; errors: { pointer: string }[] };
      expect(problem.code).toBe('422-008');
      expect(problem.errors.map((e) => e.pointer).sort(), query).toEqual(pointers);
    }
  });
});
