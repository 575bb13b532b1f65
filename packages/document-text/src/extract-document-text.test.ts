/**
 * Raw extraction in-process (what the bench times): the type detected from the content when not
 * given, and an abort that stops OCR at once, after which the next call reads again.
 */
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fixturesDir } from '@extraction-review/test-kit/fixtures-dir';
import { closeDocumentExtraction, extractDocumentText } from './extract-document-text';

const fixture = (p: string) => path.join(fixturesDir, p);

afterAll(async () => {
  await closeDocumentExtraction();
});

describe('extractDocumentText', () => {
  it('detects the type from the content when not given, and reads the document', async () => {
    const document = await extractDocumentText(fixture('file_types/pdf/multipage_cut-2.pdf'));
    expect(document.pageCount).toBe(2);
    expect(document.pages.map((p) => p.source)).toEqual(['text-layer', 'text-layer']);
    await expect(extractDocumentText(fixture('file_types/receipt.txt'))).rejects.toMatchObject({
      code: '422-002',
    });
  });

  it('stops OCR on abort, with the reason, and reads again afterwards', async () => {
    const controller = new AbortController();
    const reason = new Error('too slow');
    const running = extractDocumentText(
      fixture('v1/products/invoices/invoice_10p.pdf'),
      'application/pdf',
      controller.signal,
    );
    // Into the first page's recognition (~2 s on two cores).
    setTimeout(() => controller.abort(reason), 800);
    await expect(running).rejects.toBe(reason);

    const receipt = await extractDocumentText(fixture('file_types/receipt.jpg'), 'image/jpeg');
    expect(receipt.pages[0]?.words.map((w) => w.text)).toContain('Total');
  });
});
