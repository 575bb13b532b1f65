/**
 * Issue 18, the attack: an admin's pattern rule with catastrophic backtracking
 * (`^([A-Za-z]+\s?)+$`; JavaScript's engine held the event loop 23 s on a 29-character value), and a
 * pipeline that sends a document whose invoice number is that value. Over real HTTP on both engines,
 * with the real reference service upstream: the pattern is run by RE2 at intake, so the document is
 * routed to an operator (the rule fails, quoting the value) while the app server keeps answering; a
 * pattern RE2 cannot run is refused when saved (422 `422-008`, its pointer on the pattern), and one
 * stored before RE2 ran them fails as a rule instead of breaking the model's settings.
 */
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelSettings } from '@extraction-review/contract/review/model-settings';
import { ErrorResponse } from '@extraction-review/contract/v2/schemas';
import type { RunningServer } from '../../listen';
import { generatePdf } from '@extraction-review/test-kit/reference/generate-pdf';
import type { ReferenceService } from '@extraction-review/test-kit/reference/reference-service';
import {
  INVOICE_MODEL_ID,
  startTestService,
  TEST_API_KEY,
} from '@extraction-review/test-kit/reference/reference-harness';
import { hashPassword } from '../auth/passwords';
import { ENGINES, openTestStore, type TestStore } from '@extraction-review/test-kit/review/test-stores';
import type { JobFollower } from '../intake/job-follower';
import { openReview, type OpenedReview } from '../open-review';
import { documentTimeline } from '../store/audit-store';
import { listenWithReview, signInOverHttp } from '@extraction-review/test-kit/review/review-over-http';

const PASSWORD = 'correct horse battery staple';
const EVIL_PATTERN = String.raw`^([A-Za-z]+\s?)+$`;
/**
 * 29 characters: 28 letters, then a digit that the pattern refuses (the reference service reads an
 * invoice number only when it has one). A backtracking engine tries every split of the letters:
 * 2^27 ways (23 characters already take 0.3 s on this machine).
 */
const EVIL_VALUE = `A${'a'.repeat(27)}1`;

describe.each(ENGINES)('pattern rules at intake on %s', (engine) => {
  let store: TestStore;
  let reference: ReferenceService;
  let review: OpenedReview;
  let follower: JobFollower;
  let server: RunningServer;
  let key: string;
  let cookie = '';
  let csrf = '';

  beforeAll(async () => {
    store = await openTestStore(engine);
    reference = await startTestService(path.join(store.settings.dataDir, 'reference'));
    review = await openReview(store.settings);
    await review.operators.create(
      { name: 'Ada', role: 'admin', passwordHash: await hashPassword(PASSWORD) },
      Date.now(),
    );
    key = (await review.integrations.create({ name: 'Pipeline' }, Date.now())).key;
    const upstream = { url: reference.url, apiKey: TEST_API_KEY };
    ({ server, follower } = await listenWithReview(review, { dataDir: store.settings.dataDir, upstream }));
    ({ cookie, csrf } = await signInOverHttp(server.url, 'Ada', PASSWORD));
  });
  afterAll(async () => {
    await follower.stop();
    await server.close();
    await review.close();
    await reference.close();
    await store.cleanup();
  });

  const settingsUrl = () =>
    `${server.url}/api/review/models/v2/${encodeURIComponent(INVOICE_MODEL_ID)}/settings`;

  async function putSettings(version: number, pattern: string) {
    return fetch(settingsUrl(), {
      method: 'PUT',
      headers: {
        Cookie: cookie,
        'X-CSRF-Token': csrf,
        Origin: server.url,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({
        version,
        routing: { autoConfirm: true, minConfidence: null },
        rules: [{ id: 'letters', kind: 'pattern', field: 'invoice_number', pattern }],
      }),
    });
  }

  it('refuses a pattern RE2 cannot run when it is saved, pointing at it', async () => {
    for (const pattern of [String.raw`^(\w)\1`, '^INV(?!-0)', String.raw`(?<=€)\d+`]) {
      const refused = await putSettings(0, pattern);
      expect(refused.status).toBe(422);
      const body = ErrorResponse.parse(await refused.json());
      expect(body.code).toBe('422-008');
      expect(body.errors).toEqual([
        expect.objectContaining({
          pointer: '#/rules/0/pattern',
          detail: expect.stringMatching(
            /^Not a regular expression: (backreferences|lookahead|lookbehind)/,
          ) as string,
        }),
      ]);
    }
    // Nothing was saved.
    const read = ModelSettings.parse(
      await (await fetch(settingsUrl(), { headers: { Cookie: cookie } })).json(),
    );
    expect(read.version).toBe(0);
  });

  it('runs the backtracking pattern on a pipeline’s 29-character value at intake, the server answering', async () => {
    const saved = await putSettings(0, EVIL_PATTERN);
    expect(saved.status).toBe(200);

    const pdf = (await generatePdf([{ lines: [{ text: `Invoice number: ${EVIL_VALUE}`, x: 72, y: 700 }] }]))
      .bytes;
    const form = new FormData();
    form.set('model_id', INVOICE_MODEL_ID);
    form.set('file', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), 'evil.pdf');
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    const enqueued = await fetch(`${server.url}/v2/products/extraction/enqueue`, {
      method: 'POST',
      headers: { Authorization: key },
      body: form,
    });
    expect(enqueued.status).toBe(202);
    const { job } = (await enqueued.json()) as { job: { id: string } };
    const row = await settled(job.id);
    loop.disable();
    console.log(
      `[rule-pattern-intake ${engine}] event loop during intake: max ${(loop.max / 1e6).toFixed(1)} ms, p99 ${(loop.percentile(99) / 1e6).toFixed(1)} ms`,
    );

    // Routed to an operator: the rule ran on the value and failed, quoting it.
    expect(row.state).toBe('to_review');
    const events = await documentTimeline(review.database.db, row.id);
    expect(events.at(-1)).toMatchObject({
      kind: 'routed_to_review',
      data: {
        failing: [
          {
            ruleId: 'letters',
            kind: 'pattern',
            fields: ['invoice_number'],
            message: `invoice_number ${JSON.stringify(EVIL_VALUE)} does not match ${EVIL_PATTERN}`,
          },
        ],
      },
    });
    // And the server answers at once afterwards.
    expect((await fetch(`${server.url}/api/health`)).status).toBeLessThan(500);
  });

  it('fails a stored pattern RE2 cannot run as a rule, keeping the model’s other settings', async () => {
    // Saved before RE2 ran the patterns: written to the store as an older version of the app did.
    await review.database.db
      .updateTable('model_settings')
      .set({
        rules_json: JSON.stringify([
          { id: 'twice', kind: 'pattern', field: 'invoice_number', pattern: String.raw`^(\w)\1` },
        ]),
      })
      .where('model_key', '=', INVOICE_MODEL_ID)
      .execute();
    const read = ModelSettings.parse(
      await (await fetch(settingsUrl(), { headers: { Cookie: cookie } })).json(),
    );
    expect(read.routing.autoConfirm).toBe(true);
    expect(read.rules).toEqual([
      { id: 'twice', kind: 'pattern', field: 'invoice_number', pattern: String.raw`^(\w)\1` },
    ]);
  });

  async function settled(jobId: string) {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const row = await review.database.db
        .selectFrom('documents')
        .selectAll()
        .where('upstream_job_id', '=', jobId)
        .executeTakeFirst();
      if (row !== undefined && row.state !== 'processing') return row;
      if (Date.now() > deadline) throw new Error(`still processing: ${JSON.stringify(row)}`);
      await new Promise((resolve) => setTimeout(resolve, 300));
      await follower.tick();
    }
  }
});
