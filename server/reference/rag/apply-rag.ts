/**
 * The RAG step of processing, after field finding: when the job's `rag` option is active, retrieve the
 * model's validated document most like this one (retrieval.ts), report it in `result.rag`, and apply
 * its values where this document's text supports them (apply-validated-values.ts).
 *
 * Two ways in, the same outcome:
 * - `ragPostProcess`: a hook for `extractResult`'s `postProcess` input, which runs on the fields as
 *   found, before the options shape them; the retrieved id comes back through `onRetrieved`;
 * - `applyRag`: on a finished `ExtractionResult` (options already applied).
 */
import type {
  ActiveOptions,
  ExtractionResult,
  FieldResult,
} from '@extraction-review/document-text/api-types';
import { applyValidatedValues } from './apply-validated-values';
import type { LaidOutPage } from './document-terms';
import type { RagStore } from './rag-store';
import { DEFAULT_SIMILARITY_THRESHOLD } from './retrieval';

/**
 * `(fields, { pages }) → fields` for `extractResult(…, { postProcess })`. Only give it when the job's
 * `rag` option is active; `onRetrieved` receives the retrieved document's id, or null.
 */
export function ragPostProcess(
  store: RagStore,
  modelId: string,
  onRetrieved: (documentId: string | null) => void,
  threshold = DEFAULT_SIMILARITY_THRESHOLD,
): (
  fields: Record<string, FieldResult>,
  context: { pages: readonly LaidOutPage[] },
) => Record<string, FieldResult> {
  return (fields, { pages }) => {
    const match = store.retrieve(modelId, pages, threshold);
    onRetrieved(match?.document.id ?? null);
    // Full locations and confidences: extractResult applies the job's options afterwards.
    return match ? applyValidatedValues(fields, match.document.fields, pages) : fields;
  };
}

export interface RagInput {
  modelId: string;
  /** The pages the fields were found in (`extractResult`'s `pages`). */
  pages: readonly LaidOutPage[];
  result: ExtractionResult;
  options: Pick<ActiveOptions, 'rag' | 'polygon' | 'confidence'>;
  threshold?: number;
}

/**
 * The result with `rag` filled: `{ retrieved_document_id }` (null when nothing is similar enough)
 * when the option is active, `null` when it is not (the fields are then left as they came).
 */
export function applyRag(store: RagStore, input: RagInput): ExtractionResult {
  const { result, options } = input;
  if (!options.rag) return { ...result, rag: null };
  const match = store.retrieve(input.modelId, input.pages, input.threshold ?? DEFAULT_SIMILARITY_THRESHOLD);
  if (!match) return { ...result, rag: { retrieved_document_id: null } };
  return {
    ...result,
    fields: applyValidatedValues(result.fields, match.document.fields, input.pages, options),
    rag: { retrieved_document_id: match.document.id },
  };
}
