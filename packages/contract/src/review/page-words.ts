/**
 * The words of a kept document's page (`GET /api/review/documents/{id}/pages/{n}/words`, n 0-based;
 * for a job's own page, by its upstream job: `GET /api/review/jobs/{v1|v2}/{job id}/pages/{n}/words`),
 * for picking values on the page: each word's text and box, normalised to the page as displayed
 * (the frame of a v2 polygon), from the PDF's text layer (with what OCR reads in its pictures) or
 * from OCR, read once by the app server.
 */
import { z } from 'zod';
import { Polygon } from '../v2/schemas';

export const PageWordsResponse = z.object({
  page: z.int().min(0),
  /** The page's size in its own units (points, pixels): only the ratio matters. */
  width: z.number().positive(),
  height: z.number().positive(),
  source: z.enum(['text-layer', 'ocr']),
  /**
   * A picture's clockwise turn that shows it upright (a photo taken sideways, found by the page's
   * text direction), 0 or absent when upright; the words' polygons stay in the picture's own frame.
   */
  turn: z.union([z.literal(0), z.literal(90), z.literal(180), z.literal(270)]).optional(),
  words: z.array(
    z.object({
      text: z.string(),
      polygon: Polygon,
      confidence: z.number().min(0).max(1),
      /**
       * Read by OCR in a picture of a page that has a text layer (a name printed in a logo), where the
       * text layer has no word: a reader of the text layer itself (the browser) adds these to its own.
       */
      inPicture: z.literal(true).optional(),
    }),
  ),
});
export type PageWordsResponse = z.infer<typeof PageWordsResponse>;
