/**
 * A job's options: what the request set, over the model's defaults (spec §2.1 "Options are active
 * through defaults set on the platform or through explicit settings in the request"). Resolved once
 * at enqueue and kept with the job, so a restart or a later change of the models file does not change
 * what an accepted job does.
 */
import type { ActiveOptions } from '@extraction-review/document-text/api-types';
import type { FieldSchema } from '@extraction-review/contract/v2/field-schema';
import type { Model } from '../models/model-catalog';
import type { JobOptions } from '../store/job-store';

/** The options a request may set; left out, the model's default applies. */
export interface RequestedOptions {
  raw_text?: boolean;
  polygon?: boolean;
  confidence?: boolean;
  rag?: boolean;
  textContext?: string;
  /** The replacement schema of `data_schema.replace`; null or left out keeps the model's. */
  dataSchemaReplace?: FieldSchema[] | null;
}

export function resolveJobOptions(model: Model, requested: RequestedOptions = {}): JobOptions {
  const defaults = model.default_options;
  return {
    flags: {
      raw_text: requested.raw_text ?? defaults.raw_text,
      polygon: requested.polygon ?? defaults.polygon,
      confidence: requested.confidence ?? defaults.confidence,
      rag: requested.rag ?? defaults.rag,
      // Not a request parameter: the model's setting only.
      multipage_context: defaults.multipage_context,
    },
    textContext: requested.textContext ?? null,
    dataSchemaReplace: requested.dataSchemaReplace ?? null,
  };
}

/** What `active_options` reports for a job with these options. */
export function activeOptionsOf(options: JobOptions): ActiveOptions {
  return {
    ...options.flags,
    text_context: options.textContext !== null,
    data_schema: { replace: options.dataSchemaReplace !== null },
  };
}

/** The data schema the extraction fills: the request's replacement, else the model's. */
export function dataSchemaOf(model: Model, options: JobOptions): readonly FieldSchema[] {
  return options.dataSchemaReplace ?? model.data_schema.fields;
}
