/**
 * Which upstream took a document (`documents.upstream_id`): its base URL's origin and path, normalised
 * (scheme and host lower-cased, default port dropped, no trailing slash), without credentials, query
 * or fragment. Never the key: two copies configured with the same upstream and different keys name the
 * same upstream, and nothing secret reaches the store.
 *
 * The job follower follows a document only from a copy whose upstream has the same identity
 * (job-follower.ts): a 404 from another upstream says nothing about a job it never had.
 */
/**
 * The embedded reference service's identity, whatever port it listens on: one service, its jobs kept
 * in REFERENCE_DATA_DIR across restarts. With DATABASE_URL it is refused unless a single copy wants
 * it (EMBEDDED_REFERENCE_WITH_DATABASE), so no two copies' embedded services ever share a store.
 */
export const EMBEDDED_REFERENCE_IDENTITY = 'embedded-reference';

export function upstreamIdentity(url: string): string {
  const parsed = new URL(url);
  const pathname = parsed.pathname.replace(/\/+$/, '');
  // URL has already lower-cased the scheme and host and dropped a default port; user and password
  // (which may carry a secret) are left out on purpose.
  return `${parsed.protocol}//${parsed.host}${pathname}`;
}
