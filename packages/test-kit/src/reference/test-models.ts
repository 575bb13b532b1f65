/**
 * A models file for the API tests: the seeded models, plus the seeded invoice fields under models whose defaults differ from
 * the seeded model's (so a test can tell a default from an explicit option), with webhooks, and one
 * that deletes extracted data once fetched.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DEFAULT_MODELS_FILE } from '@extraction-review/reference/create-reference-service';
import { INVOICE_MODEL_ID } from './reference-harness';

/** Defaults all off: `raw_text`, `polygon`, `confidence`, `rag` false. */
export const QUIET_MODEL_ID = '5d3b0c0e-6f0f-4b59-9a57-1e3f2a5c7d01';
/** Deletes the inference once fetched. */
export const FORGETFUL_MODEL_ID = '5d3b0c0e-6f0f-4b59-9a57-1e3f2a5c7d02';
export const WEBHOOK_A = 'a2286ed9-aa11-4a11-bdc5-2f8496c5641a';
export const WEBHOOK_B = 'aa0d88be-aa11-4a11-a019-9d2e16e2d3b9';
/** The environment variable that holds WEBHOOK_B's secret in the test models file. */
export const WEBHOOK_B_SECRET_ENV = 'TEST_WEBHOOK_B_SECRET';

export async function writeTestModels(dir: string): Promise<string> {
  const seeded = JSON.parse(await readFile(DEFAULT_MODELS_FILE, 'utf8')) as {
    models: { id: string; data_schema: unknown }[];
    [key: string]: unknown;
  };
  const dataSchema = seeded.models.find((m) => m.id === INVOICE_MODEL_ID)?.data_schema;
  const file = path.join(dir, 'test-models.json');
  await writeFile(
    file,
    JSON.stringify({
      ...seeded,
      models: [
        ...seeded.models,
        {
          id: QUIET_MODEL_ID,
          name: 'Quiet invoice',
          model_type: 'extraction',
          webhooks: [
            { id: WEBHOOK_A, name: 'A', url: 'https://hooks.invalid/a', secret: 'secret-a' },
            { id: WEBHOOK_B, name: 'B', url: 'https://hooks.invalid/b', secret_env: WEBHOOK_B_SECRET_ENV },
          ],
          default_options: { raw_text: false, polygon: false, confidence: false, rag: false },
          data_schema: dataSchema,
        },
        {
          id: FORGETFUL_MODEL_ID,
          name: 'Forgetful invoice',
          model_type: 'extraction',
          delete_after_fetch: true,
          data_schema: dataSchema,
        },
      ],
    }),
  );
  return file;
}

/** The environment the test models file needs (WEBHOOK_B's secret). */
export const TEST_MODELS_ENV = { [WEBHOOK_B_SECRET_ENV]: 'secret-b' };
