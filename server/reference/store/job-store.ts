/**
 * What the service keeps about jobs and inferences, and the interface of the place it keeps them.
 * The jobs layer only talks to this interface; SQLite is one implementation (sqlite-job-store.ts).
 */
import type { ProblemBody } from '@extraction-review/contract/problem';
import type { ExtractionInference, JobStatus } from '@extraction-review/document-text/api-types';
import type { FieldSchema } from '@extraction-review/contract/v2/field-schema';
import type { ModelOptions } from '../models/model-catalog';

/** The options of one job, resolved at enqueue (request over model defaults) and kept with it. */
export interface JobOptions {
  /** `raw_text`, `polygon`, `confidence`, `rag`, `multipage_context` as active for this job. */
  flags: ModelOptions;
  /** The `text_context` sent with the request; null when none was. */
  textContext: string | null;
  /** The `data_schema.replace` fields sent with the request; null to use the model's own schema. */
  dataSchemaReplace: FieldSchema[] | null;
}

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
  /** Null only for jobs recorded before options were kept: the model's defaults apply. */
  options: JobOptions | null;
  /** The model webhooks to call once processing is finished (`webhook_ids`), lower case. */
  webhookIds: string[];
  /** How many times processing started without ending (a crash in between); see JobService. */
  attempts: number;
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
  /**
   * Records a job's terminal state and, when it succeeded, its inference, in one transaction. Only a
   * job still `Processing` in the store is changed: false when it was already final (nothing written).
   */
  finishJob(job: JobRecord, inference?: InferenceRecord): boolean;
  /** Counts one more start of processing; returns the new count. */
  startAttempt(jobId: string): number;
  /** Takes back a start that ended cleanly without a final state (a shutdown). */
  releaseAttempt(jobId: string): void;
  findInference(id: string): InferenceRecord | undefined;
  /**
   * Reads and deletes an inference in one transaction (delete-after-fetch): of two concurrent calls,
   * one gets it. A tombstone remembers when it was deleted.
   */
  takeInference(id: string, at: Date): InferenceRecord | undefined;
  /** When the inference was deleted after being fetched, if it was. */
  deletedInferenceAt(id: string): string | undefined;
  jobsWithStatus(status: JobStatus): JobRecord[];
  close(): void;
}
