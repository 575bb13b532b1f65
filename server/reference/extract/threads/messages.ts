/** What the main thread and the extraction threads say to each other (structured-cloned). */
import type { ProblemBody } from '../../../shared/problem';
import type { DocumentText, StoredFile } from '../extractor';

export type WorkerTask = { type: 'extract'; file: StoredFile } | { type: 'warmUp' };

export type WorkerRequest = WorkerTask & { id: number };

export type WorkerReply =
  | { id: number; document: DocumentText }
  | { id: number; done: true }
  /** A `ProblemError` thrown in the thread, rebuilt as one on the main thread. */
  | { id: number; problem: ProblemBody }
  | { id: number; failure: string };
