/**
 * The attack of issue 18 on the page words, over real HTTP on both engines: an operator asks for the
 * words of kept documents that declare enormous pages while `/api/health` is asked every 100 ms.
 * Before, the reading ran on the app server's thread: two asks for one blank 8000 × 8000 pt page
 * peaked at 8.4 GB and stalled the event loop over 10 s (health checks timed out); a 16 000² PNG
 * stalled it 6.5 s, a 5,000-page PDF 7.6 s. Now the page is read in a thread of its own, within the
 * document limits, and a read that takes too long is stopped (`500-003`), the next one served by a
 * fresh thread. The event loop's longest stall and the peak resident memory are printed.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PageWordsResponse } from '@extraction-review/contract/review/page-words';
import { ErrorResponse } from '@extraction-review/contract/v2/schemas';
import { createApp } from '../../create-app';
import { listen, type RunningServer } from '../../listen';
import { DEFAULT_DOCUMENT_LIMITS } from '@extraction-review/document-text/document-limits';
import { OCR_RENDER_DPI, openPdf } from '@extraction-review/document-text/pdf-document';
import {
  blankPagePdf,
  keepAsking,
  manyPagesPdf,
  measured,
  pngDeclaring,
  whitePng,
} from '@extraction-review/test-kit/reference/oversized-documents';
import { hashPassword } from '../auth/passwords';
import { ENGINES, openTestStore, type TestStore } from '@extraction-review/test-kit/review/test-stores';
import { DiskFileStorage } from '../files/file-storage';
import { mountReview } from '../http/mount-review';
import { openReview, type OpenedReview } from '../open-review';
import { PageWordsReader } from './page-words';

const T0 = Date.UTC(2026, 10, 28, 9, 0, 0);
const PASSWORD = 'correct horse battery staple';

describe.each(ENGINES)('page words of oversized documents on %s', (engine) => {
  let store: TestStore;
  let review: OpenedReview;
  let server: RunningServer;
  let cookie = '';
  let clock = T0;

  beforeAll(async () => {
    store = await openTestStore(engine);
    review = await openReview({ ...store.settings, clock: { now: () => clock } });
    server = await listen(createApp({ upstream: {}, staticDir: null, review: mountReview(review) }), {
      host: '127.0.0.1',
      port: 0,
    });
    await review.operators.create(
      { name: 'Alice', role: 'operator', passwordHash: await hashPassword(PASSWORD) },
      T0,
    );
    const signedIn = await fetch(`${server.url}/api/session`, {
      method: 'POST',
      headers: { Origin: server.url, 'Sec-Fetch-Site': 'same-origin', 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Alice', password: PASSWORD }),
    });
    expect(signedIn.status).toBe(200);
    cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  });
  afterAll(async () => {
    await server.close();
    await review.close();
    await store.cleanup();
  });

  /** A document kept as an import keeps it: its file under its id. */
  async function kept(bytes: Uint8Array, mimeType: string, fileName: string): Promise<string> {
    clock += 1000;
    const id = crypto.randomUUID();
    await review.files?.save(id, Readable.from([Buffer.from(bytes)]));
    await review.queue.addDocument(
      { id, apiVersion: 'v2', modelKey: 'model-a', fileName, mimeType, fileKey: id, upstreamJobId: null },
      clock,
    );
    return id;
  }

  const wordsOf = (id: string) =>
    fetch(`${server.url}/api/review/documents/${id}/pages/0/words`, { headers: { Cookie: cookie } });

  it('reads the 8000 pt page within the render cap and refuses the rest with 422-012, health answering throughout', async () => {
    const ids = {
      bigPage: await kept(await blankPagePdf(8000), 'application/pdf', 'big-page.pdf'),
      hugePage: await kept(await blankPagePdf(14_400), 'application/pdf', 'huge-page.pdf'),
      manyPages: await kept(
        await manyPagesPdf(DEFAULT_DOCUMENT_LIMITS.maxPages + 1),
        'application/pdf',
        'many-pages.pdf',
      ),
      bomb: await kept(await pngDeclaring(30_000, 30_000), 'image/png', 'bomb.png'),
      bigPicture: await kept(await whitePng(10_001, 10_000), 'image/png', 'big-picture.png'),
    };
    const health = keepAsking(`${server.url}/api/health`);
    const [answers, measures] = await measured(() =>
      Promise.all(
        // The 8000 pt page asked twice at once, as the probe did: read once (the dedupe).
        [ids.bigPage, ids.bigPage, ids.hugePage, ids.manyPages, ids.bomb, ids.bigPicture].map(async (id) => {
          const response = await wordsOf(id);
          return { status: response.status, body: (await response.json()) as unknown };
        }),
      ),
    );
    const answered = await health.stop();
    console.log(
      `[attack: page words on ${engine}] event loop max delay ${measures.maxEventLoopDelayMs.toFixed(1)} ms; ` +
        `rss ${measures.startRssMb.toFixed(0)} → peak ${measures.peakRssMb.toFixed(0)} MB; ` +
        `health answers ${JSON.stringify([...answered])}`,
    );

    const [big, again, huge, many, bomb, bigPicture] = answers;
    for (const answer of [big, again]) {
      expect(answer?.status).toBe(200);
      expect(PageWordsResponse.parse(answer?.body)).toMatchObject({ page: 0, source: 'ocr', words: [] });
    }
    const refused = (answer: typeof big, detail: RegExp) => {
      expect(answer?.status).toBe(422);
      expect(ErrorResponse.parse(answer?.body)).toMatchObject({ status: 422, code: '422-012' });
      expect((answer?.body as { detail: string }).detail).toMatch(detail);
    };
    refused(huge, /^A page of 200 × 200 in is too large to render/);
    refused(many, /^The document has 501 pages: at most 500 are read/);
    refused(bomb, /^The image is 30000 × 30000 pixels \(900 MP\), over the 100 MP/);
    refused(bigPicture, /^The image is 10001 × 10000 pixels/);
    expect([...answered.keys()]).toEqual([200]);
    // Before: 8.4 GB for the two asks of the 8000 pt page.
    expect(measures.peakRssMb - measures.startRssMb).toBeLessThan(1_500);
  }, 300_000);
});

describe('a page-words read that takes too long', () => {
  let dir: string;
  let store: TestStore;
  let files: DiskFileStorage;

  beforeAll(async () => {
    store = await openTestStore('sqlite');
    dir = await mkdtemp(path.join(os.tmpdir(), 'page-words-limits-'));
    files = new DiskFileStorage(path.join(dir, 'files'));
  });
  afterAll(async () => {
    await store.cleanup();
    await rm(dir, { recursive: true, force: true });
  });

  it('is stopped with a 500-003 problem, and the next read is served by a fresh thread', async () => {
    // A scanned page: rendering and OCR take far longer than the 20 ms allowed here.
    const text = await PDFDocument.create();
    text.addPage([612, 792]).drawText('Total: 1,234.56', { x: 72, y: 300, size: 24 });
    const rendered = await openPdf(await text.save());
    const image = await rendered.renderPage(0, OCR_RENDER_DPI);
    await rendered.close();
    const png = await sharp(Buffer.from(image.data), {
      raw: { width: image.width, height: image.height, channels: 1 },
    })
      .png()
      .toBuffer();
    const id = '00000000-0000-4000-8000-00000000aaaa';
    await files.save(id, Readable.from([png]));
    const doc = { id, fileKey: id, mimeType: 'image/png' };

    const impatient = new PageWordsReader(store.database, files, {
      timeoutMs: 20,
      tempDir: path.join(dir, 'tmp'),
    });
    await expect(impatient.words(doc, 0)).rejects.toMatchObject({
      code: '500-003',
      message: 'Reading the words of page 1 took longer than 20 ms: it was stopped.',
    });
    const patient = new PageWordsReader(store.database, files, { tempDir: path.join(dir, 'tmp') });
    const answer = await patient.words(doc, 0);
    expect(answer.words.map((w) => w.text)).toEqual(expect.arrayContaining(['1,234.56']));
  }, 120_000);
});
