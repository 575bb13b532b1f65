/**
 * What the app server's process loads, started as `npm run serve` starts it (server/main.ts in a child
 * process) with hosted upstreams for both API versions, so without the embedded reference service:
 * none of the document-reading code (pdf.js, sharp, @napi-rs/canvas, tesseract.js, nor the reading
 * threads' pool) until a page's words are asked for, and what the page-words thread loads once they
 * are. Checked on every module the process resolved, main thread and threads alike
 * (test-support/module-record.mjs, preloaded in every thread).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PageWordsResponse } from '@extraction-review/contract/review/page-words';
import { seedKeptDocument, signIn } from '@extraction-review/test-kit/app/kept-document';
import { startMainProcess, type MainProcess } from '@extraction-review/test-kit/app/main-process';

const RECORDER = path.join(
  import.meta.dirname,
  '..',
  '..',
  'packages',
  'test-kit',
  'src',
  'app',
  'module-record.mjs',
);

/** The reading code, by where its modules resolve. */
const READING = {
  // Or the threads' patched copy of it (packages/document-text/src/threads/worker-entries.ts).
  'pdf.js': /\/node_modules\/pdfjs-dist\/|\/reference-threads\/pdfjs-[^/]+\/pdf\.mjs$/,
  sharp: /\/node_modules\/sharp\//,
  '@napi-rs/canvas': /\/node_modules\/@napi-rs\/canvas\//,
  'tesseract.js': /\/node_modules\/tesseract\.js\//,
  'the reading threads': /\/packages\/document-text\/src\/threads\/|\/\.cache\/reference-threads\//,
};

describe('the app server with hosted upstreams', () => {
  let dir: string;
  let record: string;
  let documentId: string;
  let main: MainProcess;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'app-server-modules-'));
    record = path.join(dir, 'modules.txt');
    ({ documentId } = await seedKeptDocument(path.join(dir, 'app')));
    main = await startMainProcess({
      APP_DATA_DIR: path.join(dir, 'app'),
      // Never called here: no job is sent and the follower has none to follow.
      UPSTREAM_V2_URL: 'http://127.0.0.1:9',
      UPSTREAM_V2_API_KEY: 'hosted-v2-key',
      UPSTREAM_V1_URL: 'http://127.0.0.1:9',
      UPSTREAM_V1_API_KEY: 'hosted-v1-key',
      MODULE_RECORD_FILE: record,
      // Through the environment, not the command line: the reading threads start with no flags of
      // the process (execArgv: []), but every thread takes NODE_OPTIONS' preloads.
      NODE_OPTIONS: `--import ${RECORDER}`,
    });
  }, 90_000);

  afterAll(async () => {
    await main?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  /** Which of the reading code's parts the process has resolved so far. */
  async function loaded(): Promise<string[]> {
    const urls = (await readFile(record, 'utf8')).split('\n');
    return Object.entries(READING)
      .filter(([, pattern]) => urls.some((url) => pattern.test(url)))
      .map(([name]) => name);
  }

  it('loads none of the reading code at rest', async () => {
    expect(main.output()).toMatch(/upstream: http:\/\/127\.0\.0\.1:9\)/);
    // The recorder works: the server's own modules are there.
    expect(await readFile(record, 'utf8')).toMatch(/\/server\/app\/review\/words\/page-words\.ts/);
    expect(await loaded()).toEqual([]);
  });

  it('loads it in the page-words thread once a page’s words are asked for', async () => {
    const cookie = await signIn(main.url);
    const response = await fetch(`${main.url}/api/review/documents/${documentId}/pages/0/words`, {
      headers: { Cookie: cookie },
    });
    expect(response.status).toBe(200);
    const words = PageWordsResponse.parse(await response.json());
    expect(words).toMatchObject({ page: 0, source: 'text-layer' });
    expect(words.words.map((w) => w.text)).toContain('1,234.56');
    expect(await loaded()).toEqual(Object.keys(READING));
  }, 90_000);
});
