/**
 * PDFs page by page: text layer where there is one, OCR of the rendered page where there is none, on
 * the corpus's scanned and broken PDFs and on generated scanned and mixed PDFs whose words are at known
 * places. Real pdf.js (text layer and rendering) and tesseract.js; no mocks.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixturesDir } from '@extraction-review/test-kit/fixtures-dir';
import {
  drawTextPicture,
  passwordProtectedPdf,
  pdfWithPages,
} from '@extraction-review/test-kit/reference/documents-images';
import type { TextLineSpec } from '@extraction-review/test-kit/reference/generate-pdf';
import type { DocumentText } from './extractor';
import type { Box } from './geometry';
import { sharedOcr } from './ocr/tesseract-ocr';
import { PdfExtractor } from './pdf-extractor';

const extractor = new PdfExtractor();
const pdf = (p: string) => ({ path: p, mimeType: 'application/pdf' });
const corpus = (p: string) => pdf(path.join(fixturesDir, p));

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'reference-pdfs-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await sharedOcr().close();
});

async function saved(name: string, bytes: Uint8Array): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, bytes);
  return file;
}

const pageText = (document: DocumentText, page: number): string =>
  document.pages[page]?.words.map((w) => w.text).join(' ') ?? '';

describe('scanned PDFs of the corpus', () => {
  // ~20 s on two quiet cores (ten pages of OCR); room for a loaded CI machine.
  it(
    'invoice_10p.pdf (10 scanned pages, no text layer): real OCR words on every page',
    { timeout: 180_000 },
    async () => {
      const document = await extractor.extract(corpus('v1/products/invoices/invoice_10p.pdf'));
      expect(document.pageCount).toBe(10);
      expect(document.pages.map((p) => [p.index, p.source])).toEqual(
        Array.from({ length: 10 }, (_, i) => [i, 'ocr']),
      );
      for (const page of document.pages) {
        // The pages alternate between a photographed French invoice and a scanned English one.
        const text = pageText(document, page.index);
        if (page.index % 2 === 0) {
          expect(text).toMatch(/FACTURE|Facture/);
          expect(text).toContain('587,95');
          expect(page.words.length).toBeGreaterThan(200);
        } else {
          expect(text).toContain('Turnpike Designs');
          expect(text).toContain('Invoice Number: 14');
          expect(text).toContain('$2,608.20');
          expect(page.words.length).toBeGreaterThan(80);
        }
        expect([page.width, page.height].map(Math.round)).toEqual(
          page.index % 2 === 0 ? [594, 839] : [594, 766],
        );
        for (const word of page.words) {
          expect(word.confidence).toBeGreaterThan(0);
          expect(word.confidence).toBeLessThanOrEqual(1);
          expect(word.box.x0).toBeLessThan(word.box.x1);
          expect(word.box.y0).toBeLessThan(word.box.y1);
        }
      }
    },
  );

  it('broken_invoice.pdf (junk before the header, scanned): repaired and OCR’d', async () => {
    const document = await extractor.extract(corpus('file_types/pdf/broken_invoice.pdf'));
    expect(document.pageCount).toBe(2);
    expect(pageText(document, 1)).toContain('Turnpike Designs');
  });

  it('broken_fixable.pdf and not_blank_image_only.pdf (a picture of a cat): one page, no words', async () => {
    for (const file of ['broken_fixable.pdf', 'not_blank_image_only.pdf']) {
      const document = await extractor.extract(corpus(`file_types/pdf/${file}`));
      expect(document.pageCount).toBe(1);
      expect(document.pages[0]).toMatchObject({ source: 'ocr', words: [] });
    }
  });

  it('blank.pdf: ten pages without words, which is not an error at this layer', async () => {
    const document = await extractor.extract(corpus('file_types/pdf/blank.pdf'));
    expect(document.pageCount).toBe(10);
    expect(document.pages.every((p) => p.words.length === 0)).toBe(true);
  });

  it('XfaForm_15p_encrypted.pdf (encrypted, no user password): its text layer is read', async () => {
    const document = await extractor.extract(corpus('file_types/pdf/XfaForm_15p_encrypted.pdf'));
    expect(document.pageCount).toBe(15);
    expect(document.pages.every((p) => p.source === 'text-layer' && p.words.length > 0)).toBe(true);
  });
});

describe('generated PDFs: scanned pages and mixed documents', () => {
  // One word per drawing, in a large font: see image-extractor.test.ts.
  const scanWords: TextLineSpec[] = [
    { text: 'Invoice', x: 40, y: 330, size: 22 },
    { text: 'SCAN-7781', x: 200, y: 330, size: 22 },
    { text: 'Total:', x: 200, y: 80, size: 22 },
    { text: '99.50', x: 330, y: 80, size: 22 },
  ];
  const scanPage = { width: 500, height: 400, lines: scanWords };

  function expectWordsWhereDrawn(document: DocumentText, page: number, boxOf: (line: TextLineSpec) => Box) {
    for (const line of scanWords) {
      const word = document.pages[page]?.words.find((w) => w.text === line.text);
      if (!word) throw new Error(`no "${line.text}" on page ${page}: ${pageText(document, page)}`);
      const expected = boxOf(line);
      for (const key of ['x0', 'y0', 'x1', 'y1'] as const) {
        expect(Math.abs(word.box[key] - expected[key]), `${line.text}.${key}`).toBeLessThan(0.01);
      }
    }
  }

  it('a page that is only a picture of text: rendered and OCR’d, words where they were drawn', async () => {
    // Scanned at 150 dpi, placed on a page of the same size: the PDF page shows the picture exactly.
    const scan = await drawTextPicture(scanPage, 150);
    const file = await saved(
      'scan.pdf',
      await pdfWithPages([{ picture: scan.image, width: 500, height: 400 }]),
    );
    const document = await extractor.extract(pdf(file));
    expect(document.pages).toHaveLength(1);
    expect(document.pages[0]).toMatchObject({ index: 0, width: 500, height: 400, source: 'ocr' });
    expect(pageText(document, 0)).toBe('Invoice SCAN-7781 Total: 99.50');
    expectWordsWhereDrawn(document, 0, (line) => ({
      ...scan.boxOf(0, line.text, line.text),
      y1: (400 - line.y) / 400,
    }));
  });

  it('a mixed PDF: the text page from its text layer, the scanned page by OCR', async () => {
    const scan = await drawTextPicture(scanPage, 150);
    const textPage = { lines: [{ text: 'Invoice number: T-42', x: 72, y: 700 }] };
    const file = await saved(
      'mixed.pdf',
      await pdfWithPages([
        { text: textPage },
        { picture: scan.image, width: 500, height: 400 },
        { text: textPage },
      ]),
    );
    const document = await extractor.extract(pdf(file));
    expect(document.pageCount).toBe(3);
    expect(document.pages.map((p) => p.source)).toEqual(['text-layer', 'ocr', 'text-layer']);
    expect(pageText(document, 0)).toBe('Invoice number: T-42');
    expect(document.pages[0]?.words.every((w) => w.confidence === 1)).toBe(true);
    expect(pageText(document, 1)).toBe('Invoice SCAN-7781 Total: 99.50');
    expect(document.pages[1]?.words.every((w) => w.confidence < 1)).toBe(true);
    expect(pageText(document, 2)).toBe('Invoice number: T-42');
  });
});

describe('PDFs that cannot be read', () => {
  it('a password-protected PDF: 422-003', async () => {
    const file = await saved('secret.pdf', passwordProtectedPdf());
    await expect(extractor.extract(pdf(file))).rejects.toMatchObject({
      code: '422-003',
      message: 'The PDF is encrypted (password-protected): send it without its password.',
    });
  });

  it('broken_unfixable.pdf: 422-003, as at inspection', async () => {
    await expect(extractor.extract(corpus('file_types/pdf/broken_unfixable.pdf'))).rejects.toMatchObject({
      code: '422-003',
      message: expect.stringMatching(/^The PDF is damaged and cannot be repaired/),
    });
  });
});
