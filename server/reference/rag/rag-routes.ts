/**
 * An EXTENSION of the reference service, not of the hosted API (which manages its RAG documents on its
 * platform, with no endpoint in the spec): validated documents per model, for the `rag` option.
 * Mounted under `/v2/extensions/rag` (RAG_ROUTES_BASE), behind the same API key as the other `/v2`
 * routes.
 *
 *   POST   /{model_id}/documents                 { inference_id, fields } → 201 { document }
 *   GET    /{model_id}/documents                 → 200 { documents } (newest first, without the text)
 *   GET    /{model_id}/documents/{document_id}   → 200 { document }
 *   DELETE /{model_id}/documents/{document_id}   → 204
 *
 * A document is made from an inference the service produced (its text was kept when it was processed:
 * rag-store.ts) and the operator's corrected `fields`, checked with the app's own `FieldMap` schema
 * (packages/contract/src/v2/schemas.ts): one contract for what the service writes and what it takes back.
 */
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { z } from 'zod';
import { Uuid } from '@extraction-review/contract/common-schemas';
import { check } from '@extraction-review/contract/issues';
import { FieldMap } from '@extraction-review/contract/v2/schemas';
import { checkJsonDepth } from '@extraction-review/server-kit/json-depth';
import { ProblemError, problemResponse, type ProblemItem } from '@extraction-review/contract/problem';
import { renderError } from '@extraction-review/server-kit/problem-response';
import { uuidParam } from '../routes/identifiers';
import { hostedTimestamp } from '../routes/present';
import type { RagStore, ValidatedDocument } from './rag-store';

export const RAG_ROUTES_BASE = '/extensions/rag';
export const MAX_RAG_BODY_BYTES = 5 * 1024 * 1024;

/** A missing RAG document (docs/errors.md). */
const DOCUMENT_NOT_FOUND = '404-006';

export const AddRagDocumentRequest = z.strictObject({
  /** An inference of this model, produced by this service. */
  inference_id: Uuid,
  /** The validated values, in the shape of `result.fields`; at least one field. */
  fields: FieldMap.refine((fields) => Object.keys(fields).length > 0, {
    error: 'expected at least one field',
  }),
});
export type AddRagDocumentRequest = z.infer<typeof AddRagDocumentRequest>;

export interface RagDocumentSummaryJson {
  id: string;
  model_id: string;
  inference_id: string;
  created_at: string;
  page_count: number;
  fields: FieldMap;
}

export interface RagDocumentJson extends RagDocumentSummaryJson {
  /** The document's text as retrieval compares it, in the shape of `result.raw_text`. */
  raw_text: { pages: { content: string }[] };
}

export interface RagRoutesDeps {
  store: RagStore;
  models: { find(id: string): object | undefined };
}

export function createRagRoutes(deps: RagRoutesDeps): Hono {
  const app = new Hono();

  const model = (c: Context): string => {
    const id = uuidParam('model_id', c.req.param('model_id') ?? '');
    if (!deps.models.find(id)) throw new ProblemError('404-004', `No model has the id ${id}.`);
    return id;
  };
  const document = (c: Context): ValidatedDocument => {
    const modelId = model(c);
    const id = uuidParam('document_id', c.req.param('document_id') ?? '');
    const found = deps.store.findDocument(modelId, id);
    if (!found) throw new ProblemError(DOCUMENT_NOT_FOUND, `The model ${modelId} has no RAG document ${id}.`);
    return found;
  };

  app.post(
    '/:model_id/documents',
    bodyLimit({
      maxSize: MAX_RAG_BODY_BYTES,
      onError: () =>
        problemResponse(
          new ProblemError('413-001', `The body is larger than ${MAX_RAG_BODY_BYTES / (1024 * 1024)} MB.`),
        ),
    }),
    async (c) => {
      const modelId = model(c);
      const request = await readRequest(c);
      const text = deps.store.documentText(request.inference_id);
      if (!text) {
        throw new ProblemError(
          '404-002',
          `No inference has the id ${request.inference_id.toLowerCase()}, or its text is no longer kept.`,
        );
      }
      const errors: ProblemItem[] = [];
      if (text.modelId !== modelId) {
        errors.push({
          pointer: '#/inference_id',
          detail: `inference_id is an inference of the model ${text.modelId}, not of ${modelId}`,
        });
      }
      for (const name of Object.keys(request.fields)) {
        if (!text.fieldNames.includes(name)) {
          errors.push({
            pointer: `#/fields/${pointerSegment(name)}`,
            detail: `the inference has no field ${JSON.stringify(name)}`,
          });
        }
      }
      if (errors.length > 0)
        throw new ProblemError('422-001', 'One or more fields failed validation.', { errors });
      const stored = deps.store.addDocument(text, request.fields);
      c.header('Location', `${c.req.path.replace(/\/$/, '')}/${stored.id}`);
      return c.json({ document: documentJson(stored) }, 201);
    },
  );

  app.get('/:model_id/documents', (c) =>
    c.json({ documents: deps.store.listDocuments(model(c)).map(summaryJson) }, 200),
  );

  app.get('/:model_id/documents/:document_id', (c) => c.json({ document: documentJson(document(c)) }, 200));

  app.delete('/:model_id/documents/:document_id', (c) => {
    const found = document(c);
    deps.store.deleteDocument(found.modelId, found.id);
    return c.body(null, 204);
  });

  app.onError(renderError);
  return app;
}

async function readRequest(c: Context): Promise<AddRagDocumentRequest> {
  if (!/^application\/(?:[\w.+-]+\+)?json\b/i.test(c.req.header('content-type') ?? '')) {
    throw new ProblemError('415-001', 'Send the request body as application/json.');
  }
  // Read whole by the bodyLimit above (5 MB); checked for depth before parsing and validation.
  const text = await c.req.text();
  checkJsonDepth(text);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ProblemError('400-001', 'The request body is not valid JSON.');
  }
  const checked = check(AddRagDocumentRequest, body);
  if (!checked.success) {
    throw new ProblemError('422-001', 'One or more fields failed validation.', {
      errors: checked.issues.map((issue) => ({
        pointer: issue.pointer,
        detail: `${issue.path}: ${issue.message}`,
      })),
    });
  }
  return checked.data;
}

const pointerSegment = (key: string): string => key.replaceAll('~', '~0').replaceAll('/', '~1');

function summaryJson(document: ValidatedDocument): RagDocumentSummaryJson {
  return {
    id: document.id,
    model_id: document.modelId,
    inference_id: document.inferenceId,
    created_at: hostedTimestamp(document.createdAt),
    page_count: document.pages.length,
    fields: document.fields,
  };
}

function documentJson(document: ValidatedDocument): RagDocumentJson {
  return { ...summaryJson(document), raw_text: { pages: document.pages.map((content) => ({ content })) } };
}
