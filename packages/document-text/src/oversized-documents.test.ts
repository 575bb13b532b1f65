/**
 * The attack of issue 18 on extraction, over real HTTP: small files declaring enormous documents, sent
 * to the reference service while its health check is asked every 100 ms. Before, one blank 8000 ×
 * 8000 pt page was drawn at 200 dpi (22 222² pixels: 4.7 GB, 43 s before failing). Now:
 *
 * - the 8000 pt page is drawn within DOCUMENT_MAX_RENDER_PIXELS (at a lower resolution) and read;
 * - a page too large even at MIN_RENDER_DPI, a PDF of DOCUMENT_MAX_PAGES + 1 pages and a picture over
 *   DOCUMENT_MAX_IMAGE_PIXELS are `Failed` jobs with `422-012`;
 * - a PNG whose header declares 30 000² pixels is refused at enqueue (`422-012`), never decoded;
 * - the service's settings apply (a lower DOCUMENT_MAX_PAGES refuses a two-page PDF).
 *
 * The event loop's longest stall and the process's peak resident memory (worker threads included)
 * are printed, not asserted against a clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReferenceService } from '@extraction-review/reference/create-reference-service';
import {
  blankPagePdf,
  keepAsking,
  manyPagesPdf,
  measured,
  pngDeclaring,
  whitePng,
} from '@extraction-review/test-kit/reference/oversized-documents';
import { multiPageTiff } from '@extraction-review/test-kit/reference/documents-images';
import {
  enqueue,
  get,
  INVOICE_MODEL_ID,
  makeDataDir,
  startTestService,
  waitForJob,
} from '@extraction-review/test-kit/reference/reference-harness';
import { DEFAULT_DOCUMENT_LIMITS, MIN_RENDER_DPI } from './document-limits';

let data: Awaited<ReturnType<typeof makeDataDir>>;
let service: ReferenceService;

beforeAll(async () => {
  data = await makeDataDir();
  service = await startTestService(data.dir);
});

afterAll(async () => {
  await service.close();
  await data.remove();
});

async function jobOf(bytes: Uint8Array, name: string, on = service) {
  const response = await enqueue(on, { modelId: INVOICE_MODEL_ID, file: { bytes, name } });
  expect(response.status).toBe(202);
  const { job } = (await response.json()) as { job: { id: string } };
  return waitForJob(on, job.id, 180_000);
}

describe('documents that declare more than they are', () => {
  it('reads the 8000 pt page within the render cap and fails the rest with 422-012, the service answering throughout', async () => {
    // The largest page that still fits at the floor resolution is about 1,600 in square; 200 in is
    // refused at any resolution worth reading.
    const tooLarge = 14_400;
    expect((tooLarge / 72) * MIN_RENDER_DPI).toBeGreaterThan(
      Math.sqrt(DEFAULT_DOCUMENT_LIMITS.maxRenderPixels),
    );
    const files = {
      bigPage: await blankPagePdf(8000),
      hugePage: await blankPagePdf(tooLarge),
      manyPages: await manyPagesPdf(DEFAULT_DOCUMENT_LIMITS.maxPages + 1),
      // 10 001 × 10 000: just over 100 MP, a real picture that inspection (at enqueue) decodes small.
      bigPicture: await whitePng(10_001, 10_000),
    };
    const health = keepAsking(`${service.url}/health`);
    const [jobs, measures] = await measured(() =>
      Promise.all([
        jobOf(files.bigPage, 'big-page.pdf'),
        jobOf(files.hugePage, 'huge-page.pdf'),
        jobOf(files.manyPages, 'many-pages.pdf'),
        jobOf(files.bigPicture, 'big-picture.png'),
      ]),
    );
    const answered = await health.stop();
    console.log(
      `[attack: extraction] sizes ${Object.values(files)
        .map((f) => f.byteLength)
        .join(', ')} bytes; ` +
        `event loop max delay ${measures.maxEventLoopDelayMs.toFixed(1)} ms; rss ${measures.startRssMb.toFixed(0)} → ` +
        `peak ${measures.peakRssMb.toFixed(0)} MB; health answers ${JSON.stringify([...answered])}`,
    );

    const [bigPage, hugePage, manyPages, bigPicture] = jobs;
    expect(bigPage?.status).toBe('Processed');
    expect(hugePage).toMatchObject({
      status: 'Failed',
      error: {
        status: 422,
        code: '422-012',
        detail: expect.stringMatching(/^A page of 200 × 200 in is too large to render: even at 36 dpi/),
      },
    });
    expect(manyPages).toMatchObject({
      status: 'Failed',
      error: {
        code: '422-012',
        detail: 'The document has 501 pages: at most 500 are read (DOCUMENT_MAX_PAGES).',
      },
    });
    expect(bigPicture).toMatchObject({
      status: 'Failed',
      error: { code: '422-012', detail: expect.stringMatching(/^The image is 10001 × 10000 pixels/) },
    });
    // Every health check answered, none was left waiting on a document.
    expect([...answered.keys()]).toEqual([200]);
    // The 8000 pt page at 200 dpi was 494 MP (4.7 GB); within the cap it is 40 MP, drawn at 56 dpi.
    expect(measures.peakRssMb - measures.startRssMb).toBeLessThan(1_500);

    // The processed page's result: one page, blank (no words, no error).
    const result = await get(bigPage?.result_url ?? '');
    expect(result.status).toBe(200);
    const { inference } = (await result.json()) as { inference: { file: { page_count: number } } };
    expect(inference.file.page_count).toBe(1);
  }, 300_000);

  it('refuses at enqueue a PNG whose header declares 30 000 × 30 000 pixels, without decoding it', async () => {
    const bomb = await pngDeclaring(30_000, 30_000);
    const [response, measures] = await measured(() =>
      enqueue(service, { modelId: INVOICE_MODEL_ID, file: { bytes: bomb, name: 'bomb.png' } }),
    );
    console.log(
      `[attack: pixel bomb at enqueue] ${bomb.byteLength} bytes; event loop max delay ` +
        `${measures.maxEventLoopDelayMs.toFixed(1)} ms; rss peak +${(measures.peakRssMb - measures.startRssMb).toFixed(0)} MB`,
    );
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({
      code: '422-012',
      detail: 'The image is too large to read: it has more than 268 megapixels.',
    });
  });

  it('applies the service’s own limits (DOCUMENT_MAX_PAGES=1: a two-page PDF or TIFF fails)', async () => {
    const strictData = await makeDataDir();
    const strict = await startTestService(strictData.dir, { documentLimits: { maxPages: 1 } });
    try {
      const job = await jobOf(await manyPagesPdf(2), 'two.pdf', strict);
      expect(job).toMatchObject({
        status: 'Failed',
        error: {
          code: '422-012',
          detail: 'The document has 2 pages: at most 1 are read (DOCUMENT_MAX_PAGES).',
        },
      });
      expect((await jobOf(await manyPagesPdf(1), 'one.pdf', strict)).status).toBe('Processed');
      // A TIFF's pages count alike.
      const white = { data: new Uint8Array(64 * 64).fill(255), width: 64, height: 64 };
      expect(await jobOf(await multiPageTiff([white, white]), 'two.tiff', strict)).toMatchObject({
        status: 'Failed',
        error: {
          code: '422-012',
          detail: 'The document has 2 pages: at most 1 are read (DOCUMENT_MAX_PAGES).',
        },
      });
    } finally {
      await strict.close();
      await strictData.remove();
    }
  }, 120_000);
});
