/**
 * The v2 shapes the reference service writes (spec §2.1). The browser app's zod schemas
 * (packages/contract/src/v2/schemas.ts) are the contract; the HTTP tests parse every body with them.
 */
import type { ProblemBody } from '@extraction-review/contract/problem';
import type { Polygon } from './geometry';

export type JobStatus = 'Processing' | 'Processed' | 'Failed';

/** Status of one webhook call (spec §2.1 ExtendedStatus). */
export type WebhookStatus = 'Processing' | 'Processed' | 'Failed' | 'Skipped';

/** One entry of `job.webhooks`: the outcome of calling one webhook (spec §2.1 WebhookResponse). */
export interface WebhookResponse {
  /** The webhook endpoint's id (one of the model's webhooks). */
  id: string;
  /** When the webhook was called, in the hosted timestamp format; null before the first call. */
  created_at: string | null;
  status: WebhookStatus;
  error: ProblemBody | null;
  attempts_count: number;
}

export interface JobJson {
  id: string;
  model_id: string;
  filename: string;
  alias: string | null;
  created_at: string;
  completed_at: string | null;
  status: JobStatus;
  polling_url: string;
  result_url: string | null;
  /** Empty until processing is finished. */
  webhooks: WebhookResponse[];
  error: ProblemBody | null;
}

/** `Low` is the hosted service's fourth level (API-FACTS), below the spec's three. */
export type FieldConfidence = 'Certain' | 'High' | 'Medium' | 'Low';

export interface FieldLocation {
  polygon: Polygon;
  page: number;
}

export interface SimpleFieldResult {
  value: boolean | number | string | null;
  locations: FieldLocation[];
  confidence: FieldConfidence | null;
}

export interface ListFieldResult<Item = SimpleFieldResult> {
  items: Item[];
  confidence: FieldConfidence | null;
}

export interface ObjectFieldResult {
  fields: Record<string, SimpleFieldResult | ListFieldResult>;
  locations: FieldLocation[];
  confidence: FieldConfidence | null;
}

export type FieldResult =
  | SimpleFieldResult
  | ObjectFieldResult
  | ListFieldResult<SimpleFieldResult>
  | ListFieldResult<ObjectFieldResult>;

export interface ActiveOptions {
  raw_text: boolean;
  polygon: boolean;
  confidence: boolean;
  rag: boolean;
  multipage_context: boolean;
  text_context: boolean;
  data_schema: { replace: boolean };
}

export interface ExtractionResult {
  fields: Record<string, FieldResult>;
  raw_text: { pages: { content: string }[] } | null;
  rag: { retrieved_document_id: string | null } | null;
}

export interface ExtractionInference {
  id: string;
  job: { id: string };
  model: { id: string };
  file: { name: string; alias: string | null; page_count: number; mime_type: string };
  result: ExtractionResult;
  active_options: ActiveOptions;
}
