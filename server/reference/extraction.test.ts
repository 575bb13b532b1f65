/**
 * Real PDFs, drawn with pdf-lib, through the real service over HTTP: values, pages and polygons checked
 * against where pdf-lib put each word (its own font metrics, not pdf.js's).
 *
 * pdf-lib measures text with kerning while the text it draws is not kerned, so its widths run short by
 * up to a point or so; the 0.01 tolerance (6 pt on a Letter page) covers that and the font's ascent.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixturesDir } from '@extraction-review/test-kit/fixtures-dir';
import type { JobJson } from '@extraction-review/document-text/api-types';
import type { ReferenceService } from './create-reference-service';
import { expectExtractionResponse, expectJobResponse } from '@extraction-review/test-kit/reference/contract';
import {
  generatePdf,
  type ExpectedBox,
  type GeneratedPdf,
  type PageSpec,
} from '@extraction-review/test-kit/reference/generate-pdf';
import {
  enqueue,
  get,
  INVOICE_MODEL_ID,
  makeDataDir,
  startTestService,
  waitForJob,
} from '@extraction-review/test-kit/reference/reference-harness';

const TOLERANCE = 0.01;

let service: ReferenceService;
let data: Awaited<ReturnType<typeof makeDataDir>>;
beforeAll(async () => {
  data = await makeDataDir();
  service = await startTestService(data.dir);
});
afterAll(async () => {
  await service.close();
  await data.remove();
});

async function processDocument(bytes: Uint8Array, name = 'document.pdf'): Promise<JobJson> {
  const response = await enqueue(service, { modelId: INVOICE_MODEL_ID, file: { bytes, name } });
  expect(response.status).toBe(202);
  const { job } = expectJobResponse(await response.json());
  return waitForJob(service, job.id);
}

async function extract(pdf: GeneratedPdf) {
  const job = await processDocument(pdf.bytes);
  expect(job.status).toBe('Processed');
  const response = await get(job.result_url ?? '');
  expect(response.status).toBe(200);
  return expectExtractionResponse(await response.json()).inference;
}

type Fields = Awaited<ReturnType<typeof extract>>['result']['fields'];

function simpleField(fields: Fields, name: string) {
  const field = fields[name];
  if (!field || !('value' in field)) throw new Error(`${name} is not a simple field`);
  return field;
}

/** The field's one location is on `page`, a clockwise rectangle over the expected box. */
function expectLocatedAt(fields: Fields, name: string, page: number, expected: ExpectedBox) {
  const { locations } = simpleField(fields, name);
  expect(locations).toHaveLength(1);
  const [location] = locations;
  expect(location?.page).toBe(page);
  const [[x0, y0] = [], [x1, y1] = [], [x2, y2] = [], [x3, y3] = []] = location?.polygon ?? [];
  // Clockwise on screen from the top-left corner: TL, TR, BR, BL.
  expect([x1, y1]).toEqual([x2, y1]);
  expect([x0, y0, x3, y2]).toEqual([x3, y1, x0, y3]);
  const actual = { x0, y0, x1: x2, y1: y2 };
  for (const key of ['x0', 'y0', 'x1', 'y1'] as const) {
    expect(
      Math.abs((actual[key] ?? NaN) - expected[key]),
      `${name}.${key}: ${actual[key]} vs ${expected[key]}`,
    ).toBeLessThan(TOLERANCE);
  }
}

const invoicePage: PageSpec = {
  lines: [
    { text: 'Supplier: ACME Supplies Ltd', x: 72, y: 740 },
    { text: 'Invoice number: INV-2024-0042', x: 72, y: 700 },
    { text: 'Date: 2024-03-14', x: 72, y: 680 },
    { text: 'Description                 Qty      Price', x: 72, y: 600, size: 10 },
    { text: 'Total: 1,234.56', x: 400, y: 200 },
  ],
};

describe('extraction of a PDF with a text layer', () => {
  it('finds every field of a one-page invoice, with its page and polygon', async () => {
    const pdf = await generatePdf([invoicePage]);
    const inference = await extract(pdf);
    const { fields } = inference.result;

    expect(simpleField(fields, 'invoice_number')).toMatchObject({
      value: 'INV-2024-0042',
      confidence: 'Certain',
    });
    expect(simpleField(fields, 'date')).toMatchObject({ value: '2024-03-14', confidence: 'Certain' });
    expect(simpleField(fields, 'total_amount')).toMatchObject({ value: 1234.56, confidence: 'Certain' });
    expect(simpleField(fields, 'supplier_name')).toMatchObject({
      value: 'ACME Supplies Ltd',
      confidence: 'Certain',
    });

    expectLocatedAt(
      fields,
      'invoice_number',
      0,
      pdf.boxOf(0, 'Invoice number: INV-2024-0042', 'INV-2024-0042'),
    );
    expectLocatedAt(fields, 'date', 0, pdf.boxOf(0, 'Date: 2024-03-14', '2024-03-14'));
    expectLocatedAt(fields, 'total_amount', 0, pdf.boxOf(0, 'Total: 1,234.56', '1,234.56'));
    const supplier = pdf.boxOf(0, 'Supplier: ACME Supplies Ltd', 'ACME Supplies Ltd');
    expectLocatedAt(fields, 'supplier_name', 0, supplier);

    expect(inference.result.raw_text).toEqual({
      pages: [
        {
          content: [
            'Supplier: ACME Supplies Ltd',
            'Invoice number: INV-2024-0042',
            'Date: 2024-03-14',
            'Description Qty Price',
            'Total: 1,234.56',
          ].join('\n'),
        },
      ],
    });
    expect(inference.file).toEqual({
      name: 'document.pdf',
      alias: null,
      page_count: 1,
      mime_type: 'application/pdf',
    });
    expect(inference.model).toEqual({ id: INVOICE_MODEL_ID });
    expect(inference.active_options).toEqual({
      raw_text: true,
      polygon: true,
      confidence: true,
      rag: false,
      multipage_context: false,
      text_context: false,
      data_schema: { replace: false },
    });
    expect(inference.result.rag).toBeNull();
  });

  it('finds a value on the second page, with page index 1', async () => {
    const pdf = await generatePdf([
      {
        lines: [
          { text: 'Invoice No.: 2024/77', x: 72, y: 700 },
          { text: 'Date: March 14, 2025', x: 72, y: 680 },
        ],
      },
      { lines: [{ text: 'Amount due: $ 1 234,50', x: 300, y: 120, size: 14 }] },
    ]);
    const inference = await extract(pdf);
    const { fields } = inference.result;
    expect(inference.file.page_count).toBe(2);
    expect(simpleField(fields, 'invoice_number')).toMatchObject({ value: '2024/77', confidence: 'Certain' });
    expect(simpleField(fields, 'date')).toMatchObject({ value: '2025-03-14', confidence: 'Certain' });
    expect(simpleField(fields, 'total_amount')).toMatchObject({ value: 1234.5, confidence: 'Certain' });
    expectLocatedAt(fields, 'date', 0, pdf.boxOf(0, 'Date: March 14, 2025', 'March 14, 2025'));
    expectLocatedAt(fields, 'total_amount', 1, pdf.boxOf(1, 'Amount due: $ 1 234,50', '$ 1 234,50'));
    expect(inference.result.raw_text?.pages.map((p) => p.content)).toEqual([
      'Invoice No.: 2024/77\nDate: March 14, 2025',
      'Amount due: $ 1 234,50',
    ]);
  });

  it('honours /Rotate: polygons are on the page as shown upright', async () => {
    const pdf = await generatePdf([
      {
        rotate: 90,
        lines: [
          { text: 'Invoice number: R-90', x: 100, y: 72, turned: true },
          { text: 'Total: 99.00', x: 300, y: 500, turned: true },
        ],
      },
    ]);
    const { fields, raw_text } = (await extract(pdf)).result;
    expect(simpleField(fields, 'invoice_number')).toMatchObject({ value: 'R-90', confidence: 'Certain' });
    expect(simpleField(fields, 'total_amount')).toMatchObject({ value: 99, confidence: 'Certain' });
    expectLocatedAt(fields, 'invoice_number', 0, pdf.boxOf(0, 'Invoice number: R-90', 'R-90'));
    expectLocatedAt(fields, 'total_amount', 0, pdf.boxOf(0, 'Total: 99.00', '99.00'));
    expect(raw_text?.pages[0]?.content).toBe('Invoice number: R-90\nTotal: 99.00');
  });

  it('honours the CropBox: coordinates are relative to the visible page', async () => {
    const pdf = await generatePdf([
      {
        cropBox: [50, 100, 400, 500],
        lines: [
          { text: 'Invoice number: C-1', x: 100, y: 500 },
          { text: 'Outside the crop box', x: 460, y: 700 },
        ],
      },
    ]);
    const { fields, raw_text } = (await extract(pdf)).result;
    expect(simpleField(fields, 'invoice_number')).toMatchObject({ value: 'C-1' });
    expectLocatedAt(fields, 'invoice_number', 0, pdf.boxOf(0, 'Invoice number: C-1', 'C-1'));
    expect(raw_text?.pages[0]?.content).toBe('Invoice number: C-1');
  });
});

describe('documents without a text layer, and unreadable ones', () => {
  it('reads a PDF page without a text layer by OCR: a blank scan gives pages without text, not an error', async () => {
    const pdf = await generatePdf([{ drawBox: true }, { drawBox: true }]);
    const job = await processDocument(pdf.bytes, 'scan.pdf');
    expect(job).toMatchObject({ status: 'Processed', error: null });
    const { inference } = expectExtractionResponse(await (await get(job.result_url ?? '')).json());
    expect(inference.file).toMatchObject({ page_count: 2, mime_type: 'application/pdf' });
    expect(inference.result.raw_text?.pages).toEqual([{ content: '' }, { content: '' }]);
  });

  it('reads an image by OCR', async () => {
    const png = new Uint8Array(await readFile(path.join(fixturesDir, 'file_types', 'receipt.png')));
    const job = await processDocument(png, 'receipt.png');
    expect(job.status).toBe('Processed');
    const { inference } = expectExtractionResponse(await (await get(job.result_url ?? '')).json());
    expect(inference.file).toMatchObject({ page_count: 1, mime_type: 'image/png' });
    expect(inference.result.raw_text?.pages[0]?.content).toMatch(/Total £10\.20/);
  });

  it('refuses a broken PDF at enqueue, without stopping the service', async () => {
    const response = await enqueue(service, {
      modelId: INVOICE_MODEL_ID,
      file: { bytes: new TextEncoder().encode('%PDF-1.7\nnot really a PDF\n'), name: 'broken.pdf' },
    });
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({
      code: '422-003',
      detail: 'The PDF is damaged and cannot be repaired (Invalid PDF structure).',
    });
    expect((await get(`${service.url}/health`)).status).toBe(200);
  });
});
