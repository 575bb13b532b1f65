/**
 * Finished jobs and their inference, as the job service hands them to the webhook dispatcher.
 */
import { randomUUID } from 'node:crypto';
import type { ExtractionInference } from '@extraction-review/document-text/api-types';
import type { FinishedJob } from '@extraction-review/reference/webhooks/payload';

export const MODEL_ID = 'b4e6af9b-dfe5-44c8-9ae8-22225d8d2d5a';

export function processedJob(webhookIds: string[]): {
  job: FinishedJob & { webhookIds: string[] };
  inference: { body: ExtractionInference };
} {
  const jobId = randomUUID();
  const inferenceId = randomUUID();
  return {
    job: {
      id: jobId,
      modelId: MODEL_ID,
      filename: 'invoice.pdf',
      alias: 'ACME-42',
      createdAt: '2026-03-14T09:26:53.589Z',
      error: null,
      webhookIds,
    },
    inference: {
      body: {
        id: inferenceId,
        job: { id: jobId },
        model: { id: MODEL_ID },
        file: { name: 'invoice.pdf', alias: 'ACME-42', page_count: 1, mime_type: 'application/pdf' },
        result: {
          fields: {
            supplier_name: {
              value: 'ACME Corp — Zürich',
              locations: [
                {
                  polygon: [
                    [0.1, 0.1],
                    [0.4, 0.1],
                    [0.4, 0.12],
                    [0.1, 0.12],
                  ],
                  page: 0,
                },
              ],
              confidence: 'Certain',
            },
            total_amount: { value: 1234.5, locations: [], confidence: 'High' },
          },
          raw_text: { pages: [{ content: 'Supplier: ACME Corp — Zürich\nTotal: 1,234.50' }] },
          rag: null,
        },
        active_options: {
          raw_text: true,
          polygon: true,
          confidence: true,
          rag: false,
          multipage_context: false,
          text_context: false,
          data_schema: { replace: false },
        },
      },
    },
  };
}

export function failedJob(webhookIds: string[]): FinishedJob & { webhookIds: string[] } {
  return {
    id: randomUUID(),
    modelId: MODEL_ID,
    filename: 'scan.pdf',
    alias: null,
    createdAt: '2026-03-14T09:26:53.589Z',
    error: {
      status: 422,
      title: 'Unreadable document',
      detail: 'No page of this PDF has a text layer.',
      code: '422-003',
      errors: [],
    },
    webhookIds,
  };
}
