/**
 * Whether an address of the app opens a review (a job's, a v1 job's, a queued document's, a saved
 * result's): what a review needs (the pdf.js worker, the viewer's code) can then start before the
 * app has even rendered.
 */
export function opensReview(pathname: string): boolean {
  return /^\/(?:jobs(?:\/v1)?|review|saved)\/[^/]+\/?$/.test(pathname);
}
