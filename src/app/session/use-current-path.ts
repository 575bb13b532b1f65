import { useLocation, useSearch } from 'wouter';

/** The path and query of the page shown (`/queue?state=to_review`), to come back to after signing in. */
export function useCurrentPath(): string {
  const [location] = useLocation();
  const search = useSearch();
  return search ? `${location}?${search}` : location;
}
