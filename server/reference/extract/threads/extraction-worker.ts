/**
 * Runs in each extraction thread: the extractors that do the heavy work (pdf.js, MuPDF, sharp,
 * tesseract), answering one request at a time. Each thread holds its own OCR engine (one tesseract
 * worker), so OCR runs at most as many pages at once as there are threads.
 */
import { parentPort } from 'node:worker_threads';
import { ProblemError } from '../../../shared/problem';
import { readDocumentInfo } from '../document-info';
import { createDocumentExtractor } from '../extract-document-text';
import { readFields } from '../extract-result';
import { loadMupdf } from '../pdf-document';
import type { WorkerReply, WorkerRequest } from './messages';

const extractor = createDocumentExtractor();
const port = parentPort;
if (!port) throw new Error('extraction-worker.ts runs in a worker thread only');

port.on('message', (request: WorkerRequest) => {
  void answer(request).then((reply) => port.postMessage(reply));
});

async function answer(request: WorkerRequest): Promise<WorkerReply> {
  try {
    switch (request.type) {
      case 'warmUp':
        if (request.scope === 'inspect') await loadMupdf();
        else await extractor.warmUp?.();
        return { id: request.id, done: true };
      case 'inspect':
        return { id: request.id, info: await readDocumentInfo(request.path) };
      case 'extract':
        return { id: request.id, document: await extractor.extract(request.file) };
      case 'read':
        return { id: request.id, reading: await readFields(extractor, request.file, request.query) };
    }
  } catch (error) {
    if (error instanceof ProblemError) return { id: request.id, problem: error.toBody() };
    return {
      id: request.id,
      failure: error instanceof Error ? (error.stack ?? error.message) : String(error),
    };
  }
}
