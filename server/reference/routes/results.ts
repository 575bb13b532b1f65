/** GET /v2/products/extraction/results/{inference_id}: the stored ExtractionResponse. */
import type { Context } from 'hono';
import { ProblemError } from '../../shared/problem';
import type { JobService } from '../jobs/job-service';
import { uuidParam } from './identifiers';

export function resultHandler(deps: { jobs: JobService }) {
  return (c: Context): Response => {
    const id = uuidParam('inference_id', c.req.param('inference_id') ?? '');
    const inference = deps.jobs.findInference(id);
    if (!inference) throw new ProblemError('404-002', `No inference has the id ${id}.`);
    return c.json({ inference: inference.body }, 200);
  };
}
