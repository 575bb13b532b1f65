/**
 * GET /v2/products/extraction/results/{inference_id}: the stored ExtractionResponse. When the job's
 * model deletes extracted data once fetched, this fetch completes and the inference is gone after it
 * (spec §3.3): later requests, and the job's `result_url`, answer 404.
 */
import type { Context } from 'hono';
import { ProblemError } from '@extraction-review/contract/problem';
import type { JobService } from '../jobs/job-service';
import { uuidParam } from './identifiers';

export function resultHandler(deps: { jobs: JobService }) {
  return async (c: Context): Promise<Response> => {
    const id = uuidParam('inference_id', c.req.param('inference_id') ?? '');
    const fetched = await deps.jobs.fetchInference(id);
    if (!fetched.found) {
      throw new ProblemError(
        '404-002',
        fetched.deletedAt === undefined
          ? `No inference has the id ${id}.`
          : `The inference ${id} was deleted once fetched (its model deletes extracted data after the first fetch).`,
      );
    }
    c.header('Cache-Control', 'no-store');
    return c.json({ inference: fetched.inference.body }, 200);
  };
}
