/**
 * Runs in each inspection thread (inspect-document.ts): type and page count only, so it loads only
 * what that needs (pdf.js, sharp), not the extraction threads' OCR engine, field finder and page
 * orientation. Measured: ~5–15 MB less resident memory per thread (of ~80–95 MB).
 */
import { parentPort } from 'node:worker_threads';
import { ProblemError } from '@extraction-review/contract/problem';
import { readDocumentInfo } from '../document-info';
import { warmUpPdf } from '../pdf-document';
import type { WorkerReply, WorkerRequest } from './messages';

const port = parentPort;
if (!port) throw new Error('inspection-worker.ts runs in a worker thread only');

port.on('message', (request: WorkerRequest) => {
  void answer(request).then((reply) => port.postMessage(reply));
});

async function answer(request: WorkerRequest): Promise<WorkerReply> {
  try {
    switch (request.type) {
      case 'warmUp':
        await warmUpPdf();
        return { id: request.id, done: true };
      case 'inspect':
        return { id: request.id, info: await readDocumentInfo(request.path) };
      default:
        return { id: request.id, failure: `An inspection thread does not answer '${request.type}'.` };
    }
  } catch (error) {
    if (error instanceof ProblemError) return { id: request.id, problem: error.toBody() };
    return {
      id: request.id,
      failure: error instanceof Error ? (error.stack ?? error.message) : String(error),
    };
  }
}
