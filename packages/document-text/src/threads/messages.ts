/** What the main thread and the extraction threads say to each other (structured-cloned). */
import type { ProblemBody } from '@extraction-review/contract/problem';
import type { DocumentInfo } from '../document-info';
import type { DocumentLimits } from '../document-limits';
import type { FieldQuery, FieldReading } from '../extract-result';
import type { DocumentText, StoredFile } from '../extractor';
import type { Orientation } from '../ocr/orientation';
import type { PageReading } from '../read-page';

/** `limits` (document-limits.ts): the service's or the review's; the defaults when left out. */
export type WorkerTask =
  | { type: 'extract'; file: StoredFile; limits?: DocumentLimits }
  /** Extraction and field finding in one: see `FieldReader` in extract-result.ts. */
  | { type: 'read'; file: StoredFile; query: FieldQuery; limits?: DocumentLimits }
  | { type: 'inspect'; path: string }
  /** The clockwise rotation that makes each page upright (page-orientations.ts). */
  | { type: 'orient'; file: StoredFile; limits?: DocumentLimits }
  /** One page's words, for the review's page words (read-page.ts). */
  | { type: 'page'; file: StoredFile; page: number; limits?: DocumentLimits }
  /** `extract`: pdf.js with rendering, and the OCR engine; `inspect`: only what inspection needs (pdf.js). */
  | { type: 'warmUp'; scope: 'extract' | 'inspect' };

export type WorkerRequest = WorkerTask & { id: number };

export type WorkerReply =
  | { id: number; document: DocumentText }
  | { id: number; reading: FieldReading }
  | { id: number; info: DocumentInfo }
  | { id: number; orientations: (Orientation | null)[] }
  | { id: number; pageReading: PageReading }
  | { id: number; done: true }
  /** A `ProblemError` thrown in the thread, rebuilt as one on the main thread. */
  | { id: number; problem: ProblemBody }
  | { id: number; failure: string };
