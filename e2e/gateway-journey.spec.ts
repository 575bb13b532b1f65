/**
 * A pipeline's documents reviewed by the team, end to end with nothing mocked: an integration made with
 * the real `npm run integrations` (with a webhook to a receiver this journey starts), its model's
 * routing set by the admin (a business rule: invoice numbers start with `INV-`), then a script sends
 * three invoices straight to the app server's `/v2` with the integration key, as the hosted service's
 * clients do. One passes the rule and is confirmed on its own (its signed webhook arrives, automatic);
 * two wait in the queue, marked. The admin opens one in the app, corrects the number and confirms: the
 * receiver gets the corrected result, signed, with who confirmed and what changed; the script can also
 * read it on demand.
 */
import { spawn } from 'node:child_process';
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { keepScreenshot } from './support/artifacts';
import { valueOf } from './support/review-journey';
import { csrfHeader, e2eAppDataDir, retryAfterMs, uniqueName } from './support/team';
import { invoicePdf } from './support/upload-documents';
import { INVOICE_MODEL_ID } from './support/upload-steps';
import { confirmThroughGate } from './support/confirm-through-gate';

interface Received {
  body: string;
  signature: string;
  json: {
    review: {
      automatic: boolean;
      confirmed_by: string | null;
      changed_fields: { path: string; after: unknown }[];
    };
    inference: {
      id: string;
      file: { name: string };
      result: { fields: Record<string, { value?: unknown }> };
    };
  };
}

/** The pipeline's webhook receiver: keeps every delivery with its raw body and signature. */
async function startReceiver(): Promise<{ url: string; received: Received[]; close: () => Promise<void> }> {
  const received: Received[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({
        body,
        signature: String(request.headers['x-signature'] ?? ''),
        json: JSON.parse(body) as Received['json'],
      });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/review`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** `npm run integrations -- …` on this run's store; resolves with its output. */
function runIntegrations(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'server/app/review/cli/integrations.ts', ...args],
      {
        env: {
          PATH: process.env.PATH ?? '',
          APP_DATA_DIR: e2eAppDataDir(),
          DATABASE_URL: '',
          // The receiver listens on 127.0.0.1, as the app server's ALLOW_PRIVATE_WEBHOOKS allows.
          ALLOW_PRIVATE_WEBHOOKS: '127.0.0.1',
        },
      },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0
        ? resolve(output)
        : reject(new Error(`integrations ${args.join(' ')} exited ${code}: ${output}`)),
    );
  });
}

/** `npm run integrations -- add NAME --webhook URL`: the secret and the key (alone on the last line). */
async function addIntegration(name: string, webhook: string): Promise<{ key: string; secret: string }> {
  const output = await runIntegrations(['add', name, '--webhook', webhook]);
  const secret = /webhook secret: (\S+)/.exec(output)?.[1];
  if (secret === undefined) throw new Error(`no webhook secret in: ${output}`);
  return { key: output.trimEnd().split('\n').at(-1) ?? '', secret };
}

const genuine = (delivery: Received, secret: string): boolean =>
  timingSafeEqual(
    createHmac('sha256', secret).update(delivery.body).digest(),
    Buffer.from(delivery.signature, 'hex'),
  );

async function putSettings(request: APIRequestContext, body: (version: number) => unknown): Promise<void> {
  const path = `/api/review/models/v2/${INVOICE_MODEL_ID}/settings`;
  const current = (await (await request.get(path)).json()) as { version: number };
  const saved = await request.put(path, { headers: await csrfHeader(request), data: body(current.version) });
  expect(saved.status(), await saved.text()).toBe(200);
}

test('a pipeline sends three documents through the gateway; rules route them; the team’s corrections go back', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(150_000);
  const receiver = await startReceiver();
  const batch = uniqueName('pipeline');
  const { key, secret } = await addIntegration(batch, receiver.url);

  // The admin routes the invoice model: confirmed on its own unless its number does not start with INV-.
  await putSettings(page.request, (version) => ({
    version,
    routing: {
      autoConfirm: true,
      minConfidence: null,
      requiredFields: [],
      onRuleFailure: true,
      samplePercent: 0,
    },
    rules: [{ id: 'inv-prefix', kind: 'pattern', field: 'invoice_number', pattern: '^INV-' }],
    feedbackEnabled: false,
  }));

  try {
    // The script: three invoices to the app server's /v2, with the integration key, as to the hosted API.
    const numbers = ['INV-1001', 'ABC-2002', 'XYZ-3003'];
    for (const [n, invoiceNumber] of numbers.entries()) {
      const form = new FormData();
      form.set('model_id', INVOICE_MODEL_ID);
      const pdf = await invoicePdf({ invoiceNumber, total: `${n + 1}00.00` });
      form.set('file', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), `${batch}-${n}.pdf`);
      const send = () =>
        fetch(`${baseURL ?? ''}/v2/products/extraction/enqueue`, {
          method: 'POST',
          headers: { Authorization: key },
          body: form,
        });
      // The journeys' reference service has a small POST budget: a pipeline waits out a 429.
      let answer = await send();
      for (let attempt = 0; answer.status === 429 && attempt < 20; attempt += 1) {
        await new Promise((resolve) =>
          setTimeout(resolve, retryAfterMs(answer.headers.get('retry-after') ?? undefined)),
        );
        answer = await send();
      }
      expect(answer.status).toBe(202);
      const { job } = (await answer.json()) as { job: { polling_url: string } };
      expect(job.polling_url.startsWith(`${baseURL ?? ''}/v2/jobs/`)).toBe(true);
    }

    // The one that passes is confirmed on its own, and its signed webhook arrives.
    await expect.poll(() => receiver.received.length, { timeout: 60_000 }).toBe(1);
    const automatic = receiver.received[0];
    expect(automatic && genuine(automatic, secret)).toBe(true);
    expect(automatic?.json.review).toMatchObject({ automatic: true, confirmed_by: null, changed_fields: [] });
    expect(automatic?.json.inference.file.name).toBe(`${batch}-0.pdf`);

    // The two others wait in the team's queue.
    await page.goto(`/queue?q=${batch}`);
    const rows = page
      .getByRole('row')
      .filter({ has: page.getByRole('link', { name: new RegExp(`^${batch}-`) }) });
    await expect(rows).toHaveCount(3, { timeout: 30_000 });
    // A row is listed from the upload on; its result may still be on its way (the follower's next
    // look at the upstream; a full run saw one still "Processing" after 5 s): the queue updates live.
    await expect(rows.filter({ hasText: /to review/i })).toHaveCount(2, { timeout: 30_000 });
    await expect(rows.filter({ hasText: /confirmed/i })).toHaveCount(1);
    await keepScreenshot(page, 'gateway-queue');

    // The admin opens the ABC one: the rule marks the number; correcting it clears the mark.
    await page.getByRole('link', { name: `${batch}-1.pdf` }).click();
    await page.getByRole('button', { name: 'Review this document' }).click();
    await expect(valueOf(page, 'invoice_number')).toHaveValue('ABC-2002', { timeout: 30_000 });
    await expect(page.getByText(/inv-prefix|INV-/).first()).toBeVisible();
    await valueOf(page, 'invoice_number').fill('INV-2002');
    await expect(page.getByText('All changes saved')).toBeVisible({ timeout: 15_000 });
    await keepScreenshot(page, 'gateway-review');
    await confirmThroughGate(page);

    // The receiver gets the corrected result, signed, with who confirmed and what changed.
    await expect.poll(() => receiver.received.length, { timeout: 30_000 }).toBe(2);
    const corrected = receiver.received[1];
    expect(corrected && genuine(corrected, secret)).toBe(true);
    expect(corrected?.json.review).toMatchObject({
      automatic: false,
      confirmed_by: 'e2e-operator',
      changed_fields: [expect.objectContaining({ path: 'invoice_number', after: 'INV-2002' })],
    });
    expect(corrected?.json.inference.result.fields.invoice_number?.value).toBe('INV-2002');

    // The script can also ask for it.
    const onDemand = await fetch(`${baseURL ?? ''}/v2/review/results/${corrected?.json.inference.id ?? ''}`, {
      headers: { Authorization: key },
    });
    expect(onDemand.status).toBe(200);
    expect(((await onDemand.json()) as Received['json']).inference.result.fields.invoice_number?.value).toBe(
      'INV-2002',
    );
  } finally {
    // The invoice model is the other journeys' too: back to its defaults.
    await putSettings(page.request, (version) => ({
      version,
      routing: {
        autoConfirm: false,
        minConfidence: 'High',
        requiredFields: [],
        onRuleFailure: true,
        samplePercent: 0,
      },
      rules: [],
      feedbackEnabled: false,
    }));
    await receiver.close();
    // Its receiver is gone: later journeys' confirmations must not queue webhooks to it.
    await runIntegrations(['revoke', batch]);
  }
});
