/**
 * The multipart body of `POST /api/review/import` (its declaration's body is opaque: the server reads
 * the parts itself, server/app/review/http/read-import-form.ts). Pure: the browser sends it, tests build it.
 */
import type { ImportMetadata } from './schemas';

export interface ImportInput {
  metadata: ImportMetadata;
  /** The upstream's answer as it came (v2 extraction response, v1 document response). */
  result: unknown;
  /** The document's bytes, when this browser kept them; sent as the `file` part. */
  file?: Blob | null | undefined;
}

/**
 * The multipart form of `POST /api/review/import`: the metadata, the result as a JSON part, then the
 * file (last, so that the server knows the job before the bytes come, and stores no copy of a job it
 * has already).
 */
export function toImportForm({ metadata, result, file }: ImportInput): FormData {
  const form = new FormData();
  form.append('metadata', JSON.stringify(metadata));
  form.append('result', new Blob([JSON.stringify(result)], { type: 'application/json' }), 'result.json');
  if (file) form.append('file', file, metadata.fileName);
  return form;
}
