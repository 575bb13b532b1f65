/**
 * The words of a kept document's page (`GET /api/review/documents/{id}/pages/{n}/words`, n 0-based;
 * for a job's own page, by its upstream job: `GET /api/review/jobs/{v1|v2}/{job id}/pages/{n}/words`),
 * for picking values on the page: each word's text and box, normalised to the page as displayed
 * (the frame of a v2 polygon), from the PDF's text layer or from OCR, read once by the app server.
 * The calls of the routes declared in routes/queue.ts.
 */
import { reviewKeys } from '../keys';
import { callRoute, type CallOptions } from './call-route';
import * as routes from '@extraction-review/contract/review/routes/queue';
import type { ApiVersion } from '@extraction-review/contract/review/schemas';

export * from '@extraction-review/contract/review/page-words';

/** A document's words, beside (not under) its key: refetching the document leaves them be. */
export const pageWordsKey = (id: string) => [...reviewKeys.all, 'words', id] as const;

export const getPageWords = (id: string, page: number, options: CallOptions = {}) =>
  callRoute(routes.getPageWords, { params: { id, page: String(page) } }, options);

/** A job's words, by the upstream job that brought its document (a job's page knows no document id). */
export const jobPageWordsKey = (apiVersion: ApiVersion, jobId: string) =>
  [...reviewKeys.all, 'job-words', apiVersion, jobId] as const;

export const getJobPageWords = (
  apiVersion: ApiVersion,
  jobId: string,
  page: number,
  options: CallOptions = {},
) => callRoute(routes.getJobPageWords, { params: { apiVersion, jobId, page: String(page) } }, options);
