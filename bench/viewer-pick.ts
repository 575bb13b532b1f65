/**
 * Pick from the page (issue 12), on a job's own page (`/jobs/{id}`): the time from a click on a word
 * to its value shown, on a text PDF and on a photo, each uploaded through the app's form (the app
 * server keeps the file and reads its words: the text layer, or OCR of the photo once).
 *
 * Measured in the page, on the clock of its events: from the click's `pointerdown` to the value in
 * its control, then to the end of the next frame (the value painted). The first pick of a document
 * also waits for its page's words: from the value's selection (they are asked for then), "Pick from
 * page" pressed at once, until the page's words are there (OCR included on the photo), plus that first click to its value painted; a second photo
 * tells the OCR engine's start (the app server's first OCR) from the OCR itself. Then `PICKS` clicks
 * alternating between two words, so that each changes the value.
 *
 * `npm run bench -- viewer` runs it (bench/viewer.ts); alone: `npx tsx bench/viewer-pick.ts`.
 * Figures are printed, never asserted.
 */
import { availableParallelism, loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Locator, type Page } from '@playwright/test';
import { makeInvoicePdf } from '../e2e/support/make-invoice';
import { rasterise } from '../e2e/support/viewer-documents';
import { ms, percentile, table } from './stats';
import { buildBenchSite, startAppServer, uploadThroughTheApp, type BenchSite } from './viewer-setup';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const VIEWPORT = { width: 1440, height: 960 };
const PICKS = 12;
/** The value picked into: a text field, so that any word is a value. */
const FIELD = 'invoice_number';

interface PickTimes {
  /** From the value's selection to the page's words there (the first time: read, or OCR'd, by the server). */
  words: number;
  /** The first click, to its value painted. */
  firstClick: number;
  /** Later clicks: to the value in its control, and painted. */
  inControl: number[];
  painted: number[];
  wordsOnPage: number;
}

/**
 * Rows for the viewer bench's table (`figure`, `measured`, `baseline`, `aim`): click → value shown on
 * a text PDF and on a photo, the first time and after. Prints what each row is made of.
 */
export async function benchPick(browser: Browser, site: BenchSite): Promise<string[][]> {
  const made = await makeInvoicePdf();
  const text = await pickOn(browser, site, {
    name: 'pick-bench.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from(made.bytes),
  });
  const scan = await rasterise(made, 150);
  const png = scan.pages[0];
  if (!png) throw new Error('the invoice was not rasterised');
  const photo = await pickOn(browser, site, { name: 'pick-bench.png', mimeType: 'image/png', buffer: png });
  // Another photo: the app server's OCR engine started already (it stops after 10 idle minutes).
  const again = await pickOn(browser, site, { name: 'pick-bench-2.png', mimeType: 'image/png', buffer: png });

  const median = (values: number[]) => percentile(values, 50);
  const after = (t: PickTimes) =>
    `median ${ms(median(t.painted))}, max ${ms(Math.max(...t.painted))} (value in its control: median ${ms(median(t.inControl))})`;
  const first = (t: PickTimes) =>
    `${ms(t.words + t.firstClick)} (words ${ms(t.words)} + click → value ${ms(t.firstClick)})`;
  for (const [what, t] of [
    ['text PDF', text],
    ['photo', photo],
    ['another photo', again],
  ] as const) {
    console.log(
      `   ${what}: ${t.wordsOnPage} words on page 1; clicks → value painted: ${t.painted.map(ms).join(', ')}`,
    );
  }
  return [
    [
      'pick: click on a word → value shown, text PDF (/jobs/{id})',
      `${after(text)}; first pick ${first(text)}`,
      'earlier manual: 7–14 ms',
      '< 50 ms',
    ],
    [
      'pick: click on a word → value shown, photo, first time (OCR of the page on the app server)',
      `${first(photo)}; another photo, the OCR engine started: ${first(again)}`,
      'earlier manual: 974 ms',
      '< 1 s',
    ],
    ['pick: click on a word → value shown, photo, after', after(photo), 'earlier manual: 6–15 ms', '< 50 ms'],
  ];
}

async function pickOn(
  browser: Browser,
  site: BenchSite,
  file: { name: string; mimeType: string; buffer: Buffer },
): Promise<PickTimes> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  await context.addCookies([{ name: 'er_session', value: site.session, url: site.url }]);
  // tsx (esbuild) names the functions handed to page.evaluate through a `__name` helper that only
  // exists in Node: the page gets a stand-in (as bench/viewer-probes.ts's pageScript does).
  await context.addInitScript('globalThis.__name = (target) => target;');
  const page = await context.newPage();
  try {
    await uploadThroughTheApp(page, site, file);

    const value = page.getByRole('textbox', { name: FIELD, exact: true });
    // The value selected: its page's words asked for (read, or OCR'd, by the app server the first
    // time); then at once pick mode on, as an operator in a hurry would, so the wait is counted whole.
    const layer = page.locator('[data-page-index="0"] .pick-layer');
    const started = await page.evaluate(() => performance.now());
    await value.focus();
    await page.getByRole('button', { name: 'Pick from page' }).click();
    await layer.and(page.locator('[data-words]')).waitFor({ timeout: 60_000 });
    const wordsThere = await page.evaluate(() => performance.now());
    const wordsOnPage = Number(await layer.getAttribute('data-words'));

    const [a, b] = await twoWords(page, await value.inputValue());
    const firstClick = await timedClick(page, value, a);
    const inControl: number[] = [];
    const painted: number[] = [];
    for (let i = 0; i < PICKS; i++) {
      const t = await timedClick(page, value, i % 2 === 0 ? b : a);
      inControl.push(t.inControl);
      painted.push(t.painted);
    }
    return { words: wordsThere - started, firstClick: firstClick.painted, inControl, painted, wordsOnPage };
  } finally {
    await context.close();
  }
}

/**
 * Two words with different texts, the first not the value now, so that each click changes the value.
 */
async function twoWords(page: Page, now: string): Promise<[Locator, Locator]> {
  const words = page.locator('[data-page-index="0"] .pick-word');
  const texts = await words.evaluateAll((found) => found.map((w) => w.getAttribute('data-text') ?? ''));
  // Words a click can hit: long enough to aim at, different from each other.
  const wanted = (t: string) => t.length >= 4 && /[0-9]/.test(t);
  const first = texts.findIndex((t) => wanted(t) && t !== now);
  const second = texts.findIndex((t, i) => i !== first && wanted(t) && t !== texts[first]);
  if (first < 0 || second < 0) throw new Error(`no two words to pick among ${texts.join(' ')}`);
  return [words.nth(first), words.nth(second)];
}

/**
 * One click on `word`, timed in the page: from the click's `pointerdown` to the value's control
 * showing another value, and to the end of the frame after (painted).
 */
async function timedClick(page: Page, value: Locator, word: Locator) {
  const control = await value.elementHandle();
  if (!control) throw new Error(`no control for ${FIELD}`);
  await page.evaluate((input) => {
    const before = (input as HTMLInputElement).value;
    const probe = window as unknown as { pickTimes?: Promise<{ inControl: number; painted: number }> };
    probe.pickTimes = new Promise((resolve, reject) => {
      let down = Number.NaN;
      addEventListener('pointerdown', (e) => (down = e.timeStamp), { capture: true, once: true });
      let done = false;
      setTimeout(() => {
        if (!done) reject(new Error('the value did not change within 10 s of the click'));
        done = true;
      }, 10_000);
      const check = () => {
        if (done || (input as HTMLInputElement).value === before || Number.isNaN(down)) return;
        done = true;
        const seen = performance.now();
        observer.disconnect();
        requestAnimationFrame(() =>
          setTimeout(() => resolve({ inControl: seen - down, painted: performance.now() - down })),
        );
      };
      // React writes the value as a property (no mutation of its own), with the field's new polygon
      // and marks (mutations) in the same commit; frames catch anything else.
      const observer = new MutationObserver(check);
      observer.observe(document.body, {
        subtree: true,
        childList: true,
        attributes: true,
        characterData: true,
      });
      const everyFrame = () => {
        check();
        if (!done) requestAnimationFrame(everyFrame);
      };
      requestAnimationFrame(everyFrame);
    });
  }, control);
  await word.click();
  const times = await page.evaluate(
    () => (window as unknown as { pickTimes: Promise<{ inControl: number; painted: number }> }).pickTimes,
  );
  await control.dispose();
  return times;
}

// Alone: `npx tsx bench/viewer-pick.ts` builds the app, starts its server and measures.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log('Building the app…');
  const site = await startAppServer(await buildBenchSite());
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-background-networking', '--no-first-run'],
  });
  try {
    console.log('Picking values on a job’s page (a text PDF, a photo)…');
    const rows = await benchPick(browser, site);
    console.log(`\n${table([['figure', 'measured', 'baseline', 'aim'], ...rows])}`);
    console.log(
      `\nLoad average: ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')} (${availableParallelism()} cores).`,
    );
  } finally {
    await browser.close();
    await site.close();
  }
  // The embedded reference service's threads keep handles open; the figures are printed.
  process.exit(0);
}
