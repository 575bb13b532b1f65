/**
 * Two app-server copies deployed as two machines would be (e2e/two-machines.spec.ts): one PostgreSQL
 * database, one upstream (this run's reference service, playwright.config.ts), and for each copy a
 * data directory of its own, so that nothing one copy keeps on its disk can be read by the other.
 * Operators and integrations are made with the real admin commands on that database; pipelines send
 * through a copy's gateway as the hosted API's clients do.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import pg from 'pg';
import { startMainProcess, type MainProcess } from '@extraction-review/test-kit/app/main-process';
import { retryAfterMs } from './team';
import type { FilePayload } from './upload-documents';
import { INVOICE_MODEL_ID } from './upload-steps';
import { rasterise } from './viewer-documents';

export interface TwoMachines {
  a: MainProcess;
  b: MainProcess;
  /** Each copy's APP_DATA_DIR: its machine's own disk. */
  dataDirs: { a: string; b: string };
  /** What the admin commands need to reach the copies' store. */
  storeEnv: Record<string, string>;
  stop(): Promise<void>;
}

/** Every file under `dir` (relative paths); none when it does not exist. */
export async function filesUnder(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { recursive: true, withFileTypes: true });
    return entries
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/** A database of its own on `clusterUrl`'s server (one per storage kind, so the journeys never meet). */
export async function createDatabase(clusterUrl: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: clusterUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
  } finally {
    await client.end();
  }
  const url = new URL(clusterUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Copy A, then copy B (A applies the migrations; B finds them done, as a second machine would), each
 * with its own APP_DATA_DIR, both on `databaseUrl` with `storageEnv` (FILE_STORAGE and what it needs).
 * Both point at this run's reference service, never an embedded one of their own (issue 19: with
 * DATABASE_URL every copy must share one upstream). `whileBStarts` runs on the migrated store while B
 * starts (the admin commands: their start-up overlaps B's).
 */
export async function startTwoMachines<T>(
  databaseUrl: string,
  storageEnv: Record<string, string>,
  whileBStarts: (storeEnv: Record<string, string>) => Promise<T>,
): Promise<TwoMachines & { prepared: T }> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'two-machines-'));
  const runId = process.env.E2E_RUN_ID;
  const referencePort = process.env.E2E_REFERENCE_PORT;
  if (runId === undefined || referencePort === undefined)
    throw new Error('E2E_RUN_ID is unset: run the journeys through playwright.config.ts');
  const reference = `http://127.0.0.1:${referencePort}`;
  const copyEnv = (name: string): Record<string, string> => ({
    DEV: '',
    STATIC_DIR: path.join(os.tmpdir(), `extraction-review-e2e-dist-${runId}`),
    APP_DATA_DIR: path.join(root, name),
    DATABASE_URL: databaseUrl,
    UPSTREAM_V2_URL: reference,
    UPSTREAM_V2_API_KEY: 'e2e-reference-key',
    UPSTREAM_V1_URL: reference,
    UPSTREAM_V1_API_KEY: 'e2e-reference-key',
    // No load balancer to drain them from: a copy told to stop stops at once (its requests finish).
    SHUTDOWN_DRAIN_MS: '0',
    ...storageEnv,
  });
  const storeEnv = { APP_DATA_DIR: path.join(root, 'admin'), DATABASE_URL: databaseUrl };
  const started: MainProcess[] = [];
  const stop = async (): Promise<void> => {
    await Promise.all(started.map((copy) => copy.stop()));
    await rm(root, { recursive: true, force: true });
  };
  const start = async (name: string): Promise<MainProcess> => {
    const copy = await startMainProcess(copyEnv(name));
    started.push(copy);
    return copy;
  };
  try {
    const a = await start('a');
    const [b, prepared] = await Promise.all([start('b'), whileBStarts(storeEnv)]);
    return { a, b, dataDirs: { a: path.join(root, 'a'), b: path.join(root, 'b') }, storeEnv, stop, prepared };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** `npm run integrations -- add NAME` on the copies' store: the key (alone on the last line). */
export function addIntegration(name: string, storeEnv: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'server/app/review/cli/integrations.ts', 'add', name],
      { env: { PATH: process.env.PATH ?? '', ...storeEnv }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0
        ? resolve(output.trimEnd().split('\n').at(-1) ?? '')
        : reject(new Error(`integrations add ${name} exited ${code}: ${output}`)),
    );
  });
}

/** A pipeline's upload to a copy's `/v2` with an integration key; a 429 waited out. Resolves with the job id. */
export async function sendThroughGateway(baseUrl: string, key: string, file: FilePayload): Promise<string> {
  const form = new FormData();
  form.set('model_id', INVOICE_MODEL_ID);
  form.set('file', new Blob([new Uint8Array(file.buffer)], { type: file.mimeType }), file.name);
  const send = () =>
    fetch(`${baseUrl}/v2/products/extraction/enqueue`, {
      method: 'POST',
      headers: { Authorization: key },
      body: form,
    });
  let answer = await send();
  for (let attempt = 0; answer.status === 429 && attempt < 20; attempt += 1) {
    await new Promise((resolve) =>
      setTimeout(resolve, retryAfterMs(answer.headers.get('retry-after') ?? undefined)),
    );
    answer = await send();
  }
  if (answer.status !== 202) throw new Error(`the gateway answered ${answer.status}: ${await answer.text()}`);
  return ((await answer.json()) as { job: { id: string } }).job.id;
}

/**
 * The value the journeys pick from the page: printed under a label the reference service does not
 * read as a due date, so the extraction leaves `due_date` empty and only the operator's pick fills it.
 */
export const PICKED_DUE_DATE = '2024-04-30';

/**
 * An invoice slip photographed: a PNG with no text layer, so both its values and its words come from OCR
 * (the reference service's, then the reviewing copy's). A short page, so that OCR takes little of the
 * journey's time on a loaded machine.
 */
export async function photoInvoice(name: string, invoiceNumber: string): Promise<FilePayload> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const page = pdf.addPage([612, 300]);
  page.drawText('ACME Supplies Ltd', { x: 72, y: 250, size: 20, font: bold });
  const lines: [string, string, number][] = [
    ['Invoice number:', invoiceNumber, 210],
    ['Date:', '2024-03-14', 186],
    ['Settlement:', PICKED_DUE_DATE, 150],
    ['Total:', '1,234.56', 100],
  ];
  for (const [label, value, y] of lines) {
    page.drawText(label, { x: 72, y, size: 12, font });
    page.drawText(value, { x: 220, y, size: 12, font });
  }
  const scan = await rasterise({ bytes: await pdf.save(), words: {} }, 150);
  const png = scan.pages[0];
  if (png === undefined) throw new Error('no page rasterised');
  return { name, mimeType: 'image/png', buffer: png };
}
