/**
 * The words of a kept file's page: a text PDF's text layer (boxes where pdf-lib drew the words), a
 * page turned by `/Rotate` (boxes in the page as displayed), a picture and a scanned PDF page read by
 * OCR, each read once and then served from the copy kept in the review store (table `page_words`); a
 * page the document does not have is a 404.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { degrees, PDFDocument, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDocumentExtraction } from '@extraction-review/document-text/extract-document-text';
import { OCR_RENDER_DPI, openPdf } from '@extraction-review/document-text/pdf-document';
import { openTestStore, type TestStore } from '@extraction-review/test-kit/review/test-stores';
import { DiskFileStorage } from '../files/file-storage';
import { keptFilesDb } from '../db/kept-files-schema';
import { PageWordsReader } from './page-words';

let dir: string;
let store: TestStore;
let files: DiskFileStorage;
let reader: PageWordsReader;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'page-words-'));
  store = await openTestStore('sqlite');
  files = new DiskFileStorage(path.join(dir, 'files'));
  reader = new PageWordsReader(store.database, files, { tempDir: path.join(dir, 'tmp') });
});

afterAll(async () => {
  await closeDocumentExtraction();
  await store.cleanup();
  await rm(dir, { recursive: true, force: true });
});

async function invoice(rotate = 0): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([612, 792]);
  page.drawText('Total:', { x: 72, y: 300, size: 24, font });
  page.drawText('1,234.56', { x: 220, y: 300, size: 24, font });
  if (rotate) page.setRotation(degrees(rotate));
  pdf.addPage([612, 792]);
  return pdf.save();
}

async function keep(id: string, bytes: Uint8Array) {
  await files.save(id, Readable.from([Buffer.from(bytes)]));
  return id;
}

const boxOf = (polygon: readonly (readonly [number, number])[]) => ({
  x0: Math.min(...polygon.map((p) => p[0])),
  y0: Math.min(...polygon.map((p) => p[1])),
  x1: Math.max(...polygon.map((p) => p[0])),
  y1: Math.max(...polygon.map((p) => p[1])),
});

describe('PageWordsReader', () => {
  it('reads a text PDF page from its text layer, then from the kept copy', async () => {
    const id = await keep('00000000-0000-4000-8000-000000000001', await invoice());
    const doc = { id, fileKey: id, mimeType: 'application/pdf' };
    const first = await reader.words(doc, 0);
    expect(first.source).toBe('text-layer');
    const total = first.words.find((w) => w.text === '1,234.56');
    expect(total).toBeDefined();
    const box = boxOf(total?.polygon ?? []);
    // pdf-lib drew it at x 220 (of 612), baseline 300 (of 792) from the bottom.
    expect(box.x0).toBeCloseTo(220 / 612, 2);
    expect(box.y1).toBeGreaterThan(1 - 300 / 792);
    expect(box.y0).toBeLessThan(1 - 300 / 792);
    const kept = await keptFilesDb(store.database)
      .selectFrom('page_words')
      .select('page')
      .where('document_id', '=', id)
      .execute();
    expect(kept.map((row) => row.page)).toContain(0);
    // The kept copy answers even when the file is gone.
    await files.remove(id);
    expect(await reader.words(doc, 0)).toEqual(first);
  });

  it('gives the boxes of a page turned by /Rotate in the page as displayed', async () => {
    const id = await keep('00000000-0000-4000-8000-000000000002', await invoice(90));
    const answer = await reader.words({ id, fileKey: id, mimeType: 'application/pdf' }, 0);
    expect(answer.width).toBeCloseTo(792);
    const box = boxOf(answer.words.find((w) => w.text === '1,234.56')?.polygon ?? []);
    // Turned a quarter clockwise: the text runs downwards from 220/612 of the height, its baseline
    // at x = 300/792 and its letters to the right of it.
    expect(box.y0).toBeCloseTo(220 / 612, 2);
    expect(box.x1).toBeGreaterThan(300 / 792);
    expect(box.y1 - box.y0).toBeGreaterThan(box.x1 - box.x0);
    expect(box.x0).toBeLessThan(300 / 792 + 0.01);
  });

  it('reads a picture by OCR', async () => {
    const pdf = await openPdf(await invoice());
    const image = await pdf.renderPage(0, OCR_RENDER_DPI);
    await pdf.close();
    const png = await sharp(Buffer.from(image.data), {
      raw: { width: image.width, height: image.height, channels: 1 },
    })
      .png()
      .toBuffer();
    const id = await keep('00000000-0000-4000-8000-000000000003', png);
    const answer = await reader.words({ id, fileKey: id, mimeType: 'image/png' }, 0);
    expect(answer.source).toBe('ocr');
    const box = boxOf(answer.words.find((w) => w.text.includes('234'))?.polygon ?? []);
    expect(box.x0).toBeCloseTo(220 / 612, 1);
    expect(box.y0).toBeCloseTo(1 - (300 + 18) / 792, 1);
  }, 30_000);

  it('reads a scanned PDF page (a picture, no text layer) by OCR of the page rendered', async () => {
    const pdf = await openPdf(await invoice());
    const image = await pdf.renderPage(0, OCR_RENDER_DPI);
    await pdf.close();
    const png = await sharp(Buffer.from(image.data), {
      raw: { width: image.width, height: image.height, channels: 1 },
    })
      .png()
      .toBuffer();
    const scanned = await PDFDocument.create();
    const picture = await scanned.embedPng(png);
    scanned.addPage([612, 792]).drawImage(picture, { x: 0, y: 0, width: 612, height: 792 });
    const id = await keep('00000000-0000-4000-8000-000000000005', await scanned.save());
    const answer = await reader.words({ id, fileKey: id, mimeType: 'application/pdf' }, 0);
    expect(answer.source).toBe('ocr');
    const box = boxOf(answer.words.find((w) => w.text.includes('234'))?.polygon ?? []);
    expect(box.x0).toBeCloseTo(220 / 612, 1);
    expect(box.y0).toBeCloseTo(1 - (300 + 18) / 792, 1);
  }, 30_000);

  it("adds the words printed in a text page's pictures (a logo) where its text layer has none", async () => {
    // The supplier's name exists only as pixels of an embedded PNG; the rest is the text layer.
    const logo = await sharp(
      Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" width="600" height="160"><rect width="600" height="160" fill="#fff"/>' +
          '<text x="30" y="105" font-family="DejaVu Sans" font-size="72" font-weight="bold">ACME LOGO</text></svg>',
      ),
    )
      .png()
      .toBuffer();
    const pdf = await PDFDocument.load(await invoice());
    pdf.getPage(0).drawImage(await pdf.embedPng(logo), { x: 72, y: 650, width: 240, height: 64 });
    const id = await keep('00000000-0000-4000-8000-000000000006', await pdf.save());
    const answer = await reader.words({ id, fileKey: id, mimeType: 'application/pdf' }, 0);
    expect(answer.source).toBe('text-layer');
    // The text layer's words, once each (OCR reads nothing over them: there are none in the picture).
    expect(answer.words.filter((w) => w.text === '1,234.56')).toEqual([
      expect.not.objectContaining({ inPicture: true }),
    ]);
    const acme = answer.words.find((w) => w.text === 'ACME');
    expect(acme).toMatchObject({ inPicture: true });
    const box = boxOf(acme?.polygon ?? []);
    // Where the picture was drawn: from x 72 (of 612), its top 792 - 714 from the page's top.
    expect(box.x0).toBeGreaterThan(72 / 612);
    expect(box.x1).toBeLessThan((72 + 240) / 612);
    expect(box.y0).toBeGreaterThan((792 - 714) / 792);
    expect(box.y1).toBeLessThan((792 - 650) / 792);
    // A page without pictures is its text layer alone.
    const second = await reader.words({ id, fileKey: id, mimeType: 'application/pdf' }, 1);
    expect(second.words).toEqual([]);
  }, 30_000);

  it('has no page beyond the last', async () => {
    const id = await keep('00000000-0000-4000-8000-000000000004', await invoice());
    await expect(reader.words({ id, fileKey: id, mimeType: 'application/pdf' }, 5)).rejects.toMatchObject({
      code: '404-010',
    });
  });
});
