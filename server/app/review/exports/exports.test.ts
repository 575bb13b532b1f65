/**
 * Exports of confirmed documents over real HTTP, on both engines: JSON lines with the validated
 * values (corrections applied, removed items left out), CSV with one row per line item and one header
 * for all documents, the model and the confirmation time range applied (a day counts whole), only
 * confirmed documents, streamed past one page of the store's reading, and for admins only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionResponse } from '@extraction-review/contract/review/schemas';
import { generatedInvoice } from '@extraction-review/test-kit/invoices/generated-invoice';
import { createApp } from '../../create-app';
import { listen, type RunningServer } from '../../listen';
import { hashPassword } from '../auth/passwords';
import { ENGINES, openTestStore, type TestStore } from '@extraction-review/test-kit/review/test-stores';
import { mountReview } from '../http/mount-review';
import { openReview, type OpenedReview } from '../open-review';

const PASSWORD = 'correct horse battery staple';
const DAY = 86_400_000;
const T0 = Date.UTC(2026, 10, 20, 9, 0, 0);

describe.each(ENGINES)('exports on %s', (engine) => {
  let store: TestStore;
  let review: OpenedReview;
  let server: RunningServer;
  let clock = T0;
  let adminId = '';

  async function signIn(name: string): Promise<string> {
    const answer = await fetch(`${server.url}/api/session`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: server.url },
      body: JSON.stringify({ name, password: PASSWORD }),
    });
    SessionResponse.parse(await answer.json());
    return (answer.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  }

  /** A document of `model` confirmed at `at` by the admin, after `corrections`. */
  async function confirmed(
    model: string,
    fileName: string,
    at: number,
    corrections: { path: string; value: unknown }[] = [],
    lines: number[] = [25, 20, 2.5],
  ): Promise<string> {
    clock = at;
    const added = await review.queue.addDocument({ apiVersion: 'v2', modelKey: model, fileName }, clock);
    await review.queue.setResult(
      added.id,
      {
        json: JSON.stringify(generatedInvoice({ lines, net: lines.reduce((a, b) => a + b, 0) })),
        resultId: `inf-${added.id}`,
        fieldsTotal: 5,
        fieldsToReview: 0,
      },
      clock,
    );
    const taken = await review.queue.take(added.id, adminId, clock);
    if (!taken.ok) throw new Error('not taken');
    let version = taken.document.version;
    if (corrections.length > 0) {
      const saved = await review.queue.saveCorrections(added.id, adminId, version, corrections, clock);
      if (!saved.ok) throw new Error('not saved');
      version = saved.document.version;
    }
    const decided = await review.queue.decide(added.id, adminId, version, 'confirmed', null, clock);
    if (!decided.ok) throw new Error('not confirmed');
    return added.id;
  }

  beforeAll(async () => {
    store = await openTestStore(engine);
    review = await openReview({ ...store.settings, clock: { now: () => clock } });
    const passwordHash = await hashPassword(PASSWORD);
    adminId = (await review.operators.create({ name: 'Ada', role: 'admin', passwordHash }, clock)).id;
    await review.operators.create({ name: 'Bob', role: 'operator', passwordHash }, clock);
    server = await listen(createApp({ upstream: {}, staticDir: null, review: mountReview(review) }), {
      host: '127.0.0.1',
      port: 0,
    });
  });
  afterAll(async () => {
    await server.close();
    await review.close();
    await store.cleanup();
  });

  /** Signed in afresh: the store's clock moves by days between documents, past any session's life. */
  const get = async (query: string, who: 'admin' | 'operator' = 'admin') =>
    fetch(`${server.url}/api/exports/confirmed?${query}`, {
      headers: { Cookie: await signIn(who === 'admin' ? 'Ada' : 'Bob') },
    });

  it('writes JSON lines of validated values, corrections applied, in the range asked', async () => {
    const first = await confirmed('model-a', 'first.pdf', T0, [
      { path: 'total_amount', value: 99.5 },
      { path: '#removed', value: ['line_items[2]'] },
    ]);
    const second = await confirmed('model-a', '=second.pdf', T0 + DAY);
    await confirmed('model-b', 'other-model.pdf', T0 + DAY);
    // Waiting, not confirmed: never exported.
    await review.queue.addDocument({ apiVersion: 'v2', modelKey: 'model-a', fileName: 'waiting.pdf' }, clock);

    const answer = await get('model=model-a&format=jsonl');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    expect(answer.headers.get('content-disposition')).toMatch(
      /^attachment; filename="confirmed-model-a-.*\.jsonl"$/,
    );
    const lines = (await answer.text())
      .trimEnd()
      .split('\n')
      .map(
        (line) =>
          JSON.parse(line) as {
            document_id: string;
            fields: Record<string, { value?: unknown; items?: unknown[] }>;
          },
      );
    expect(lines.map((line) => line.document_id)).toEqual([first, second]);
    expect(lines[0]).toMatchObject({
      api_version: 'v2',
      model: 'model-a',
      file_name: 'first.pdf',
      confirmed_by: 'Ada',
      automatic: false,
      confirmed_at: new Date(T0).toISOString(),
    });
    expect(lines[0]?.fields.total_amount?.value).toBe(99.5);
    expect(lines[0]?.fields.line_items?.items).toHaveLength(2);
    expect(lines[1]?.fields.line_items?.items).toHaveLength(3);

    const oneDay = await get(
      `model=model-a&from=${new Date(T0 + DAY).toISOString().slice(0, 10)}&to=2026-11-21`,
    );
    expect(
      (await oneDay.text())
        .trimEnd()
        .split('\n')
        .map((l) => (JSON.parse(l) as { file_name: string }).file_name),
    ).toEqual(['=second.pdf']);
    // Nothing to export: said (404-019), not an empty file; the count says so first.
    const empty = await get('model=nobody');
    expect(empty.status).toBe(404);
    expect(empty.headers.get('content-disposition')).toBeNull();
    expect(await empty.json()).toMatchObject({ status: 404, code: '404-019' });
    expect(await (await count('model=nobody')).json()).toEqual({ count: 0 });
    expect(await (await count('model=model-a&format=csv')).json()).toEqual({ count: 2 });
    expect(await (await count('model=model-a&from=2026-11-21&to=2026-11-21')).json()).toEqual({ count: 1 });
  });

  it('writes the override reason of a document confirmed with business rules failing, in both formats', async () => {
    clock = T0 + 10 * DAY;
    const added = await review.queue.addDocument(
      { apiVersion: 'v2', modelKey: 'model-override', fileName: 'overridden.pdf' },
      clock,
    );
    await review.queue.setResult(
      added.id,
      {
        json: JSON.stringify(generatedInvoice({ lines: [5], net: 5 })),
        resultId: `inf-${added.id}`,
        fieldsTotal: 5,
        fieldsToReview: 0,
      },
      clock,
    );
    const taken = await review.queue.take(added.id, adminId, clock);
    if (!taken.ok) throw new Error('not taken');
    const decided = await review.queue.decide(
      added.id,
      adminId,
      taken.document.version,
      'confirmed',
      null,
      clock,
      {
        override: 'Supplier, "Acme" — checked by phone',
        failing: [{ rule: 'total-matches' }],
      },
    );
    if (!decided.ok) throw new Error('not confirmed');
    await confirmed('model-override', 'plain.pdf', T0 + 11 * DAY, [], [1]);

    const lines = (await (await get('model=model-override')).text())
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { file_name: string; override_reason: string | null });
    expect(lines.map((l) => [l.file_name, l.override_reason])).toEqual([
      ['overridden.pdf', 'Supplier, "Acme" — checked by phone'],
      ['plain.pdf', null],
    ]);
    const csv = (await (await get('model=model-override&format=csv')).text()).replace(/^\uFEFF/, '');
    const [header = '', ...rows] = csv.trimEnd().split('\r\n');
    expect(header.split(',').slice(0, 8).at(-1)).toBe('override_reason');
    expect(rows[0]).toContain('"Supplier, ""Acme"" — checked by phone"');
  });

  it('writes CSV with one row per line item and one header for every document', async () => {
    const answer = await get('model=model-a&format=csv');
    expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const bytes = Buffer.from(await answer.arrayBuffer());
    // A byte-order mark first, so that spreadsheets read the accents right (text() would drop it).
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows = bytes.subarray(3).toString('utf8').trimEnd().split('\r\n');
    const header = rows[0]?.split(',') ?? [];
    expect(header.slice(0, 8)).toEqual([
      'document_id',
      'file_name',
      'model',
      'integration',
      'confirmed_at',
      'confirmed_by',
      'automatic',
      'override_reason',
    ]);
    expect(header).toContain('line_items.total_price');
    expect(header).toContain('total_amount');
    // 2 items left in the first, 3 in the second.
    expect(rows).toHaveLength(1 + 2 + 3);
    const column = (row: string, name: string) => row.split(',')[header.indexOf(name)];
    expect(column(rows[1] ?? '', 'total_amount')).toBe('99.5');
    // A name that a spreadsheet would run as a formula is defused.
    expect(column(rows[3] ?? '', 'file_name')).toBe("'=second.pdf");
  });

  it('streams an export larger than one page of reading', async () => {
    for (let i = 0; i < 130; i += 1)
      await confirmed('model-many', `doc-${i}.pdf`, T0 + 2 * DAY + i * 1000, [], [1]);
    const lines = (await (await get('model=model-many')).text()).trimEnd().split('\n');
    expect(lines).toHaveLength(130);
    expect(new Set(lines.map((l) => (JSON.parse(l) as { document_id: string }).document_id)).size).toBe(130);
  });

  const count = async (query: string) =>
    fetch(`${server.url}/api/exports/confirmed/count?${query}`, { headers: { Cookie: await signIn('Ada') } });

  it('is for admins only, and refuses a bad query with the pointers', async () => {
    const refused = await get('model=model-a', 'operator');
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: '403-005' });
    const anonymous = await fetch(`${server.url}/api/exports/confirmed?model=model-a`);
    expect(anonymous.status).toBe(401);
    const bad = await get('format=xml&from=yesterday');
    expect(bad.status).toBe(422);
    const body = (await bad.json()) as { code: string; errors: { pointer: string }[] };
    expect(body.code).toBe('422-008');
    expect(body.errors.map((e) => e.pointer).sort()).toEqual(['#/format', '#/from', '#/model']);
    const backwards = await get('model=model-a&from=2026-11-22&to=2026-11-21');
    expect(((await backwards.json()) as { errors: { pointer: string }[] }).errors).toEqual([
      { pointer: '#/to', detail: '`from` must come before `to`.' },
    ]);
  });
});
