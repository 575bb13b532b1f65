/**
 * A v1 prediction (sync `predict` or `predict_async`) of a file with upload progress: the same
 * XMLHttpRequest doorway as the v2 enqueue (v2/upload.ts `uploadForm`: progress, error mapping, schema
 * check, only a 429 retried), with the v1 path and form of endpoints.ts.
 */
import { InvalidRequestError } from '../errors';
import { check } from '@extraction-review/contract/issues';
import { uploadForm, type UploadOptions } from '../v2/upload';
import { predictBody, productPath, type V1PredictOptions } from './endpoints';
import {
  V1DocumentInput,
  V1EnqueueResponse,
  V1PredictResponse,
  type V1ProductRef,
} from '@extraction-review/contract/v1/schemas';

export type V1Mode = 'sync' | 'async';

export interface V1FileInput {
  file: Blob;
  filename?: string | undefined;
}

export type V1UploadAnswer<M extends V1Mode> = M extends 'sync' ? V1PredictResponse : V1EnqueueResponse;

/** `predict` (the document in the answer) or `predict_async` (a waiting job), reporting progress. */
export async function uploadPrediction<M extends V1Mode>(
  product: V1ProductRef,
  mode: M,
  input: V1FileInput,
  options: UploadOptions & V1PredictOptions = {},
): Promise<V1UploadAnswer<M>> {
  const path = `${productPath(product)}/${mode === 'sync' ? 'predict' : 'predict_async'}`;
  const checked = check(V1DocumentInput, {
    file: input.file,
    ...(input.filename ? { filename: input.filename } : {}),
  });
  if (!checked.success) throw new InvalidRequestError(checked.issues, { endpoint: `POST ${path}` });
  const makeForm = () => {
    const body = predictBody(checked.data, options);
    // A file always makes a form (predictBody); the JSON branch is for base64 and URLs.
    if (!body.form) throw new Error('A file is sent as a multipart form');
    return body.form;
  };
  const schema = mode === 'sync' ? V1PredictResponse : V1EnqueueResponse;
  return uploadForm({ path, makeForm, schema }, options) as Promise<V1UploadAnswer<M>>;
}
