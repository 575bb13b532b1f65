/**
 * The team side of the journeys: operators made with the real `npm run operators` command on the
 * app server's own review store (this run's APP_DATA_DIR, playwright.config.ts), signing in through
 * the sign-in page, and documents sent as a pipeline or the app would.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { expect, type APIRequestContext, type APIResponse, type Page } from '@playwright/test';

export const PASSWORD = 'correct horse battery staple';

/**
 * A browser state with nobody signed in, for contexts of their own (`browser.newContext` otherwise
 * starts from the journeys' shared operator, whose session a sign-in in that context would end).
 */
export const NOBODY = { cookies: [], origins: [] };

/** This run's review store, as playwright.config.ts gives it to the app server. */
export function e2eAppDataDir(): string {
  const runId = process.env.E2E_RUN_ID;
  if (runId === undefined)
    throw new Error('E2E_RUN_ID is unset: run the journeys through playwright.config.ts');
  return path.join(os.tmpdir(), `extraction-review-e2e-${runId}`, 'app');
}

/** The signed-in operator's browser state, written by e2e/auth.setup.ts (playwright.config.ts). */
export function operatorStatePath(): string {
  return path.join(os.tmpdir(), `extraction-review-e2e-auth-${process.env.E2E_RUN_ID ?? ''}.json`);
}

/** The journeys' own operator (an admin), made once per run by e2e/auth.setup.ts. */
export const E2E_OPERATOR = 'e2e-operator';

/** `X-CSRF-Token` of `request`'s session, for changes a journey sends itself (`page.request`). */
export async function csrfHeader(request: APIRequestContext): Promise<Record<string, string>> {
  const session = await request.get('/api/session');
  expect(session.status()).toBe(200);
  return { 'X-CSRF-Token': ((await session.json()) as { csrfToken: string }).csrfToken };
}

/** Runs `npm run operators -- …` (its entry, directly) on a review store; resolves with its output. */
export function runOperators(
  args: string[],
  options: { stdin?: string; env?: Record<string, string> } = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'server/app/review/cli/operators.ts', ...args],
      {
        env: {
          PATH: process.env.PATH ?? '',
          APP_DATA_DIR: e2eAppDataDir(),
          DATABASE_URL: '',
          ...options.env,
        },
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0
        ? resolve(output)
        : reject(new Error(`operators ${args.join(' ')} exited ${code}: ${output}`)),
    );
    child.stdin.end(options.stdin ?? '');
  });
}

/** A name no other journey uses (they share one store). */
export const uniqueName = (base: string): string => `${base}-${randomBytes(3).toString('hex')}`;

export async function addOperator(
  name: string,
  role: 'admin' | 'operator',
  env?: Record<string, string>,
): Promise<void> {
  await runOperators(['add', name, '--role', role], { stdin: PASSWORD, env });
}

export async function signIn(page: Page, name: string): Promise<void> {
  await page.goto('/sign-in');
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  // The queue's code loads after the sign-in: slow on a machine busy with other journeys.
  await expect(page.getByRole('heading', { name: 'Team queue' })).toBeVisible({ timeout: 20_000 });
}

/** Sends a PDF as the app's upload does (multipart enqueue through the app server), with `request`'s cookies. */
export async function enqueuePdf(
  request: APIRequestContext,
  file: { name: string; buffer: Buffer },
  modelId: string,
): Promise<string> {
  const response = await postWaitingOut429(request, '/api/v2/products/extraction/enqueue', {
    multipart: {
      model_id: modelId,
      file: { name: file.name, mimeType: 'application/pdf', buffer: file.buffer },
    },
  });
  expect(response.status()).toBe(202);
  return ((await response.json()) as { job: { id: string } }).job.id;
}

/** A 429's `Retry-After` (seconds) in milliseconds; a second when it says nothing usable. */
export function retryAfterMs(header: string | undefined): number {
  const seconds = Number(header);
  return Number.isFinite(seconds) && seconds >= 0 ? Math.min(seconds, 10) * 1000 + 50 : 1000;
}

/**
 * A POST through the app server, with the session's CSRF token, a 429 waited out as any client would:
 * the journeys' reference service has a small POST budget (playwright.config.ts), which the app
 * server's own sends (the way back's RAG after each confirmation) spend too.
 */
export async function postWaitingOut429(
  request: APIRequestContext,
  url: string,
  options: Omit<NonNullable<Parameters<APIRequestContext['post']>[1]>, 'headers'>,
): Promise<APIResponse> {
  const headers = await csrfHeader(request);
  let response = await request.post(url, { headers, ...options });
  for (let attempt = 0; response.status() === 429 && attempt < 20; attempt += 1) {
    await new Promise((resolve) => setTimeout(resolve, retryAfterMs(response.headers()['retry-after'])));
    response = await request.post(url, { headers, ...options });
  }
  return response;
}
