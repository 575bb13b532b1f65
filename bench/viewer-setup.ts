/**
 * What `npm run bench -- viewer` runs against: a production build of the app plus the bench pages
 * (bench/viewer-harness.html, bench/viewer-bare-pdfjs.html) in a folder of its own (the app's
 * dist/ is untouched), the documents the figures need, and the real app server (with its embedded
 * reference service) serving that folder.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import type { Page } from '@playwright/test';
import { build } from 'vite';
import { fixturesDir } from '@extraction-review/test-kit/fixtures-dir';
import { repoRoot } from '@extraction-review/app-server/settings/config';

export const INVOICE_10P = path.join(fixturesDir, 'v1/products/invoices/invoice_10p.pdf');

export interface BenchSite {
  url: string;
  dist: string;
  /** The bench operator's session cookie (`er_session`): the app's pages are for signed-in operators. */
  session: string;
  close(): Promise<void>;
}

const OPERATOR = 'bench-viewer';
const PASSWORD = 'bench viewer password 1234';

/** Builds the app and the bench pages into a temporary folder, with the bench's documents in `files/`. */
export async function buildBenchSite(): Promise<string> {
  const dist = await mkdtemp(path.join(tmpdir(), 'extraction-review-bench-'));
  const common = {
    root: repoRoot,
    configFile: path.join(repoRoot, 'vite.config.ts'),
    logLevel: 'warn',
  } as const;
  // The app as `npm run build` ships it, on its own: built together with the bench pages, the code
  // they share with it would be split into chunks of their own, evaluated before the app's entry,
  // and the app measured would not be the one shipped.
  await build({ ...common, build: { outDir: dist, emptyOutDir: true, sourcemap: false } });
  await build({
    ...common,
    build: {
      outDir: dist,
      emptyOutDir: false,
      sourcemap: false,
      rollupOptions: {
        input: {
          harness: path.join(repoRoot, 'bench/viewer-harness.html'),
          bare: path.join(repoRoot, 'bench/viewer-bare-pdfjs.html'),
        },
      },
    },
  });
  const files = path.join(dist, 'files');
  await mkdir(files);
  await copyFile(INVOICE_10P, path.join(files, 'invoice_10p.pdf'));
  // An empty page of the same origin, that every measured opening starts from.
  await writeFile(
    path.join(files, 'blank.html'),
    '<!doctype html><title>Bench: between two openings</title>',
  );
  await writeFile(path.join(files, 'grid.pdf'), await gridPdf());
  await writeFile(path.join(files, 'pages-200.pdf'), await longPdf(200));
  return dist;
}

/** One page of small words in a grid: the page the 2,000 synthetic polygons are laid over. */
async function gridPdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([612, 792]);
  for (let row = 0; row < 50; row++) {
    for (let col = 0; col < 40; col++) {
      page.drawText(`${row * 40 + col}`, { x: 26 + col * 14, y: 760 - row * 14.6, size: 5, font });
    }
  }
  return pdf.save();
}

/** A long text document: lines of text, a table and a logo-like box on every page. */
async function longPdf(pages: number): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  for (let p = 0; p < pages; p++) {
    const page = pdf.addPage([612, 792]);
    page.drawRectangle({ x: 460, y: 700, width: 90, height: 50, color: rgb(0.2, 0.4, 0.7) });
    page.drawText(`Statement page ${p + 1} of ${pages}`, { x: 72, y: 730, size: 18, font: bold });
    for (let line = 0; line < 40; line++) {
      const y = 690 - line * 15;
      page.drawText(`Item ${p * 40 + line}  Description of the goods delivered, lot ${line}`, {
        x: 72,
        y,
        size: 10,
        font,
      });
      page.drawText(`${((p * 40 + line) * 13.37).toFixed(2)}`, { x: 500, y, size: 10, font });
      page.drawLine({
        start: { x: 72, y: y - 3 },
        end: { x: 540, y: y - 3 },
        thickness: 0.3,
        color: rgb(0.7, 0.7, 0.7),
      });
    }
  }
  return pdf.save();
}

/** The real app server (and its embedded reference service) serving `dist`, on free ports. */
export async function startAppServer(dist: string): Promise<BenchSite> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'extraction-review-bench-data-'));
  // Its own review store (never the repository's data/app), with one operator to sign in as.
  const appDataDir = await mkdtemp(path.join(tmpdir(), 'extraction-review-bench-app-'));
  await addOperator(appDataDir);
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', path.join('server', 'main.ts')], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      HOST: '127.0.0.1',
      PORT: '0',
      REFERENCE_PORT: '0',
      REFERENCE_API_KEY: 'bench-reference-key',
      REFERENCE_DATA_DIR: dataDir,
      APP_DATA_DIR: appDataDir,
      DATABASE_URL: '',
      STATIC_DIR: dist,
      UPSTREAM_V2_URL: '',
      UPSTREAM_V2_API_KEY: '',
      UPSTREAM_V1_URL: '',
      UPSTREAM_V1_API_KEY: '',
      SHUTDOWN_DRAIN_MS: '0', // no load balancer to drain for: stop at once (requests still finish)
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the app server did not start:\n${output}`)), 120_000);
    child.stdout?.on('data', () => {
      const match = /is running at ([^\s"]+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the app server exited (${code}):\n${output}`));
    });
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    }
  };
  let session: string;
  try {
    session = await signIn(url);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    url,
    dist,
    session,
    close: async () => {
      await stop();
      await rm(dataDir, { recursive: true, force: true });
      await rm(appDataDir, { recursive: true, force: true });
      await rm(dist, { recursive: true, force: true });
    },
  };
}

/** `npm run operators -- add` (its entry, directly) on the bench's review store. */
function addOperator(appDataDir: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'server/app/review/cli/operators.ts', 'add', OPERATOR, '--role', 'admin'],
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
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`operators add exited ${code}: ${output}`)),
    );
    child.stdin?.end(PASSWORD);
  });
}

/** Signs the bench operator in; resolves with the session cookie's value. */
async function signIn(url: string): Promise<string> {
  const response = await fetch(`${url}/api/session`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: OPERATOR, password: PASSWORD }),
  });
  if (response.status !== 200) throw new Error(`sign-in: ${response.status} ${await response.text()}`);
  const cookie = response.headers
    .getSetCookie()
    .find((c) => c.startsWith('er_session='))
    ?.split(';')[0];
  if (!cookie) throw new Error('sign-in: no er_session cookie in the answer');
  return cookie.slice('er_session='.length);
}

/** Uploads a document through the app's own form, waits for its review, and returns its address. */
export async function uploadThroughTheApp(
  page: Page,
  site: BenchSite,
  file: string | { name: string; mimeType: string; buffer: Buffer },
): Promise<string> {
  await page.goto(`${site.url}/`);
  await page.locator('input[type="file"]').first().setInputFiles(file);
  await page.getByRole('button', { name: /^Extract/ }).click();
  await page.waitForURL(/\/jobs\/[^/]+$/, { timeout: 60_000 });
  await page
    .locator('[data-page-index="0"][data-rendered="true"] .field-polygon')
    .first()
    .waitFor({ timeout: 180_000 });
  return page.url();
}
