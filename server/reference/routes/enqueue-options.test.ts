/**
 * Every enqueue parameter, in multipart and in JSON, over real HTTP: defaults against explicit options
 * in `active_options`, booleans, text_context, data_schema replacement (used for the extraction) and
 * its validation with pointers, webhook_ids in each accepted form, file_base64.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActiveOptions } from '@extraction-review/document-text/api-types';
import type { ReferenceService } from '../create-reference-service';
import {
  expectExtractionResponse,
  expectJobResponse,
  expectProblem,
} from '@extraction-review/test-kit/reference/contract';
import { generatePdf } from '@extraction-review/test-kit/reference/generate-pdf';
import {
  enqueue,
  enqueueJson,
  get,
  INVOICE_MODEL_ID,
  makeDataDir,
  startTestService,
  waitForJob,
} from '@extraction-review/test-kit/reference/reference-harness';
import {
  QUIET_MODEL_ID,
  TEST_MODELS_ENV,
  WEBHOOK_A,
  WEBHOOK_B,
  writeTestModels,
} from '@extraction-review/test-kit/reference/test-models';

let service: ReferenceService;
let data: Awaited<ReturnType<typeof makeDataDir>>;
let pdf: Uint8Array;
let pdfBase64: string;

beforeAll(async () => {
  data = await makeDataDir();
  service = await startTestService(data.dir, {
    modelsFile: await writeTestModels(data.dir),
    env: TEST_MODELS_ENV,
    maxFileBytes: 16 * 1024,
  });
  pdf = (
    await generatePdf([
      {
        lines: [
          { text: 'Invoice number: OPT-3', x: 72, y: 700 },
          { text: 'Reference code: ZX-81', x: 72, y: 680 },
          { text: 'Total: 12.00', x: 72, y: 660 },
        ],
      },
    ])
  ).bytes;
  pdfBase64 = Buffer.from(pdf).toString('base64');
});
afterAll(async () => {
  await service.close();
  await data.remove();
});

const file = () => ({ bytes: pdf, name: 'invoice.pdf' });

async function problemOf(response: Response) {
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  return expectProblem(await response.json());
}

/** Enqueues, waits, and fetches the result. */
async function resultOf(response: Response) {
  expect(response.status).toBe(202);
  const { job } = expectJobResponse(await response.json());
  const done = await waitForJob(service, job.id);
  expect(done.status, JSON.stringify(done.error)).toBe('Processed');
  return expectExtractionResponse(await (await get(done.result_url ?? '')).json()).inference;
}

const options = (over: Partial<ActiveOptions> = {}): ActiveOptions => ({
  raw_text: false,
  polygon: false,
  confidence: false,
  rag: false,
  multipage_context: false,
  text_context: false,
  data_schema: { replace: false },
  ...over,
});

describe('options: the model defaults, or what the request sets', () => {
  it('reports the model defaults when no option is sent', async () => {
    const inference = await resultOf(await enqueue(service, { modelId: QUIET_MODEL_ID, file: file() }));
    expect(inference.active_options).toEqual(options());
    expect(inference.result.raw_text).toBeNull();
    expect(inference.result.fields['invoice_number']).toEqual({
      value: 'OPT-3',
      locations: [],
      confidence: null,
    });

    const seeded = await resultOf(await enqueue(service, { modelId: INVOICE_MODEL_ID, file: file() }));
    expect(seeded.active_options).toEqual(options({ raw_text: true, polygon: true, confidence: true }));
  });

  it('takes multipart booleans as "true"/"false" strings, in any case', async () => {
    const on = await resultOf(
      await enqueue(service, {
        modelId: QUIET_MODEL_ID,
        file: file(),
        fields: { raw_text: 'true', polygon: 'TRUE', confidence: 'True', rag: 'true' },
      }),
    );
    expect(on.active_options).toEqual(
      options({ raw_text: true, polygon: true, confidence: true, rag: true }),
    );
    expect(on.result.raw_text?.pages[0]?.content).toContain('Invoice number: OPT-3');
    expect(on.result.fields['invoice_number']).toMatchObject({ confidence: expect.any(String) });

    const off = await resultOf(
      await enqueue(service, {
        modelId: INVOICE_MODEL_ID,
        file: file(),
        fields: { raw_text: 'false', polygon: 'false', confidence: 'false' },
      }),
    );
    expect(off.active_options).toEqual(options());
  });

  it('takes JSON booleans (file_base64), and reports a text_context as active', async () => {
    const inference = await resultOf(
      await enqueueJson(service, {
        model_id: QUIET_MODEL_ID,
        file_base64: pdfBase64,
        filename: 'b64.pdf',
        raw_text: true,
        polygon: false,
        confidence: true,
        text_context: 'Invoices from ACME carry their number top left.',
        alias: null,
      }),
    );
    expect(inference.active_options).toEqual(
      options({ raw_text: true, confidence: true, text_context: true }),
    );
    expect(inference.file).toMatchObject({ name: 'b64.pdf', alias: null, mime_type: 'application/pdf' });

    const multipart = await resultOf(
      await enqueue(service, {
        modelId: QUIET_MODEL_ID,
        file: file(),
        fields: { text_context: 'Some context.' },
      }),
    );
    expect(multipart.active_options.text_context).toBe(true);
  });

  it('refuses anything else as a boolean, each with its pointer', async () => {
    const form = await enqueue(service, {
      modelId: QUIET_MODEL_ID,
      file: file(),
      fields: { raw_text: 'yes', polygon: '1', confidence: 'false', rag: ' ' },
    });
    expect(form.status).toBe(422);
    expect((await problemOf(form)).errors).toEqual([
      { pointer: '#/raw_text', detail: 'raw_text must be "true" or "false", got "yes"' },
      { pointer: '#/polygon', detail: 'polygon must be "true" or "false", got "1"' },
      { pointer: '#/rag', detail: 'rag must be "true" or "false", got " "' },
    ]);

    const json = await enqueueJson(service, {
      model_id: QUIET_MODEL_ID,
      file_base64: pdfBase64,
      raw_text: 1,
      confidence: 'maybe',
    });
    expect(json.status).toBe(422);
    expect((await problemOf(json)).errors).toEqual([
      { pointer: '#/raw_text', detail: 'raw_text must be true or false, got 1' },
      { pointer: '#/confidence', detail: 'confidence must be true or false, got "maybe"' },
    ]);
  });

  it('ignores parameters it does not know, as the hosted form handling does', async () => {
    const form = await enqueue(service, {
      modelId: QUIET_MODEL_ID,
      file: file(),
      fields: { page_options: 'x', closeFile: 'true' },
    });
    expect(form.status).toBe(202);
    const json = await enqueueJson(service, { model_id: QUIET_MODEL_ID, file_base64: pdfBase64, extra: [1] });
    expect(json.status).toBe(202);
  });
});

describe('data_schema', () => {
  const replacement = {
    replace: {
      fields: [
        {
          name: 'reference_code',
          title: 'Reference Code',
          is_array: false,
          type: 'string',
          description: 'The reference code of the document.',
          guidelines: 'Labelled "Reference code".',
        },
      ],
    },
  };

  it('replaces the model schema for the inference: the new field, and only it, comes back', async () => {
    const form = await resultOf(
      await enqueue(service, {
        modelId: QUIET_MODEL_ID,
        file: file(),
        fields: { data_schema: JSON.stringify(replacement) },
      }),
    );
    expect(form.active_options.data_schema).toEqual({ replace: true });
    expect(Object.keys(form.result.fields)).toEqual(['reference_code']);
    expect(form.result.fields['reference_code']).toMatchObject({ value: 'ZX-81' });

    // JSON: as a string like multipart, or as the object itself.
    for (const dataSchema of [JSON.stringify(replacement), replacement]) {
      const json = await resultOf(
        await enqueueJson(service, {
          model_id: QUIET_MODEL_ID,
          file_base64: pdfBase64,
          data_schema: dataSchema,
        }),
      );
      expect(Object.keys(json.result.fields)).toEqual(['reference_code']);
    }

    // `replace: null` keeps the model's schema.
    const kept = await resultOf(
      await enqueue(service, {
        modelId: QUIET_MODEL_ID,
        file: file(),
        fields: { data_schema: '{"replace": null}' },
      }),
    );
    expect(kept.active_options.data_schema).toEqual({ replace: false });
    expect(kept.result.fields['invoice_number']).toMatchObject({ value: 'OPT-3' });
  });

  it('lists every problem of an invalid schema, each with its pointer', async () => {
    const invalid = {
      replace: {
        fields: [
          { name: 'Bad Name', title: ' ', is_array: 'no', type: 'string', description: 'x', extra: 1 },
          { name: 'kind', title: 'Kind', is_array: false, type: 'classification', description: 'y' },
          { name: 'kind', title: 'Kind', is_array: false, type: 'text', description: 'z' },
        ],
      },
    };
    const response = await enqueue(service, {
      modelId: QUIET_MODEL_ID,
      file: file(),
      fields: { data_schema: JSON.stringify(invalid) },
    });
    expect(response.status).toBe(422);
    const problem = await problemOf(response);
    expect(problem.code).toBe('422-001');
    expect(problem.errors.map((e) => e.pointer).sort()).toEqual(
      [
        '#/data_schema/replace/fields/0/extra',
        '#/data_schema/replace/fields/0/title',
        '#/data_schema/replace/fields/0/name',
        '#/data_schema/replace/fields/0/is_array',
        '#/data_schema/replace/fields/1/classification_values',
        '#/data_schema/replace/fields/2/type',
        '#/data_schema/replace/fields/2/name',
      ].sort(),
    );
    expect(problem.errors).toContainEqual({
      pointer: '#/data_schema/replace/fields/1/classification_values',
      detail:
        'data_schema.replace.fields[1].classification_values: A classification field needs at least one value',
    });

    const notJson = await enqueueJson(service, {
      model_id: QUIET_MODEL_ID,
      file_base64: pdfBase64,
      data_schema: '{replace:',
    });
    expect(notJson.status).toBe(422);
    expect((await problemOf(notJson)).errors).toEqual([
      { pointer: '#/data_schema', detail: expect.stringMatching(/^data_schema is not valid JSON: /) },
    ]);

    const wrongShape = await enqueueJson(service, {
      model_id: QUIET_MODEL_ID,
      file_base64: pdfBase64,
      data_schema: { fields: [] },
    });
    expect((await problemOf(wrongShape)).errors.map((e) => e.pointer)).toEqual([
      '#/data_schema/replace',
      '#/data_schema/fields',
    ]);
  });
});

describe('webhook_ids', () => {
  it('takes a list (repeated parts or a JSON array) or a comma-separated string', async () => {
    const forms: Record<string, string | string[]>[] = [
      { webhook_ids: [WEBHOOK_A, WEBHOOK_B] },
      { webhook_ids: `${WEBHOOK_A},${WEBHOOK_B.toUpperCase()}` },
      { webhook_ids: `${WEBHOOK_A}, ${WEBHOOK_B}` },
      { webhook_ids: '' },
    ];
    for (const fields of forms) {
      const response = await enqueue(service, { modelId: QUIET_MODEL_ID, file: file(), fields });
      expect(response.status, JSON.stringify(fields)).toBe(202);
      expect(expectJobResponse(await response.json()).job.webhooks).toEqual([]);
    }
    for (const webhookIds of [[WEBHOOK_A, WEBHOOK_B], `${WEBHOOK_A},${WEBHOOK_B}`, []]) {
      const response = await enqueueJson(service, {
        model_id: QUIET_MODEL_ID,
        file_base64: pdfBase64,
        webhook_ids: webhookIds,
      });
      expect(response.status, JSON.stringify(webhookIds)).toBe(202);
    }
  });

  it('refuses an id that is not one of the model webhooks, or not an id, with a pointer per bad id', async () => {
    const unknown = '0f8fad5b-d9cb-469f-a165-70867728950e';
    const form = await enqueue(service, {
      modelId: QUIET_MODEL_ID,
      file: file(),
      fields: { webhook_ids: [WEBHOOK_A, `${unknown},not-an-id`] },
    });
    expect(form.status).toBe(422);
    expect((await problemOf(form)).errors).toEqual([
      {
        pointer: '#/webhook_ids/2',
        detail: 'webhook_ids[2]: Expected a UUID such as 12345678-1234-1234-1234-123456789abc',
      },
    ]);

    const json = await enqueueJson(service, {
      model_id: INVOICE_MODEL_ID,
      file_base64: pdfBase64,
      webhook_ids: [unknown, WEBHOOK_A],
    });
    expect(json.status).toBe(422);
    expect((await problemOf(json)).errors).toEqual([
      {
        pointer: '#/webhook_ids/0',
        detail: `the model ${INVOICE_MODEL_ID} has no webhook with the id ${unknown}`,
      },
      {
        pointer: '#/webhook_ids/1',
        detail: `the model ${INVOICE_MODEL_ID} has no webhook with the id ${WEBHOOK_A}`,
      },
    ]);
  });
});

describe('file_base64', () => {
  it('refuses one too short or not base64, and one over the size limit', async () => {
    const short = await enqueueJson(service, { model_id: QUIET_MODEL_ID, file_base64: 'JVBERi0x' });
    expect(short.status).toBe(422);
    expect((await problemOf(short)).errors).toEqual([
      { pointer: '#/file_base64', detail: 'file_base64: Base64 content is at least 15 characters' },
    ]);

    const invalid = await enqueue(service, {
      modelId: QUIET_MODEL_ID,
      fields: { file_base64: 'this is *not* base64 at all!' },
    });
    expect(invalid.status).toBe(422);
    expect((await problemOf(invalid)).errors).toEqual([
      { pointer: '#/file_base64', detail: 'file_base64 is not valid base64' },
    ]);

    const big = Buffer.alloc(20 * 1024, 0x25).toString('base64');
    const tooLarge = await enqueueJson(service, { model_id: QUIET_MODEL_ID, file_base64: big });
    expect(tooLarge.status).toBe(413);
    expect((await problemOf(tooLarge)).errors).toEqual([
      { pointer: '#/file_base64', detail: 'file_base64 must be at most 16384 bytes' },
    ]);
  });

  it('decodes a valid one to the document, in multipart too', async () => {
    const inference = await resultOf(
      await enqueue(service, { modelId: QUIET_MODEL_ID, fields: { file_base64: pdfBase64 } }),
    );
    expect(inference.file).toMatchObject({ name: 'document', mime_type: 'application/pdf', page_count: 1 });
    expect(inference.result.fields['invoice_number']).toMatchObject({ value: 'OPT-3' });

    const text = await enqueueJson(service, {
      model_id: QUIET_MODEL_ID,
      file_base64: Buffer.from('plain text, not a document').toString('base64'),
    });
    expect(text.status).toBe(422);
    expect((await problemOf(text)).errors[0]?.pointer).toBe('#/file_base64');
  });

  it('takes exactly one source', async () => {
    const none = await enqueueJson(service, { model_id: QUIET_MODEL_ID });
    expect((await problemOf(none)).errors).toEqual([
      { pointer: '#/url', detail: 'url or file_base64 is required' },
    ]);
    const both = await enqueueJson(service, {
      model_id: QUIET_MODEL_ID,
      file_base64: pdfBase64,
      url: 'https://documents.invalid/a.pdf',
      file: 'x',
    });
    expect((await problemOf(both)).errors).toEqual([
      {
        pointer: '#/file',
        detail: 'file cannot be sent in a JSON body: send file_base64 or url, or use multipart/form-data',
      },
      { pointer: '#/url', detail: 'give only one of file, url and file_base64 (file is already given)' },
      {
        pointer: '#/file_base64',
        detail: 'give only one of file, url and file_base64 (file is already given)',
      },
    ]);
  });
});
