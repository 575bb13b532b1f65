/**
 * Runs in each extraction thread: the extractors that do the heavy work (pdf.js, sharp,
 * tesseract), answering one request at a time. Each thread holds its own OCR engine (one tesseract
 * worker), so OCR runs at most as many pages at once as there are threads.
 */
import { parentPort } from 'node:worker_threads';
import { ProblemError } from '@extraction-review/contract/problem';
import { readDocumentInfo } from '../document-info';
import { DEFAULT_DOCUMENT_LIMITS, type DocumentLimits } from '../document-limits';
import { createDocumentExtractor } from '../extract-document-text';
import type { Extractor } from '../extractor';
import { readFields, type FieldQuery } from '../extract-result';
import { detectPageOrientations } from '../page-orientations';
import { warmUpPdf } from '../pdf-document';
import { readPage } from '../read-page';
import type { WorkerReply, WorkerRequest } from './messages';

const extractor = createDocumentExtractor();
/** One extractor per set of limits a caller brings (the service's, the review's: one or two). */
const limitedExtractors = new Map<string, Extractor>();
function extractorWithin(limits: DocumentLimits | undefined): Extractor {
  if (!limits) return extractor;
  const key = JSON.stringify(limits);
  let found = limitedExtractors.get(key);
  if (!found) {
    if (limitedExtractors.size >= 8) limitedExtractors.clear();
    found = createDocumentExtractor(limits);
    limitedExtractors.set(key, found);
  }
  return found;
}
const port = parentPort;
if (!port) throw new Error('extraction-worker.ts runs in a worker thread only');

port.on('message', (request: WorkerRequest) => {
  void answer(request).then((reply) => port.postMessage(reply));
});

/**
 * Each request brings a fresh copy of its data schema (structured clone); handing the finder the copy
 * it saw last time for the same schema lets its per-field caches (label phrases, hints) serve every
 * job of a model, not only the first.
 */
const schemasSeen = new Map<string, FieldQuery['schema']>();
function sameSchemaAsBefore(schema: FieldQuery['schema']): FieldQuery['schema'] {
  const key = JSON.stringify(schema);
  const seen = schemasSeen.get(key);
  if (seen) return seen;
  if (schemasSeen.size >= 32) schemasSeen.clear();
  schemasSeen.set(key, schema);
  return schema;
}

async function answer(request: WorkerRequest): Promise<WorkerReply> {
  try {
    switch (request.type) {
      case 'warmUp':
        if (request.scope === 'inspect') await warmUpPdf();
        else await extractor.warmUp?.();
        return { id: request.id, done: true };
      case 'orient':
        return {
          id: request.id,
          orientations: await detectPageOrientations(request.file, undefined, request.limits),
        };
      case 'inspect':
        return { id: request.id, info: await readDocumentInfo(request.path) };
      case 'extract':
        return { id: request.id, document: await extractorWithin(request.limits).extract(request.file) };
      case 'read': {
        const query = { ...request.query, schema: sameSchemaAsBefore(request.query.schema) };
        const reading = await readFields(extractorWithin(request.limits), request.file, query);
        return { id: request.id, reading };
      }
      case 'page': {
        const limits = request.limits ?? DEFAULT_DOCUMENT_LIMITS;
        return { id: request.id, pageReading: await readPage(request.file, request.page, limits) };
      }
    }
  } catch (error) {
    if (error instanceof ProblemError) return { id: request.id, problem: error.toBody() };
    return {
      id: request.id,
      failure: error instanceof Error ? (error.stack ?? error.message) : String(error),
    };
  }
}
