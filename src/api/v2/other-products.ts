/**
 * Results of the hosted service's other v2 products: classification, crop, OCR and split. They are
 * beyond our spec and the app does not call them; their shapes come from the recorded bodies
 * (`v2/products/{classification,crop,ocr,split}/*.json`) and are kept here so the corpus test checks every
 * file and so a later feature starts from a known shape. Same reading rules as schemas.ts.
 */
import { z } from 'zod';
import { Id } from '@extraction-review/contract/common-schemas';
import {
  ExtractionResponse,
  FieldLocation,
  InferenceActiveOptions,
  InferenceFile,
  Polygon,
  ResourceRef,
} from '@extraction-review/contract/v2/schemas';

const inferenceBase = {
  id: Id,
  job: ResourceRef,
  model: ResourceRef,
  file: InferenceFile,
  /** Not sent by these products in the recorded bodies. */
  active_options: InferenceActiveOptions.optional(),
};

/** Some products can chain an extraction on what they found (`*_extraction.json`). */
const extraction_response = ExtractionResponse.optional();

export const ClassificationResponse = z.object({
  inference: z.object({
    ...inferenceBase,
    result: z.object({
      classification: z.object({ document_type: z.string(), extraction_response }),
    }),
  }),
});
export type ClassificationResponse = z.infer<typeof ClassificationResponse>;

export const CropResponse = z.object({
  inference: z.object({
    ...inferenceBase,
    result: z.object({
      crops: z.array(z.object({ object_type: z.string(), location: FieldLocation, extraction_response })),
    }),
  }),
});
export type CropResponse = z.infer<typeof CropResponse>;

export const OcrResponse = z.object({
  inference: z.object({
    ...inferenceBase,
    result: z.object({
      pages: z.array(
        z.object({
          words: z.array(z.object({ content: z.string(), polygon: Polygon })),
          /** The page text, lines separated by `\n`. */
          content: z.string().optional(),
        }),
      ),
    }),
  }),
});
export type OcrResponse = z.infer<typeof OcrResponse>;

export const SplitResponse = z.object({
  inference: z.object({
    ...inferenceBase,
    result: z.object({
      splits: z.array(
        z.object({
          /** First and last page, 0-based, inclusive. */
          page_range: z.tuple([z.int().min(0), z.int().min(0)]),
          document_type: z.string(),
          extraction_response,
        }),
      ),
    }),
  }),
});
export type SplitResponse = z.infer<typeof SplitResponse>;
