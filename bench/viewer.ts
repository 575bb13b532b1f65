/**
 * `npm run bench -- viewer`: the document viewer in Debian's Chromium (headless), against a
 * production build served by the real app server, each figure beside its baseline, in one run:
 *
 * 1. opening the review of `invoice_10p.pdf` (uploaded through the app, signed in as the bench's
 *    operator, and extracted by the reference service first) until page 1 is drawn with its
 *    polygons: its job page (`/jobs/{id}`, reloaded) and its queue document (`/review/{id}`), beside
 *    the viewer alone (harness page) and a bare pdf.js page drawing the same page at the same width
 *    in the same browser; all from navigation start, cache off, each from the same empty page once the
 *    previous one has gone quiet, medians of interleaved runs;
 * 2. hover → highlight painted on a page with 2,000 polygons (the harness page: the real
 *    DocumentViewer with 2,000 synthetic leaves over a generated PDF), p95 of 300 hovers, beside the
 *    same hovers on a trivial page (boxes recoloured by a bare listener) in the same browser;
 * 3. a generated 200-page PDF (harness, 4 synthetic polygons a page) opened and scrolled to the end
 *    a screen at a time: peak JS heap of the page (CDP `Performance.getMetrics`), beside a bare
 *    pdf.js page drawing every page up front;
 * 4. the JavaScript the start page downloads (gzip -6 of each file), beside what the browser has
 *    downloaded once a document is open (the viewer and pdf.js with its worker);
 * 5. picking on a job's page (viewer-pick.ts): a click on a word → the value shown, on a text PDF and
 *    on a photo (the first pick with its page's OCR on the app server, then the next ones).
 *
 * Figures are printed, never asserted.
 */
import { writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { mb, ms, percentile, table } from './stats';
import { benchPick } from './viewer-pick';
import { firstPageProbe, hoverProbe, pageScript } from './viewer-probes';
import {
  buildBenchSite,
  INVOICE_10P,
  startAppServer,
  uploadThroughTheApp,
  type BenchSite,
} from './viewer-setup';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const RUNS = 7;
const HOVERS = 300;
const VIEWPORT = { width: 1440, height: 960 };

const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
const median = (values: number[]) => percentile(values, 50);

export async function benchViewer(): Promise<void> {
  console.log('Building the app and the bench pages…');
  const site = await startAppServer(await buildBenchSite());
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-background-networking', '--no-first-run'],
  });
  try {
    const rows = [['figure', 'measured', 'baseline', 'aim']];
    console.log('1. Opening the review of invoice_10p.pdf (extracting it first: about a minute)…');
    const open = await benchOpenReview(browser, site);
    const times = (value: number) => `${(value / open.bare).toFixed(2)}×`;
    rows.push([
      'invoice_10p.pdf: review opened → page 1 drawn with polygons',
      `job page ${ms(open.app)} (${times(open.app)}); queue document ${ms(open.queue)} (${times(open.queue)}); viewer alone ${ms(open.harness)} (${times(open.harness)})`,
      `bare pdf.js, same page at ${open.width.toFixed(0)} px: ${ms(open.bare)}`,
      '≤ 1.3× bare',
    ]);
    const paired = (runs: number[]) =>
      `${median(runs.map((value, i) => value / (open.runs.bare[i] ?? NaN))).toFixed(2)}×`;
    console.log(
      `   ${open.polygons} polygon(s) on page 1; medians of ${RUNS} interleaved runs, cache off, from navigation start` +
        ` (median of each run's ratio to the bare page of the same round: job page ${paired(open.runs.app)},` +
        ` queue document ${paired(open.runs.queue)}, viewer alone ${paired(open.runs.harness)}).` +
        `\n   job page (/jobs/{id}: boot, session, the stored document and the job as kept, the result fetched, the review drawn):` +
        ` ${open.runs.app.map(ms).join(', ')} (page bitmap alone ${ms(open.appBitmap)})` +
        `\n   where the job page's time goes (medians, from navigation start): ${open.timeline}` +
        `\n   the bare page's pdf.js worker (medians): ${open.bareTimeline}` +
        `\n   queue document (/review/{id}, read-only: boot, session, the document with its result and its file fetched together, the review drawn):` +
        ` ${open.runs.queue.map(ms).join(', ')}` +
        `\n   viewer alone (harness page, same result): ${open.runs.harness.map(ms).join(', ')}` +
        `\n   bare pdf.js: ${open.runs.bare.map(ms).join(', ')}`,
    );

    console.log('2. Hovering polygons on a page of 2,000…');
    const hover = await benchHover(browser, site);
    const { viewer: hv, control: hc } = hover;
    rows.push([
      'hover → highlight painted, 2,000 polygons on the page',
      `p95 ${ms(hv.dispatchP95)} (p50 ${ms(hv.dispatchP50)}) from the event's dispatch; p95 ${ms(hv.inputP95)} from the input`,
      `trivial page: p95 ${ms(hc.dispatchP95)} from dispatch, ${ms(hc.inputP95)} from the input`,
      'p95 < 16 ms',
    ]);
    console.log(
      `   ${hv.count} hovers. "From the input" adds the browser's wait for the next frame (it aligns pointer moves to frames).`,
      `\n   Event Timing (input → presented on screen, in 8 ms steps), pointer events ≥ 16 ms: viewer ${hv.slowEvents}/${hv.count}, trivial page ${hc.slowEvents}/${hc.count}.`,
    );

    console.log('3. Scrolling a 200-page PDF to its end…');
    const memory = await benchMemory(browser, site);
    rows.push([
      '200-page PDF opened and scrolled to the end: peak JS heap',
      `${mb(memory.viewer)} (${memory.pagesDrawn} pages drawn on the way, ${memory.steps} screens)`,
      `bare pdf.js drawing every page up front: ${mb(memory.bare)}`,
      '< 300 MB',
    ]);

    console.log('4. Measuring the start page JavaScript…');
    const bundle = await benchInitialJs(browser, site);
    rows.push([
      'start page JavaScript, gzipped (pdf.js not loaded)',
      `${kb(bundle.initial)} in ${bundle.initialFiles} files; pdf.js among them: ${bundle.pdfjsInitially ? 'YES' : 'no'}`,
      `once a document is open: ${kb(bundle.withViewer)} (viewer + pdf.js main ${kb(bundle.viewerChunk)}, worker ${kb(bundle.worker)})`,
      '< 250 KB',
    ]);

    console.log('5. Picking values on a job’s page (a text PDF, a photo)…');
    rows.push(...(await benchPick(browser, site)));

    console.log(`\n${table(rows)}`);
    console.log(
      `\nLoad average during the run: ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')} (${availableParallelism()} cores).`,
    );
    console.log(
      '\nHeap: the page’s main thread (CDP JSHeapUsedSize); the pdf.js worker’s heap and canvas memory are not in it.',
    );
  } finally {
    await browser.close();
    await site.close();
  }
}

/** A browser context with the bench operator signed in (the app's pages are for operators). */
async function signedInContext(browser: Browser, site: BenchSite): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  await context.addCookies([{ name: 'er_session', value: site.session, url: site.url }]);
  return context;
}

// ─── 1. Opening a review ─────────────────────────────────────────────────────────────────────────

interface Drawn {
  bitmap: number;
  withPolygons: number;
  polygons: number;
}

export async function benchOpenReview(browser: Browser, site: BenchSite) {
  const context = await signedInContext(browser, site);
  await context.addInitScript({ content: pageScript(firstPageProbe) });
  const page = await context.newPage();
  const jobUrl = await uploadThroughTheApp(page, site, INVOICE_10P);
  // The same result for the harness (the viewer alone), fetched as the app fetched it.
  await writeFile(path.join(site.dist, 'files', 'invoice_10p.result.json'), await fetchResult(site, jobUrl));
  // The same upload is a document of the team queue too (the app server records what the app sends).
  const queueUrl = `${site.url}/review/${await queuedDocument(site, 'invoice_10p.pdf')}`;
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });

  const width = await page
    .locator('[data-page-index="0"] .page-box')
    .evaluate((el) => el.getBoundingClientRect().width);
  const viewer = await page.locator('.document-viewer').evaluate((el) => {
    const r = el.getBoundingClientRect();
    return { w: Math.round(r.width), h: Math.round(r.height) };
  });
  const runs = {
    app: [] as number[],
    appBitmap: [] as number[],
    queue: [] as number[],
    harness: [] as number[],
    bare: [] as number[],
  };
  const timelines: Loaded[][] = [];
  const bareTimelines: Loaded[][] = [];
  let polygons = 0;
  const drawn = async (): Promise<Drawn> => {
    const handle = await page.waitForFunction(
      () => window.__firstDrawn?.withPolygons != null && window.__firstDrawn,
      null,
      {
        timeout: 60_000,
      },
    );
    return (await handle.jsonValue()) as Drawn;
  };
  // Every opening starts from the same empty page of the same origin (its renderer and code cache
  // kept), once the previous page has gone quiet: what a page does after its page 1 (the values,
  // the thumbnails) and while it unloads would otherwise be counted in the next one's time, and the
  // queue document follows the job page.
  const open = async (url: string) => {
    await page.evaluate(
      () => new Promise((resolve) => setTimeout(() => requestIdleCallback(resolve, { timeout: 3000 }), 300)),
    );
    await page.goto(`${site.url}/files/blank.html`);
    await page.goto(url);
  };
  for (let run = 0; run < RUNS; run++) {
    await open(jobUrl);
    const app = await drawn();
    runs.app.push(app.withPolygons);
    runs.appBitmap.push(app.bitmap);
    polygons = app.polygons;
    timelines.push(await page.evaluate(loadedSoFar));

    await open(queueUrl);
    runs.queue.push((await drawn()).withPolygons);

    await open(
      `${site.url}/bench/viewer-harness.html?file=/files/invoice_10p.pdf&result=/files/invoice_10p.result.json&w=${viewer.w}&h=${viewer.h}`,
    );
    runs.harness.push((await drawn()).withPolygons);

    await open(`${site.url}/bench/viewer-bare-pdfjs.html?file=/files/invoice_10p.pdf&width=${width}`);
    await page.waitForSelector('body[data-drawn]', { timeout: 60_000 });
    runs.bare.push(
      await page.evaluate(() => performance.getEntriesByName('bare:drawn')[0]?.startTime ?? NaN),
    );
    bareTimelines.push(await page.evaluate(loadedSoFar));
  }
  await context.close();
  return {
    app: median(runs.app),
    appBitmap: median(runs.appBitmap),
    queue: median(runs.queue),
    harness: median(runs.harness),
    bare: median(runs.bare),
    runs,
    polygons,
    width,
    timeline: medianTimeline(timelines),
    bareTimeline: medianTimeline(bareTimelines, BARE_WORKER_MILESTONES),
  };
}

/** What the page loaded (and when, from navigation start): its document, scripts and API calls. */
interface Loaded {
  name: string;
  start: number;
  end: number;
}

function loadedSoFar(): Loaded[] {
  const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
  return [
    ...(navigation ? [{ name: 'page', start: navigation.requestStart, end: navigation.responseEnd }] : []),
    ...performance.getEntriesByType('resource').map((e) => ({
      name: new URL(e.name).pathname,
      start: e.startTime,
      end: (e as PerformanceResourceTiming).responseEnd,
    })),
    ...performance
      .getEntriesByType('mark')
      .map((e) => ({ name: `mark:${e.name}`, start: e.startTime, end: e.startTime })),
  ];
}

/** The pdf.js worker's script, and firstPageProbe's marks of when the page made it and it first spoke. */
const WORKER_SCRIPT = /\/pdf\.worker\.min-[^/]+\.mjs$/;
const WORKER_MADE = /^mark:worker:made$/;
const WORKER_READY = /^mark:worker:ready$/;

/** What the app waits for on its way to page 1, named, with its median start and end over the runs. */
const MILESTONES: [string, RegExp][] = [
  ['page', /^page$/],
  ['app script', /^\/assets\/index-[^/]+\.js$/],
  ['session', /^\/api\/session$/],
  ['job', /^\/api\/v2\/jobs\/[^/]+$/],
  ['result', /^\/api\/v2\/(inferences|products\/extraction\/results)\/[^/]+$/],
  ['viewer script', /^\/assets\/document-viewer-[^/]+\.js$/],
  ['pdf.js worker', WORKER_SCRIPT],
  ['pdf.js worker made', WORKER_MADE],
  ['pdf.js worker ready', WORKER_READY],
];

/** The bare page's worker: made by pdf.js, its script asked for, ready. */
const BARE_WORKER_MILESTONES: [string, RegExp][] = [
  ['made', WORKER_MADE],
  ['script asked for', WORKER_SCRIPT],
  ['ready', WORKER_READY],
];

function medianTimeline(runs: Loaded[][], milestones = MILESTONES): string {
  return milestones
    .flatMap(([label, pattern]) => {
      const found = runs.flatMap((run) => run.filter((e) => pattern.test(e.name)).slice(0, 1));
      if (found.length === 0) return [`${label} not fetched`];
      const [start, end] = [median(found.map((e) => e.start)), median(found.map((e) => e.end))];
      // A mark is a moment; a worker's script reports no usable end in the page's timeline.
      if (found[0]?.name.startsWith('mark:')) return [`${label} at ${ms(start)}`];
      return [end > start ? `${label} ${ms(start)}–${ms(end)}` : `${label} from ${ms(start)}`];
    })
    .join('; ');
}

/** The extraction result behind a job page, through the app server as the app gets it. */
async function fetchResult(site: BenchSite, jobUrl: string): Promise<string> {
  const id = jobUrl.split('/').pop() ?? '';
  const headers = { Cookie: `er_session=${site.session}` };
  const job = (await (await fetch(`${site.url}/api/v2/jobs/${id}?redirect=false`, { headers })).json()) as {
    job: { result_url: string | null };
  };
  if (!job.job.result_url) throw new Error(`job ${id} has no result`);
  return (await fetch(new URL(job.job.result_url, site.url), { headers })).text();
}

/** The id of the queue's newest document named `fileName`, once it waits for review. */
async function queuedDocument(site: BenchSite, fileName: string): Promise<string> {
  const end = Date.now() + 60_000;
  for (;;) {
    const response = await fetch(`${site.url}/api/review/documents?limit=20`, {
      headers: { Cookie: `er_session=${site.session}` },
    });
    const { documents } = (await response.json()) as {
      documents: { id: string; fileName: string; state: string }[];
    };
    const found = documents.find((d) => d.fileName === fileName);
    if (found && found.state !== 'processing') return found.id;
    if (Date.now() > end)
      throw new Error(`${fileName} is not in the queue (${JSON.stringify(found ?? null)})`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

// ─── 2. Hover ────────────────────────────────────────────────────────────────────────────────────

export async function benchHover(browser: Browser, site: BenchSite) {
  const context = await signedInContext(browser, site);
  const page = await context.newPage();
  await page.goto(`${site.url}/bench/viewer-harness.html?file=/files/grid.pdf&synthetic=grid&count=2000`);
  await page.locator('[data-page-index="0"][data-rendered="true"]').waitFor({ timeout: 60_000 });
  const count = await page.locator('.field-polygon').count();
  if (count !== 2000) throw new Error(`expected 2,000 polygons, found ${count}`);
  const viewer = await hoverAll(page);

  // Baseline: the same hovers on a trivial page (plain boxes, one recoloured on hover by a
  // three-line listener), in the same browser: the floor the browser itself sets.
  await page.setContent(
    '<style>b{position:absolute;width:30px;height:20px;background:#ddd}b[data-hovered]{background:#f80}</style>' +
      Array.from(
        { length: 400 },
        (_, i) =>
          `<b class="field-polygon" style="left:${(i % 20) * 40}px;top:${Math.floor(i / 20) * 30}px"></b>`,
      ).join(''),
  );
  await page.evaluate(
    pageScript(() => {
      document.addEventListener('pointerover', (event) => {
        const target = event.target as Element;
        if (!target.matches('.field-polygon')) return;
        document.querySelector('[data-hovered]')?.removeAttribute('data-hovered');
        target.setAttribute('data-hovered', 'true');
      });
    }),
  );
  const control = await hoverAll(page);
  await context.close();
  return { viewer, control };
}

/** Hovers the polygons in sight one after another (HOVERS times) and summarises the probe. */
async function hoverAll(page: Page) {
  await page.evaluate(pageScript(hoverProbe));
  const targets = await page.locator('.field-polygon').evaluateAll((els) => {
    const view = (
      document.querySelector('.page-scroller') ?? document.documentElement
    ).getBoundingClientRect();
    return els.flatMap((el) => {
      const r = el.getBoundingClientRect();
      const x = r.x + r.width / 2;
      const y = r.y + r.height / 2;
      const inSight =
        x > view.left && x < view.right - 20 && y > view.top && y < Math.min(view.bottom, innerHeight) - 20;
      return inSight ? [{ x, y }] : [];
    });
  });
  for (let i = 0; i < HOVERS; i++) {
    const { x, y } = targets[(i * 37) % targets.length] ?? { x: 0, y: 0 };
    await page.mouse.move(x, y);
    await page.waitForTimeout(40);
  }
  const record = await page.evaluate(() => window.__hover);
  const fromInput = record?.fromInput ?? [];
  const fromDispatch = record?.fromDispatch ?? [];
  return {
    count: fromInput.length,
    inputP50: percentile(fromInput, 50),
    inputP95: percentile(fromInput, 95),
    dispatchP50: percentile(fromDispatch, 50),
    dispatchP95: percentile(fromDispatch, 95),
    slowEvents: record?.slowEvents ?? 0,
  };
}

// ─── 3. Memory ───────────────────────────────────────────────────────────────────────────────────

async function heapSampler(context: BrowserContext, page: Page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  let peak = 0;
  return {
    async sample() {
      const { metrics } = await cdp.send('Performance.getMetrics');
      const used = metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0;
      peak = Math.max(peak, used);
    },
    peak: () => peak,
  };
}

export async function benchMemory(browser: Browser, site: BenchSite) {
  const viewerContext = await signedInContext(browser, site);
  const page = await viewerContext.newPage();
  const heap = await heapSampler(viewerContext, page);
  await page.goto(
    `${site.url}/bench/viewer-harness.html?file=/files/pages-200.pdf&synthetic=lines&pages=200&perPage=4`,
  );
  await page.locator('[data-page-index="0"][data-rendered="true"]').waitFor({ timeout: 60_000 });
  await heap.sample();
  const drawn = new Set<string>();
  let steps = 0;
  for (let atEnd = false; !atEnd; steps++) {
    atEnd = await page.evaluate(() => {
      const el = document.querySelector('.page-scroller');
      if (!el) return true;
      el.scrollTop += el.clientHeight;
      return el.scrollTop + el.clientHeight >= el.scrollHeight - 1;
    });
    // Wait until every page in sight is drawn (or give up on this screen after 3 s).
    await page
      .waitForFunction(
        () => {
          const el = document.querySelector('.page-scroller');
          if (!el) return true;
          const view = el.getBoundingClientRect();
          return [...document.querySelectorAll('[data-page-index]')].every((slot) => {
            const r = slot.getBoundingClientRect();
            const inSight = r.bottom > view.top && r.top < view.bottom;
            return !inSight || slot.getAttribute('data-rendered') === 'true';
          });
        },
        null,
        { timeout: 3000, polling: 'raf' },
      )
      .catch(() => {});
    for (const index of await page
      .locator('[data-rendered="true"]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-page-index') ?? '')))
      drawn.add(index);
    await heap.sample();
  }
  const viewer = heap.peak();
  await viewerContext.close();

  const bareContext = await signedInContext(browser, site);
  const bare = await bareContext.newPage();
  const bareHeap = await heapSampler(bareContext, bare);
  await bare.goto(`${site.url}/bench/viewer-bare-pdfjs.html?file=/files/pages-200.pdf&width=1000&pages=all`);
  for (let done = false; !done;) {
    await bare.waitForTimeout(250);
    await bareHeap.sample();
    done = await bare.evaluate(() => document.body.dataset.allDrawn === 'true');
  }
  await bareContext.close();
  return { viewer, bare: bareHeap.peak(), pagesDrawn: drawn.size, steps };
}

// ─── 4. Initial JavaScript ───────────────────────────────────────────────────────────────────────

export async function benchInitialJs(browser: Browser, site: BenchSite) {
  const context = await signedInContext(browser, site);
  const page = await context.newPage();
  const scripts = new Map<string, number>();
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (!/\.m?js$/.test(url.pathname)) return;
    void response
      .body()
      .then((body) => scripts.set(url.pathname, gzipSync(body, { level: 6 }).length))
      .catch(() => {});
  });
  await page.goto(`${site.url}/`);
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(500);
  // pdf.js's main thread comes in the viewer's chunks (document-viewer, or open-ahead, which opens a
  // document ahead of the viewer), or a chunk of its own (pdf).
  const isPdfjs = (name: string) =>
    /\/(pdf|pdf\.worker\.min|document-viewer|open-ahead)-[^/]+\.m?js$/.test(name);
  const initialNames = [...scripts.keys()];
  const initial = [...scripts.values()].reduce((a, b) => a + b, 0);

  // The same browser once a document is open: the bench harness opens one.
  await page.goto(`${site.url}/bench/viewer-harness.html?file=/files/grid.pdf&synthetic=grid&count=10`);
  await page.locator('[data-page-index="0"][data-rendered="true"]').waitFor({ timeout: 60_000 });
  await page.waitForTimeout(500);
  const size = (pattern: RegExp) =>
    [...scripts.entries()].filter(([name]) => pattern.test(name)).reduce((a, [, b]) => a + b, 0);
  await context.close();
  return {
    initial,
    initialFiles: initialNames.length,
    pdfjsInitially: initialNames.some(isPdfjs),
    viewerChunk: size(/\/(pdf|document-viewer|open-ahead)-[^/]+\.js$/),
    worker: size(/pdf\.worker/),
    withViewer: initial + size(/\/(pdf|document-viewer|open-ahead|pdf\.worker\.min)-[^/]+\.m?js$/),
  };
}
