/** The v1 bodies that need the service's request or job records (the envelope itself: v1-api-request.ts). */
import type { Context } from 'hono';
import { v1Timestamp } from '@extraction-review/contract/v1/api-request';
import type { V1JobRecord } from './v1-store';

/** The called URL, absolute in the service's own base (as the hosted service writes it). */
export const calledUrl = (c: Context, base: string): string => {
  const url = new URL(c.req.url);
  return `${base}${url.pathname}${url.search}`;
};

/** The v1 job as the queue and the documents answer it (spec §2.2 Job). */
export function jobJson(job: V1JobRecord) {
  return {
    id: job.id,
    issued_at: v1Timestamp(job.issuedAt),
    available_at: job.availableAt && v1Timestamp(job.availableAt),
    status: job.status,
    error: job.error ?? {},
  };
}
