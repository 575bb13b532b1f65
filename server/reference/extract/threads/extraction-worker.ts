/**
 * Runs in each extraction thread: the extractors that do the heavy work (pdf.js today, OCR next),
 * answering one request at a time.
 */
import { parentPort } from 'node:worker_threads';
import { ProblemError } from '../../../shared/problem';
import { ExtractorSet } from '../extractor-set';
import { ImageWithoutOcrExtractor } from '../image-extractor';
import { PdfTextExtractor } from '../pdf-text-extractor';
import type { WorkerReply, WorkerRequest } from './messages';

const extractor = new ExtractorSet([new PdfTextExtractor(), new ImageWithoutOcrExtractor()]);
const port = parentPort;
if (!port) throw new Error('extraction-worker.ts runs in a worker thread only');

port.on('message', (request: WorkerRequest) => {
  void answer(request).then((reply) => port.postMessage(reply));
});

async function answer(request: WorkerRequest): Promise<WorkerReply> {
  try {
    if (request.type === 'warmUp') {
      await extractor.warmUp();
      return { id: request.id, done: true };
    }
    return { id: request.id, document: await extractor.extract(request.file) };
  } catch (error) {
    if (error instanceof ProblemError) return { id: request.id, problem: error.toBody() };
    return {
      id: request.id,
      failure: error instanceof Error ? (error.stack ?? error.message) : String(error),
    };
  }
}
