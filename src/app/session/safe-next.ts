/**
 * Where to go back to after signing in (`/sign-in?next=/queue`). Only a path of this app is followed:
 * `//evil.example`, `/\evil.example` and `https://…` would leave the origin (an open redirect), and a
 * control character could make a browser read the path otherwise.
 */
const PLACEHOLDER_ORIGIN = 'http://app.invalid';

export function safeNextPath(raw: string | null | undefined): string | null {
  if (raw == null || !raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return null;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(raw)) return null;
  let url: URL;
  try {
    url = new URL(raw, PLACEHOLDER_ORIGIN);
  } catch {
    return null;
  }
  if (url.origin !== PLACEHOLDER_ORIGIN) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The sign-in page, coming back to `next` (a path of this app) afterwards. */
export function signInHref(next: string | null | undefined): string {
  const path = safeNextPath(next);
  return path === null || path === '/sign-in' || path.startsWith('/sign-in?')
    ? '/sign-in'
    : `/sign-in?${new URLSearchParams({ next: path }).toString()}`;
}
