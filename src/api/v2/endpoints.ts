/**
 * The extraction API (`/v2`), one plain async function per call. Each takes `{ signal }` (React Query
 * passes its own) and, for Node callers and tests, a `client` (http.ts `createApiClient`); the browser
 * uses the same-origin default.
 */
import { InvalidRequestError } from '../errors';
import { api, segment, type ApiClient } from '../http';
import { check } from '@extraction-review/contract/issues';
import {
  EnqueueExtractionInput,
  ExtractionResponse,
  JobResponse,
  ModelsSearchResponse,
  SearchModelsParams,
} from '@extraction-review/contract/v2/schemas';

export interface CallOptions {
  signal?: AbortSignal | undefined;
  client?: ApiClient | undefined;
}

export const ENQUEUE_PATH = '/v2/products/extraction/enqueue';

/**
 * The multipart form of an enqueue request. Options left unset are not sent, so the model's defaults
 * apply; booleans travel as `true`/`false`, `webhook_ids` comma-joined, `data_schema` as compact JSON
 * (API-FACTS v2 "Enqueue"). The file goes last, so a streaming server has the parameters first.
 */
export function toEnqueueForm(input: EnqueueExtractionInput): FormData {
  const form = new FormData();
  form.append('model_id', input.model_id);
  if (input.url !== undefined) form.append('url', input.url);
  if (input.file_base64 !== undefined) form.append('file_base64', input.file_base64);
  if (input.filename !== undefined) form.append('filename', input.filename);
  if (input.alias !== undefined && input.alias !== '') form.append('alias', input.alias);
  // An empty list is left out: an empty field is not a list of UUIDs, and "none" is what omission gives.
  if (input.webhook_ids !== undefined && input.webhook_ids.length > 0)
    form.append('webhook_ids', input.webhook_ids.join(','));
  for (const option of ['raw_text', 'polygon', 'confidence', 'rag'] as const) {
    const value = input[option];
    if (value !== undefined) form.append(option, value ? 'true' : 'false');
  }
  if (input.text_context !== undefined && input.text_context !== '')
    form.append('text_context', input.text_context);
  if (input.data_schema !== undefined) form.append('data_schema', JSON.stringify(input.data_schema));
  if (input.file !== undefined) {
    const name = input.filename ?? (input.file instanceof File ? input.file.name : '');
    form.append('file', input.file, name || 'document');
  }
  return form;
}

/**
 * Queue a document for extraction. The input is checked strictly first (InvalidRequestError, nothing
 * sent). A 429 is retried after `Retry-After`: the service refused before doing anything (retry.ts).
 */
export async function enqueueExtraction(
  input: EnqueueExtractionInput,
  { signal, client = api }: CallOptions = {},
): Promise<JobResponse> {
  const checked = check(EnqueueExtractionInput, input);
  if (!checked.success) throw new InvalidRequestError(checked.issues, { endpoint: `POST ${ENQUEUE_PATH}` });
  return client.request({
    method: 'POST',
    path: ENQUEUE_PATH,
    body: { form: toEnqueueForm(checked.data) },
    schema: JobResponse,
    signal,
  });
}

/**
 * The job's state. `redirect=false`: a processed job answers 200 with its `result_url` instead of a 302,
 * which a browser would follow and, cross-origin, without the key (API-FACTS v2).
 */
export async function getJob(
  jobId: string,
  { signal, client = api }: CallOptions = {},
): Promise<JobResponse> {
  return client.request({
    method: 'GET',
    path: `/v2/jobs/${segment(jobId, 'job id')}`,
    query: { redirect: false },
    schema: JobResponse,
    signal,
  });
}

/**
 * The result, from the job's `result_url` as the app server rewrote it (`/api/v2/...`). Refused
 * (ForeignUrlError) if it points anywhere else.
 */
export async function getExtractionResult(
  resultUrl: string,
  { signal, client = api }: CallOptions = {},
): Promise<ExtractionResponse> {
  return client.request({ method: 'GET', url: resultUrl, schema: ExtractionResponse, signal });
}

/** The hosted service's model list (`GET /v2/search/models`), filtered and paged. */
export async function searchModels(
  params: SearchModelsParams = {},
  { signal, client = api }: CallOptions = {},
): Promise<ModelsSearchResponse> {
  const endpoint = 'GET /v2/search/models';
  const checked = check(SearchModelsParams, params);
  if (!checked.success) throw new InvalidRequestError(checked.issues, { endpoint });
  return client.request({
    method: 'GET',
    path: '/v2/search/models',
    query: { ...checked.data },
    schema: ModelsSearchResponse,
    signal,
  });
}
