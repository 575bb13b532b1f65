/**
 * The reference service's RAG extension (docs/reference-webhooks-rag.md, server/reference/rag/rag-routes.ts):
 * an operator's validated values for an inference become a document the `rag` option can retrieve.
 * It is an EXTENSION of the reference service, not of the hosted API, which manages its RAG documents on
 * its platform: against the hosted service these calls answer 404.
 *
 *   POST /v2/extensions/rag/{model_id}/documents   { inference_id, fields } → 201 { document }
 *   GET  /v2/extensions/rag/{model_id}/documents   → 200 { documents }
 */
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { Id, Timestamp, Uuid } from '@extraction-review/contract/common-schemas';
import { InvalidRequestError } from '../errors';
import { api, segment } from '../http';
import { check } from '@extraction-review/contract/issues';
import { ragDocumentKeys } from '../keys';
import type { CallOptions } from './endpoints';
import { FieldMap, RawText } from '@extraction-review/contract/v2/schemas';

const base = (modelId: string) => `/v2/extensions/rag/${segment(modelId, 'model id')}/documents`;

/** What we send, checked strictly as the service checks it: an inference of the model, at least one field. */
export const AddRagDocumentInput = z.strictObject({
  inference_id: Uuid,
  fields: FieldMap.refine((fields) => Object.keys(fields).length > 0, {
    error: 'expected at least one field',
  }),
});
export type AddRagDocumentInput = z.infer<typeof AddRagDocumentInput>;

export const RagDocumentSummary = z.object({
  id: Id,
  model_id: Id,
  inference_id: Id,
  created_at: Timestamp,
  page_count: z.int().min(0),
  fields: FieldMap,
});
export type RagDocumentSummary = z.infer<typeof RagDocumentSummary>;

export const RagDocument = RagDocumentSummary.extend({ raw_text: RawText.nullable().default(null) });
export type RagDocument = z.infer<typeof RagDocument>;

export const RagDocumentResponse = z.object({ document: RagDocument });
export type RagDocumentResponse = z.infer<typeof RagDocumentResponse>;

export const RagDocumentsResponse = z.object({ documents: z.array(RagDocumentSummary) });
export type RagDocumentsResponse = z.infer<typeof RagDocumentsResponse>;

/** Store validated values as a RAG document of the model. The input is checked first (nothing sent if invalid). */
export async function addRagDocument(
  modelId: string,
  input: AddRagDocumentInput,
  { signal, client = api }: CallOptions = {},
): Promise<RagDocumentResponse> {
  const path = base(modelId);
  const checked = check(AddRagDocumentInput, input);
  if (!checked.success) throw new InvalidRequestError(checked.issues, { endpoint: `POST /api${path}` });
  return client.request({
    method: 'POST',
    path,
    body: { json: checked.data },
    schema: RagDocumentResponse,
    signal,
  });
}

export async function listRagDocuments(
  modelId: string,
  { signal, client = api }: CallOptions = {},
): Promise<RagDocumentsResponse> {
  return client.request({ method: 'GET', path: base(modelId), schema: RagDocumentsResponse, signal });
}

export function ragDocumentsQueryOptions(modelId: string) {
  return queryOptions({
    queryKey: ragDocumentKeys.list(modelId),
    queryFn: ({ signal }) => listRagDocuments(modelId, { signal }),
  });
}
