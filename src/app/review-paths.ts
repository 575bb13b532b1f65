/**
 * Whether an address of the app opens a review (a job's, a v1 job's, a queued document's, a saved
 * result's): what a review needs (the pdf.js worker, the viewer's code) can then start before the
 * app has even rendered.
 */
export function opensReview(pathname: string): boolean {
  return /^\/(?:jobs(?:\/v1)?|review|saved)\/[^/]+\/?$/.test(pathname);
}

/**
 * The review an address opens whose data can be asked for before the app renders (a v2 job's, a
 * queued document's), with its id as the route reads it; null for any other address.
 */
export function earlyReview(pathname: string): { kind: 'job' | 'queue'; id: string } | null {
  const match = /^\/(jobs|review)\/([^/]+)\/?$/.exec(pathname);
  const id = match?.[2];
  if (!id || (match[1] === 'jobs' && id === 'v1')) return null;
  return { kind: match[1] === 'jobs' ? 'job' : 'queue', id };
}
