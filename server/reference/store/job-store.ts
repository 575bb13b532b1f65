/**
 * What the service keeps about jobs and inferences, and the interface of the place it keeps them.
 * The jobs layer only talks to this interface; SQLite is one implementation (sqlite-job-store.ts).
 */
import type { ProblemBody } from '../../shared/problem';
import type { ExtractionInference, JobStatus } from '../api-types';

export interface JobRecord {
  id: string;
  modelId: string;
  filename: string;
  alias: string | null;
  /** ISO 8601 in UTC with `Z`; the routes render the hosted service's format. */
  createdAt: string;
  completedAt: string | null;
  status: JobStatus;
  inferenceId: string | null;
  error: ProblemBody | null;
  /** Detected from the bytes at upload. The file itself is in the FileStore under the job id. */
  mimeType: string;
  fileSize: number;
}

export interface InferenceRecord {
  id: string;
  jobId: string;
  createdAt: string;
  body: ExtractionInference;
}

export interface JobStore {
  insertJob(job: JobRecord): void;
  findJob(id: string): JobRecord | undefined;
  /** Records a job's terminal state and, when it succeeded, its inference, in one transaction. */
  finishJob(job: JobRecord, inference?: InferenceRecord): void;
  findInference(id: string): InferenceRecord | undefined;
  jobsWithStatus(status: JobStatus): JobRecord[];
  close(): void;
}
