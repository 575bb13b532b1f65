/**
 * The session's CSRF token for this tab: handed over by the session calls (sign-in, set-up, reading
 * the session) and sent back in `X-CSRF-Token` by every state-changing review call. Kept in memory
 * only: a reload reads the session again (the cookie is HttpOnly, the token is not a credential alone).
 */
let token: string | undefined;

export function rememberCsrfToken(value: string | undefined): void {
  token = value;
}

export function csrfHeaders(): Record<string, string> {
  return token === undefined ? {} : { 'X-CSRF-Token': token };
}
