/**
 * The one-time set-up link, `/setup#<token>`: the token travels in the fragment, which browsers send
 * to no server and put in no Referer (server/app/review/open-review.ts). The page reads it once, then takes
 * it out of the address bar so that it is neither bookmarked nor left on screen.
 */
import { queryOptions } from '@tanstack/react-query';
import { reviewKeys } from '../../api/keys';
import { checkSetupLink } from '../../api/review/endpoints';

export function readSetupToken(): string | null {
  const raw = window.location.hash.replace(/^#/, '').trim();
  if (raw === '') return null;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** The same address without its fragment, as the current history entry (no new one). */
export function forgetSetupToken(): void {
  if (window.location.hash === '') return;
  const { pathname, search } = window.location;
  window.history.replaceState(window.history.state, '', `${pathname}${search}`);
}

/** Under `reviewKeys.all`, so a sign-out forgets it with the rest (keys.ts has no set-up key yet). */
const setupLinkKey = reviewKeys.setupLink;

/** Whether the link can still create the first admin (404 `404-011` once used or expired). */
export function setupLinkQueryOptions(token: string) {
  return queryOptions({
    queryKey: setupLinkKey(token),
    queryFn: ({ signal }) => checkSetupLink(token, { signal }),
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });
}
