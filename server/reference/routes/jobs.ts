/** GET /v2/jobs/{job_id}: the job; a processed one redirects to its result unless `redirect=false`. */
import type { Context } from 'hono';
import { ProblemError } from '@extraction-review/contract/problem';
import { pollAnswer } from '../jobs/job-state';
import type { JobService } from '../jobs/job-service';
import { uuidParam } from './identifiers';
import { jobJson } from './present';
import type { UrlsForRequest } from './service-urls';

export function jobHandler(deps: { jobs: JobService; urls: UrlsForRequest }) {
  return (c: Context): Response => {
    const id = uuidParam('job_id', c.req.param('job_id') ?? '');
    const redirect = parseRedirect(c.req.query('redirect'));
    const job = deps.jobs.findJob(id);
    if (!job) throw new ProblemError('404-001', `No job has the id ${id}.`);
    // Polled repeatedly: never let an intermediary answer from cache.
    c.header('Cache-Control', 'no-store');
    const urls = deps.urls(c);
    const body = { job: jobJson(job, urls, deps.jobs.webhooksOf(job)) };
    const answer = pollAnswer(job, redirect);
    if (answer.status === 302) {
      // The hosted service sends the job JSON along with the redirect (API-FACTS).
      return c.json(body, 302, { Location: urls.result(answer.inferenceId) });
    }
    return c.json(body, 200);
  };
}

function parseRedirect(value: string | undefined): boolean {
  if (value === undefined || /^(true|1)$/i.test(value)) return true;
  if (/^(false|0)$/i.test(value)) return false;
  throw new ProblemError('422-001', 'One or more fields failed validation.', {
    errors: [{ pointer: null, detail: `redirect must be true or false, got "${value}"` }],
  });
}
