/**
 * For tests of the review store under trouble: operators working the queue over HTTP as the review
 * page does (poll, take the next document, correct a value, confirm), counting every answer and
 * keeping what was acknowledged, to be found in the store afterwards.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DocumentResponse } from '@extraction-review/contract/review/schemas';
import { fixturesDir } from '../fixtures-dir';
import type { OpenedReview } from '@extraction-review/app-server/review/open-review';

/** A v2 result with fields, so that a confirmation has something for the way back (RAG) to send. */
export const V2_RESULT = readFileSync(
  path.join(fixturesDir, 'v2', 'products', 'extraction', 'standard_field_types.json'),
  'utf8',
);

export interface Operator {
  id: string;
  headers: Record<string, string>;
}

export async function operatorOn(
  review: Pick<OpenedReview, 'operators' | 'sessions'>,
  baseUrl: string,
  name: string,
): Promise<Operator> {
  const now = Date.now();
  const operator = await review.operators.create({ name, role: 'operator', passwordHash: null }, now);
  const session = await review.sessions.create(operator.id, now);
  return {
    id: operator.id,
    headers: {
      Cookie: `er_session=${session.token}`,
      'X-CSRF-Token': session.csrfToken,
      Origin: baseUrl,
      'Sec-Fetch-Site': 'same-origin',
    },
  };
}

export async function readyDocuments(review: OpenedReview, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let n = 0; n < count; n++) {
    const added = await review.queue.addDocument(
      { apiVersion: 'v2', modelKey: 'model-a', fileName: `doc-${n}.pdf` },
      Date.now(),
    );
    await review.queue.setResult(
      added.id,
      {
        json: V2_RESULT,
        resultId: `inf-${n}`,
        fieldsTotal: 2,
        fieldsToReview: 1,
      },
      Date.now(),
    );
    ids.push(added.id);
  }
  return ids;
}

/** One answer, or how it failed to come. Every request has a deadline far past any time-out here. */
export type Outcome =
  { status: number; code?: string; retryAfter: string | null; body: unknown; ms: number } | { hung: string };

export async function call(
  base: string,
  operator: Operator,
  method: string,
  route: string,
  body?: unknown,
): Promise<Outcome> {
  const started = performance.now();
  try {
    const response = await fetch(`${base}${route}`, {
      method,
      headers: { ...operator.headers, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(20_000),
    });
    const text = await response.text();
    const parsed: unknown = text === '' ? null : JSON.parse(text);
    const code = (parsed as { code?: unknown } | null)?.code;
    return {
      status: response.status,
      ...(typeof code === 'string' ? { code } : {}),
      retryAfter: response.headers.get('retry-after'),
      body: parsed,
      // For the report only: how long the answer took.
      ms: performance.now() - started,
    };
  } catch (error) {
    return { hung: error instanceof Error ? error.message : String(error) };
  }
}

export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function until(
  check: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Waited ${timeoutMs} ms for ${what}.`);
    await pause(25);
  }
}

/**
 * An operator working the queue on one copy, as the review page does: poll the queue, take the next
 * document, correct a value, confirm; again. What the copy acknowledged (200) is kept, to be found
 * in the store afterwards; every answer is counted.
 */
export class Worker {
  readonly outcomes: Outcome[] = [];
  readonly corrected: { documentId: string; value: string }[] = [];
  readonly confirmed = new Set<string>();
  acknowledged = 0;
  unavailable = 0;
  private running = true;
  private readonly done: Promise<void>;
  private serial = 0;

  constructor(
    private readonly base: string,
    private readonly operator: Operator,
    private readonly label: string,
  ) {
    this.done = this.loop();
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.done;
  }

  private async send(method: string, route: string, body?: unknown): Promise<Outcome> {
    const outcome = await call(this.base, this.operator, method, route, body);
    this.outcomes.push(outcome);
    if ('status' in outcome && outcome.status === 200) this.acknowledged++;
    if ('status' in outcome && outcome.status === 503) this.unavailable++;
    return outcome;
  }

  private async loop(): Promise<void> {
    while (this.running) {
      const polled = await this.send('GET', '/api/review/documents?limit=20');
      const taken = await this.send('POST', '/api/review/next');
      if ('status' in taken && taken.status === 200) {
        const { document } = DocumentResponse.parse(taken.body);
        const value = `${this.label}-${++this.serial}`;
        const corrected = await this.send('PUT', `/api/review/documents/${document.id}/corrections`, {
          version: document.version,
          corrections: [{ path: 'field_simple_string', value }],
        });
        if ('status' in corrected && corrected.status === 200) {
          this.corrected.push({ documentId: document.id, value });
          const { document: after } = DocumentResponse.parse(corrected.body);
          const confirmed = await this.send('POST', `/api/review/documents/${document.id}/confirm`, {
            version: after.version,
          });
          if ('status' in confirmed && confirmed.status === 200) this.confirmed.add(document.id);
        }
      }
      const away = [polled, taken].some((o) => 'status' in o && o.status === 503);
      await pause(away ? 100 : 10);
    }
  }
}
