import { Redirect } from 'wouter';

/**
 * `/jobs` was the browser's own list of what it sent; the team's Uploads list (from the server)
 * replaces it. Old bookmarks land there (history.replace: Back does not bounce).
 */
export function JobsRoute() {
  return <Redirect to="/uploads" replace />;
}
