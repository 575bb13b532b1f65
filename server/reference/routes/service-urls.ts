/**
 * Absolute URLs in the service's own base (REFERENCE_PUBLIC_URL, or the address it listens on), as the
 * hosted service writes them: the app server's URL rewriting must meet real absolute URLs.
 * Computed when a response is written, never stored, so a job keeps correct URLs across a restart on
 * another port.
 */
export interface ServiceUrls {
  job(jobId: string): string;
  result(inferenceId: string): string;
}

export function serviceUrls(base: () => string): ServiceUrls {
  const root = (): string => base().replace(/\/+$/, '');
  return {
    job: (jobId) => `${root()}/v2/jobs/${jobId}`,
    result: (inferenceId) => `${root()}/v2/products/extraction/results/${inferenceId}`,
  };
}
