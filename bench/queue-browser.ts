/**
 * The team queue in Debian's Chromium (headless), against a production build served by the real app
 * server (`server/main.ts` in a child process, with its embedded reference service as the upstream):
 *
 * - "Confirm and next" (Ctrl+Enter; "Confirm anyway" when the unchecked-values gate asks), Reject
 *   (with a reason) and Postpone on a held document → the next document's page 1 drawn with its
 *   polygons, N times each in one tab, in turns, the way an operator works through the queue. The
 *   app prefetches the next document while the current one is reviewed (which one the take would
 *   give, its file, page 1 drawn off-screen: src/features/review/queued-document/use-next-ahead.ts);
 *   before each action the bench waits until the page has asked for that file, as an operator
 *   reading the values would;
 * - beside them, a cold open of the same kind of document: one the operator holds, opened by its
 *   address in a new tab of the same browser (the app's JavaScript in the HTTP cache: a second
 *   visit), until the same condition, from navigation start.
 *
 * The documents are one-page invoices made with pdf-lib, sent through the app's own upload route
 * (`POST /api/v2/products/extraction/enqueue`) and extracted by the reference service. Times are the
 * page's own `performance.now()`: from the action (the Ctrl+Enter keydown's time stamp, or the click
 * on the dialog's button that decides) and from navigation start; "drawn" is the moment page 1's
 * shell says its bitmap is on screen (`[data-page-index="0"][data-rendered="true"]`) with
 * `.field-polygon`s in it, as the viewer bench has it. All are measured in turns, so that each sees
 * the same machine.
 *
 * Figures are printed, never asserted. Aims: confirm and next → next page drawn < 150 ms (issue 10);
 * prefetched, < 50 ms p95 (issue 21), for Reject and Postpone too.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { build } from 'vite';
import { repoRoot } from '@extraction-review/app-server/settings/config';
import { startMainProcess, type MainProcess } from '@extraction-review/test-kit/app/main-process';
import { ms, percentile, table } from './stats';
import { firstPageProbe, pageScript } from './viewer-probes';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** As playwright.config.ts launches it. */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
  '--host-resolver-rules=MAP rebind.test 127.0.0.1',
];
const VIEWPORT = { width: 1440, height: 960 };

/** The actions that move on to the next document, measured in turns. */
const ACTIONS = ['confirm', 'reject', 'postpone'] as const;
type Action = (typeof ACTIONS)[number];
const ACTION_LABEL: Record<Action, string> = {
  confirm: 'confirm and next (Ctrl+Enter)',
  reject: 'Reject (a reason typed, "Reject")',
  postpone: 'Postpone ("Postpone")',
};
/** Measured steps of each action, and cold opens. */
const N = 8;
const M = 8;
/** One of each first, not counted (the first of its kind in the tab or in a new renderer). */
const WARM_UP = 1;
/** The first document, the N (+ warm-up) taken by each action, the M (+ warm-up) opened cold. */
const DOCUMENTS = 1 + ACTIONS.length * (WARM_UP + N) + (WARM_UP + M);
/** Between two measurements: the lists refetched after a change, the lease renewed, in peace. */
const SETTLE_MS = 400;
/** Before an action, at most this long for the page to ask for the next document's file. */
const PREFETCH_WAIT_MS = 5_000;
/** Then this long for pdf.js to open it and draw page 1 off-screen. */
const PREFETCH_DRAW_MS = 300;
/** The whole section, set-up included. */
const BUDGET_MS = 600_000;

/** The seeded invoice model (server/reference/models.json), as the e2e journeys use it. */
const INVOICE_MODEL_ID = 'b4e6af9b-dfe5-44c8-9ae8-22225d8d2d5a';
const OPERATOR = 'bench-operator';
const PASSWORD = 'bench password 1234';

const DRAWN = '[data-page-index="0"][data-rendered="true"] .field-polygon';

declare global {
  interface Window {
    __next?: NextRecord;
  }
}

/** One action that moves on ("confirm and next", Reject, Postpone), in the page's `performance.now()`. */
interface NextRecord {
  fromPath: string;
  toPath: string | null;
  pressed: number | null;
  urlChanged: number | null;
  bitmap: number | null;
  withPolygons: number | null;
  painted: number | null;
  polygons: number;
}

interface Request {
  path: string;
  start: number;
  end: number;
}

interface NextRun {
  total: number;
  /** The next document's file was already in the page (asked for before the action). */
  prefetched: boolean;
  urlChanged: number;
  bitmap: number;
  painted: number;
  polygons: number;
  requests: Request[];
}

interface ColdRun {
  total: number;
  bitmap: number;
  polygons: number;
  requests: Request[];
}

/** Times out each step with a clear message, and the whole section within its budget. */
class Budget {
  private readonly end = Date.now() + BUDGET_MS;
  /** A step's timeout: its own, or what is left of the budget (at least 1 s, to say so cleanly). */
  left(cap: number): number {
    return Math.max(1000, Math.min(cap, this.end - Date.now()));
  }
  async step<T>(what: string, cap: number, run: (timeout: number) => Promise<T>): Promise<T> {
    const timeout = this.left(cap);
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        run(timeout),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`${what}: not done within ${ms(timeout)}`)),
            timeout + 500,
          );
        }),
      ]);
    } catch (error) {
      const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
      throw new Error(`${what} failed: ${message}`, { cause: error });
    } finally {
      clearTimeout(timer);
    }
  }
}

export async function benchQueueBrowser(): Promise<void> {
  const budget = new Budget();
  const temp: string[] = [];
  const mkTemp = async (name: string) => {
    const dir = await mkdtemp(path.join(tmpdir(), `bench-queue-browser-${name}-`));
    temp.push(dir);
    return dir;
  };
  let server: MainProcess | undefined;
  let browser: Browser | undefined;
  try {
    const [dist, appData, referenceData] = await Promise.all([
      mkTemp('dist'),
      mkTemp('app'),
      mkTemp('reference'),
    ]);
    console.log(`  Building the app; making an operator; ${DOCUMENTS} one-page invoices to send…`);
    const [, , pdfs] = await Promise.all([
      budget.step('vite build', 90_000, () => buildApp(dist)),
      budget.step('npm run operators -- add', 60_000, () =>
        runOperators(['add', OPERATOR, '--role', 'operator'], PASSWORD, appData),
      ),
      Promise.all(Array.from({ length: DOCUMENTS }, (_, i) => invoicePdf(i))),
    ]);
    server = await budget.step('starting server/main.ts', 60_000, () =>
      startMainProcess({
        HOME: process.env.HOME ?? '',
        DEV: '',
        STATIC_DIR: dist,
        APP_DATA_DIR: appData,
        REFERENCE_DATA_DIR: referenceData,
        PORT: '0',
        REFERENCE_PORT: '0',
      }),
    );
    const base = server.url;
    const session = await budget.step('signing in (POST /api/session)', 15_000, () => signIn(base));

    const sending = performance.now();
    await budget.step('sending the invoices', 60_000, async () => {
      for (const [i, pdf] of pdfs.entries()) await enqueue(base, session, `bench-invoice-${i}.pdf`, pdf);
    });
    const waiting = await budget.step(`waiting for ${DOCUMENTS} documents to review`, 150_000, (timeout) =>
      waitForToReview(base, session, DOCUMENTS, timeout),
    );
    console.log(
      `  ${waiting} documents sent and extracted in ${ms(performance.now() - sending)}; measuring in Chromium…`,
    );

    browser = await budget.step('launching Chromium', 30_000, () =>
      chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS }),
    );
    const context = await browser.newContext({ viewport: VIEWPORT });
    await context.addCookies([{ name: 'er_session', value: session.token, url: base }]);
    const { runs, cold } = await measure(budget, context, base, session);

    const p = (values: number[], q: number) => ms(percentile(values, q));
    const totals = (list: { total: number }[]) => list.map((r) => r.total);
    const all = [...ACTIONS.flatMap((action) => runs[action]), ...cold];
    const polygons = all.map((r) => r.polygons);
    const rows = [["figure (→ the next document's page 1 drawn with polygons)", 'p50', 'p95', 'aim']];
    for (const action of ACTIONS) {
      const list = runs[action];
      const prefetched = list.filter((r) => r.prefetched).length;
      rows.push([
        `${ACTION_LABEL[action]}, prefetched (${prefetched} of ${list.length} runs)`,
        p(totals(list), 50),
        p(totals(list), 95),
        '< 50 ms',
      ]);
    }
    rows.push([
      `  baseline: cold open by URL in a new tab, cache warm (${cold.length} runs)`,
      p(totals(cold), 50),
      p(totals(cold), 95),
      '',
    ]);
    console.log(`\n${table(rows)}`);
    const med = (values: number[]) => ms(percentile(values, 50));
    /** Per run, the first request whose path matches: its start or its end. */
    const at = (list: (NextRun | ColdRun)[], pattern: RegExp, edge: 'start' | 'end') =>
      list.flatMap((r) => {
        const found = r.requests.find((q) => pattern.test(q.path));
        return found ? [found[edge]] : [];
      });
    const firstApiCall = (list: ColdRun[]) =>
      list.map((r) => Math.min(...r.requests.filter((q) => q.path.startsWith('/api/')).map((q) => q.start)));
    const DECIDE: Record<Action, RegExp> = {
      confirm: /\/confirm$/,
      reject: /\/reject$/,
      postpone: /\/postpone$/,
    };
    const NEXT = /^\/api\/review\/next$/;
    const FILE = /\/file$/;
    const lines = ACTIONS.map((action) => {
      const list = runs[action];
      const fetched = at(list, FILE, 'start');
      return (
        `\n  ${action}: sent ${med(at(list, DECIDE[action], 'start'))}, answered ${med(at(list, DECIDE[action], 'end'))};` +
        ` next taken (sent ${med(at(list, NEXT, 'start'))}, answered ${med(at(list, NEXT, 'end'))});` +
        ` URL of the next document ${med(list.map((r) => r.urlChanged))};` +
        (fetched.length > 0 ? ` its file asked after the action in ${fetched.length} runs;` : '') +
        ` page 1 drawn with polygons ${med(totals(list))}; that frame painted ${med(list.map((r) => r.painted))}`
      );
    });
    console.log(
      '\n  Where the time goes (medians over the runs, each run from its own start):' +
        lines.join('') +
        `\n  cold open: HTML received ${med(at(cold, /^navigation$/, 'end'))};` +
        ` first API request sent (the app started) ${med(firstApiCall(cold))};` +
        ` document answered ${med(at(cold, /^\/api\/review\/documents\/[^/]+$/, 'end'))};` +
        ` its file asked ${med(at(cold, FILE, 'start'))}, received ${med(at(cold, FILE, 'end'))};` +
        ` page 1 drawn with polygons ${med(totals(cold))}`,
    );
    console.log(
      `\n  Times are the page's own performance.now(), from the action: the Ctrl+Enter keydown's time stamp,` +
        ` or the click on the dialog's button that decides ("Confirm anyway" when the unchecked-values gate` +
        ` asks, "Reject", "Postpone"), to the commit that shows the next document's page 1 drawn with its` +
        ` polygons: saving the corrections (none here), the decision, taking the next document, the route` +
        ` change, the new review's render, its page painted (the file, pdf.js's document and page 1's` +
        ` operator list ready from the prefetch when the take gave the document prefetched) and React` +
        ` drawing the polygons. "Prefetched": the next document's file was asked for before the action` +
        ` (the bench asks the server which document the take would give, waits up to ${ms(PREFETCH_WAIT_MS)}` +
        ` for the page to have its file, then ${ms(PREFETCH_DRAW_MS)}, as an operator reading the values` +
        ` would; the cold opens take documents too, which the page then learns from the queue's live events). The cold open is timed from navigation start to the same condition, in a` +
        ` new tab of the same browser: the page, the app's JavaScript (HTTP cache warm), the session and` +
        ` document, a new pdf.js worker, then the same. Its document was taken for the operator through the` +
        ` API just before, so it opens as the same held review. Runs alternate between the actions and the` +
        ` cold open; the first of each is a warm-up, not counted; p95 of ${N} runs is the slowest.` +
        ` ${polygonCount(polygons)} on page 1. Load average ${loadavg()
          .map((l) => l.toFixed(1))
          .join(' ')} (${availableParallelism()} cores; the app server and Chromium share them).`,
    );
  } catch (error) {
    if (server)
      console.error(
        `  App server output (last lines):\n${server.output().split('\n').slice(-15).join('\n')}`,
      );
    throw error;
  } finally {
    await browser?.close().catch(() => undefined);
    if (server) await stopServer(server);
    await Promise.all(temp.map((dir) => rm(dir, { recursive: true, force: true })));
  }
}

function polygonCount(counts: number[]): string {
  const [low, high] = [Math.min(...counts), Math.max(...counts)];
  return `${low === high ? low : `${low}–${high}`} polygon${high === 1 ? '' : 's'}`;
}

// ─── The runs ────────────────────────────────────────────────────────────────────────────────────

async function measure(budget: Budget, context: BrowserContext, base: string, session: Session) {
  const page = await context.newPage();
  await page.goto(`${base}/queue`);
  await budget.step('opening the queue and clicking "Start reviewing"', 30_000, async (timeout) => {
    await page.getByRole('button', { name: 'Start reviewing' }).click({ timeout });
    await page.waitForURL(/\/review\/[0-9a-f-]{36}$/, { timeout });
    await page.locator(DRAWN).first().waitFor({ timeout });
  });

  const runs: Record<Action, NextRun[]> = { confirm: [], reject: [], postpone: [] };
  const cold: ColdRun[] = [];
  for (let i = 0; i < WARM_UP + Math.max(N, M); i++) {
    if (i < WARM_UP + N) {
      for (const action of ACTIONS) {
        await page.waitForTimeout(SETTLE_MS);
        const run = await budget.step(`${action} #${i + 1}`, 30_000, (timeout) =>
          moveOn(page, base, session, action, timeout),
        );
        if (i >= WARM_UP) runs[action].push(run);
      }
    }
    if (i < WARM_UP + M) {
      const run = await budget.step(`cold open #${i + 1}`, 30_000, (timeout) =>
        coldOpen(context, base, session, timeout),
      );
      if (i >= WARM_UP) cold.push(run);
    }
  }
  await page.close();
  return { runs, cold };
}

/**
 * Until the review open in `page` has asked for the file of the document the take would give now (as
 * the server says: the cold opens take documents too), or a while; then a little more, for pdf.js.
 */
async function waitForPrefetch(page: Page, base: string, session: Session): Promise<void> {
  const next = (await call(base, session, 'GET', '/api/review/next')) as { id: string } | undefined;
  if (next === undefined) return;
  const asked = await page
    .waitForFunction(
      (id) =>
        performance
          .getEntriesByType('resource')
          .some(
            (e) =>
              e.name.endsWith(`/api/review/documents/${id}/file`) &&
              (e as PerformanceResourceTiming).responseEnd > 0,
          ),
      next.id,
      { timeout: PREFETCH_WAIT_MS, polling: 50 },
    )
    .then(
      () => true,
      () => false,
    );
  if (asked) await page.waitForTimeout(PREFETCH_DRAW_MS);
}

/**
 * An action that moves on, on the review open in `page`: Ctrl+Enter ("Confirm anyway" if the
 * unchecked-values gate asks), or Reject with a reason, or Postpone; until the next document's page 1
 * is drawn with polygons.
 */
async function moveOn(
  page: Page,
  base: string,
  session: Session,
  action: Action,
  timeout: number,
): Promise<NextRun> {
  const from = new URL(page.url()).pathname;
  await waitForPrefetch(page, base, session);
  if (action === 'confirm') {
    await page.evaluate(pageScript(nextProbe));
    await page.keyboard.press('Control+Enter');
    const gate = page.getByRole('dialog').getByRole('button', { name: 'Confirm anyway' });
    const moved = page.waitForFunction(() => window.__next?.urlChanged != null, null, { timeout });
    // Whichever comes first; the other is let go of (its timeout ignored).
    const first = await Promise.race([
      moved.then(() => 'moved' as const),
      gate.waitFor({ timeout }).then(() => 'gate' as const),
    ]);
    moved.catch(() => undefined);
    if (first === 'gate') await gate.click();
  } else {
    await page.getByRole('button', { name: action === 'reject' ? 'Reject…' : 'Postpone…' }).click();
    const dialog = page.getByRole('dialog');
    if (action === 'reject') await dialog.getByRole('textbox').first().fill('Not an invoice (bench)');
    await page.evaluate(pageScript(nextProbe));
    await dialog
      .getByRole('button', { name: action === 'reject' ? 'Reject' : 'Postpone', exact: true })
      .click();
  }
  await page
    .waitForFunction(() => window.__next?.painted != null, null, { timeout, polling: 100 })
    .catch((error: unknown) => {
      throw new Error(
        `${action} from ${from}: the next document's page 1 was not drawn with polygons within ${ms(timeout)} ` +
          `(now at ${new URL(page.url()).pathname})`,
        { cause: error },
      );
    });
  const record = (await page.evaluate(() => window.__next)) as NextRecord;
  const pressed = record.pressed ?? Number.NaN;
  const requests = await requestsSince(page, pressed);
  return {
    total: (record.withPolygons ?? Number.NaN) - pressed,
    prefetched: !requests.some((q) => /\/file$/.test(q.path)),
    urlChanged: (record.urlChanged ?? Number.NaN) - pressed,
    bitmap: (record.bitmap ?? Number.NaN) - pressed,
    painted: (record.painted ?? Number.NaN) - pressed,
    polygons: record.polygons,
    requests,
  };
}

/** A document taken for the operator, opened by its address in a new tab, from navigation start. */
async function coldOpen(
  context: BrowserContext,
  base: string,
  session: Session,
  timeout: number,
): Promise<ColdRun> {
  const taken = (await call(base, session, 'POST', '/api/review/next')) as
    { document: { id: string } } | undefined;
  if (taken === undefined) throw new Error('no document left to take');
  const page = await context.newPage();
  try {
    await page.addInitScript({ content: pageScript(firstPageProbe) });
    await page.goto(`${base}/review/${taken.document.id}`, { timeout });
    const handle = await page
      .waitForFunction(() => window.__firstDrawn?.withPolygons != null && window.__firstDrawn, null, {
        timeout,
        polling: 100,
      })
      .catch((error: unknown) => {
        throw new Error(
          `/review/${taken.document.id}: page 1 not drawn with polygons within ${ms(timeout)}`,
          {
            cause: error,
          },
        );
      });
    const drawn = (await handle.jsonValue()) as { bitmap: number; withPolygons: number; polygons: number };
    return {
      total: drawn.withPolygons,
      bitmap: drawn.bitmap,
      polygons: drawn.polygons,
      requests: await requestsSince(page, 0),
    };
  } finally {
    await page.close();
  }
}

/** The page's requests since `start` (resource timing; the document itself as `navigation`), times from `start`. */
async function requestsSince(page: Page, start: number): Promise<Request[]> {
  const entries = await page.evaluate(() =>
    [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')].map((e) => ({
      name: e.entryType === 'navigation' ? 'navigation' : e.name,
      start: e.startTime,
      end: (e as PerformanceResourceTiming).responseEnd,
    })),
  );
  return entries
    .filter((e) => e.start >= start)
    .map((e) => ({
      path: e.name === 'navigation' ? e.name : new URL(e.name).pathname,
      start: e.start - start,
      end: e.end - start,
    }));
}

/**
 * Installed in the page just before the key press: the keydown's time stamp; when the URL becomes
 * another document's (history.pushState/replaceState); when a page 1 that was not on screen before
 * is drawn (`data-rendered`), then with polygons, then that frame painted (the next animation frame,
 * then a task: the "next paint" of INP). Self-contained (serialised into the page).
 */
function nextProbe(): void {
  const old = new WeakSet(document.querySelectorAll('[data-page-index]'));
  const record: NextRecord = {
    fromPath: location.pathname,
    toPath: null,
    pressed: null,
    urlChanged: null,
    bitmap: null,
    withPolygons: null,
    painted: null,
    polygons: 0,
  };
  window.__next = record;
  performance.clearResourceTimings();
  performance.setResourceTimingBufferSize(2000);
  // The action: Ctrl+Enter, or the click on a dialog's button that decides (the last one before the
  // address changes: "Confirm anyway" after the Ctrl+Enter that opened the gate).
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter' && event.ctrlKey && record.urlChanged === null)
      record.pressed = event.timeStamp;
  };
  const onClick = (event: MouseEvent) => {
    const target = event.target instanceof Element ? event.target : null;
    if (target?.closest('dialog button') && record.urlChanged === null) record.pressed = event.timeStamp;
  };
  document.addEventListener('keydown', onKeyDown, true);
  document.addEventListener('click', onClick, true);
  const urlMaybeChanged = () => {
    if (record.urlChanged === null && location.pathname !== record.fromPath) {
      record.urlChanged = performance.now();
      record.toPath = location.pathname;
    }
  };
  const push = history.pushState;
  const replace = history.replaceState;
  history.pushState = function (...args: Parameters<History['pushState']>) {
    push.apply(this, args);
    urlMaybeChanged();
  };
  history.replaceState = function (...args: Parameters<History['replaceState']>) {
    replace.apply(this, args);
    urlMaybeChanged();
  };
  const check = () => {
    urlMaybeChanged();
    if (record.urlChanged === null) return;
    const page = [...document.querySelectorAll('[data-page-index="0"][data-rendered="true"]')].find(
      (el) => !old.has(el),
    );
    if (!page) return;
    record.bitmap ??= performance.now();
    const polygons = page.querySelectorAll('.field-polygon').length;
    if (polygons === 0) return;
    record.withPolygons = performance.now();
    record.polygons = polygons;
    observer.disconnect();
    history.pushState = push;
    history.replaceState = replace;
    document.removeEventListener('keydown', onKeyDown, true);
    document.removeEventListener('click', onClick, true);
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        record.painted = performance.now();
      };
      channel.port2.postMessage(null);
    });
  };
  const observer = new MutationObserver(check);
  observer.observe(document, { subtree: true, childList: true, attributes: true });
}

// ─── Set-up ──────────────────────────────────────────────────────────────────────────────────────

async function buildApp(outDir: string): Promise<void> {
  await build({
    root: repoRoot,
    configFile: path.join(repoRoot, 'vite.config.ts'),
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true, sourcemap: false },
  });
}

/** `npm run operators -- …` (its entry, directly) on the bench's own review store. */
function runOperators(args: string[], stdin: string, appDataDir: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'server/app/review/cli/operators.ts', ...args],
      {
        cwd: repoRoot,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? '',
          APP_DATA_DIR: appDataDir,
          DATABASE_URL: '',
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
    child.stdin.end(stdin);
  });
}

/** A one-page invoice with a text layer (as e2e/support/upload-documents.ts draws it). */
async function invoicePdf(n: number): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const page = pdf.addPage([612, 792]);
  page.drawText('ACME Supplies Ltd', { x: 72, y: 730, size: 20, font: bold });
  const lines: [string, string, number][] = [
    ['Invoice number:', `BQ-${String(n + 1).padStart(4, '0')}`, 680],
    ['Date:', `2024-03-${String((n % 28) + 1).padStart(2, '0')}`, 656],
    ['Total:', `${(n + 1) * 111}.50`, 300],
  ];
  for (const [label, value, y] of lines) {
    page.drawText(label, { x: 72, y, size: 12, font });
    page.drawText(value, { x: 220, y, size: 12, font });
  }
  return pdf.save({ useObjectStreams: false });
}

interface Session {
  token: string;
  cookie: string;
  csrf: string;
}

async function signIn(base: string): Promise<Session> {
  const response = await fetch(`${base}/api/session`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: OPERATOR, password: PASSWORD }),
  });
  if (response.status !== 200) throw new Error(`${response.status} ${(await response.text()).slice(0, 200)}`);
  const body = (await response.json()) as { csrfToken: string };
  const cookie = response.headers
    .getSetCookie()
    .find((c) => c.startsWith('er_session='))
    ?.split(';')[0];
  if (!cookie) throw new Error('no er_session cookie in the answer');
  return { cookie, token: cookie.slice('er_session='.length), csrf: body.csrfToken };
}

async function call(base: string, session: Session, method: string, pathname: string): Promise<unknown> {
  const response = await fetch(`${base}${pathname}`, {
    method,
    headers: { Cookie: session.cookie, 'X-CSRF-Token': session.csrf },
  });
  const text = await response.text();
  if (response.status >= 400)
    throw new Error(`${method} ${pathname}: ${response.status} ${text.slice(0, 200)}`);
  return text === '' ? undefined : (JSON.parse(text) as unknown);
}

async function enqueue(base: string, session: Session, name: string, pdf: Uint8Array): Promise<void> {
  const form = new FormData();
  form.set('model_id', INVOICE_MODEL_ID);
  form.set('file', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), name);
  const response = await fetch(`${base}/api/v2/products/extraction/enqueue`, {
    method: 'POST',
    headers: { Cookie: session.cookie, 'X-CSRF-Token': session.csrf },
    body: form,
  });
  if (response.status !== 202)
    throw new Error(`enqueue ${name}: ${response.status} ${(await response.text()).slice(0, 200)}`);
}

/** Until `count` documents are `to_review`; fails at once on a failed extraction. */
async function waitForToReview(
  base: string,
  session: Session,
  count: number,
  timeout: number,
): Promise<number> {
  const end = Date.now() + timeout;
  for (;;) {
    const { documents, counts } = (await call(
      base,
      session,
      'GET',
      '/api/review/documents?state=to_review&limit=200',
    )) as { documents: unknown[]; counts: Record<string, number> };
    if ((counts.failed ?? 0) > 0) throw new Error(`${counts.failed} extraction(s) failed`);
    if (documents.length >= count) return documents.length;
    if (Date.now() > end)
      throw new Error(
        `${documents.length} of ${count} to review after ${ms(timeout)} (counts: ${JSON.stringify(counts)})`,
      );
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

async function stopServer(server: MainProcess): Promise<void> {
  const stopped = server.stop('SIGTERM');
  const timer = new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), 10_000).unref());
  if ((await Promise.race([stopped, timer])) === 'late') await server.stop('SIGKILL');
}
