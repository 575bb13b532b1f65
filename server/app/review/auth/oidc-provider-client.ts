/**
 * The app as a client of the company's OpenID Connect provider (openid-client): discovery (cached per
 * copy; a failure is retried at the next sign-in), the authorization URL of the code flow with PKCE,
 * state and nonce, and the way back: the code exchanged with the verifier, the ID token checked
 * (signature, issuer, audience, nonce), the user info read when the provider has it.
 *
 * What fails is told apart for the routes: the provider unreachable or broken (502-004, logged without
 * a code or a token) or the answer refused (401-015).
 */
import * as client from 'openid-client';
import { componentLogger } from '@extraction-review/server-kit/logger';
import type { PendingSignIn } from './oidc-state-cookie';

const logger = componentLogger('oidc');

export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The button's name: "Sign in with …". */
  name: string;
  autoCreate: boolean;
  /** A claim name, or a dotted path into the claims (`realm_access.roles`). */
  roleClaim?: string | undefined;
  adminValues: readonly string[];
  /** How long one request to the provider may take, in seconds (openid-client's default is 30). */
  timeoutSeconds?: number | undefined;
}

/** The provider could not be reached, or answered something unusable: 502-004. */
export class ProviderUnreachableError extends Error {
  override name = 'ProviderUnreachableError';
}

/** The provider's answer does not check out (state, code, ID token, an error it sent): 401-015. */
export class ProviderAnswerRefusedError extends Error {
  override name = 'ProviderAnswerRefusedError';
}

/** The claims the app reads of a person signed in by the provider. */
export interface ProviderIdentity {
  issuer: string;
  subject: string;
  claims: Record<string, unknown>;
}

/** HTTP is allowed only for a provider on this machine (the tests' provider); anywhere else HTTPS. */
function isLoopback(url: URL): boolean {
  return url.hostname === 'localhost' || url.hostname === '[::1]' || url.hostname.startsWith('127.');
}

export class OidcProviderClient {
  private configuration: Promise<client.Configuration> | undefined;

  constructor(readonly settings: OidcSettings) {}

  private discover(): Promise<client.Configuration> {
    if (this.configuration === undefined) {
      const issuer = new URL(this.settings.issuer);
      const found = client
        .discovery(
          issuer,
          this.settings.clientId,
          this.settings.clientSecret,
          client.ClientSecretPost(this.settings.clientSecret),
          {
            timeout: this.settings.timeoutSeconds ?? 10,
            ...(issuer.protocol === 'http:' && isLoopback(issuer)
              ? { execute: [client.allowInsecureRequests] }
              : {}),
          },
        )
        .catch((error: unknown) => {
          // Not cached: the next sign-in tries again.
          this.configuration = undefined;
          logger.error(
            { issuer: this.settings.issuer, err: describe(error) },
            'the OpenID Connect provider’s discovery failed',
          );
          throw new ProviderUnreachableError(
            `The sign-in provider (${this.settings.issuer}) could not be reached or its discovery document is not usable.`,
          );
        });
      this.configuration = found;
    }
    return this.configuration;
  }

  /** The authorization URL for this pending sign-in. */
  async authorizationUrl(pending: Omit<PendingSignIn, 'expiresAt'>): Promise<URL> {
    const configuration = await this.discover();
    return client.buildAuthorizationUrl(configuration, {
      redirect_uri: pending.redirectUri,
      scope: 'openid email profile',
      code_challenge: await client.calculatePKCECodeChallenge(pending.verifier),
      code_challenge_method: 'S256',
      state: pending.state,
      nonce: pending.nonce,
    });
  }

  /** The person the provider signed in, from its answer (`?code=…&state=…&iss=…`) to this pending sign-in. */
  async finish(pending: PendingSignIn, callbackQuery: URLSearchParams): Promise<ProviderIdentity> {
    const configuration = await this.discover();
    const currentUrl = new URL(pending.redirectUri);
    currentUrl.search = callbackQuery.toString();
    let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
    try {
      tokens = await client.authorizationCodeGrant(configuration, currentUrl, {
        pkceCodeVerifier: pending.verifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
    } catch (error) {
      throw this.classify(error, 'the code exchange');
    }
    const idClaims = tokens.claims();
    if (idClaims === undefined) throw new ProviderAnswerRefusedError('The provider sent no ID token.');
    let userInfo: Record<string, unknown> = {};
    if (configuration.serverMetadata().userinfo_endpoint !== undefined) {
      try {
        userInfo = await client.fetchUserInfo(configuration, tokens.access_token, idClaims.sub);
      } catch (error) {
        throw this.classify(error, 'the user info request');
      }
    }
    // The ID token's word wins where both say something.
    return { issuer: idClaims.iss, subject: idClaims.sub, claims: { ...userInfo, ...idClaims } };
  }

  /** Network failures and the provider's own failures (5xx) are 502-004; the rest refuses the answer. */
  private classify(error: unknown, step: string): Error {
    const unreachable =
      error instanceof TypeError ||
      (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) ||
      (error instanceof client.ResponseBodyError && error.status >= 500) ||
      (error instanceof client.ClientError && error.code === 'OAUTH_RESPONSE_IS_NOT_CONFORM');
    logger.warn({ issuer: this.settings.issuer, step, err: describe(error) }, `${step} failed`);
    if (unreachable) {
      return new ProviderUnreachableError(`The sign-in provider failed during ${step}; try again.`);
    }
    const reason =
      error instanceof client.AuthorizationResponseError
        ? `the provider answered ${error.error}${error.error_description ? ` (${error.error_description})` : ''}`
        : error instanceof client.ResponseBodyError
          ? `the provider refused the code (${error.error})`
          : error instanceof Error
            ? `${error.message}${claimOf(error)}`
            : 'its answer does not check out';
    return new ProviderAnswerRefusedError(reason);
  }
}

/** Which claim of the ID token failed its check (`nonce`, `iss`, `aud`), never its values. */
function claimOf(error: Error): string {
  // openid-client wraps oauth4webapi's error, whose cause names the claim.
  let cause: unknown = error.cause;
  for (let depth = 0; depth < 3 && cause !== null && typeof cause === 'object'; depth++) {
    const claim = (cause as { claim?: unknown }).claim;
    if (typeof claim === 'string') return ` (the ID token's "${claim}")`;
    cause = (cause as { cause?: unknown }).cause;
  }
  return '';
}

/**
 * An error, for the log, without what could be a secret: the name, the message and its code, never
 * the request, the response body or the cause's URL (a code or a token could be in them).
 */
function describe(error: unknown): { type: string; message: string; code?: string } {
  if (!(error instanceof Error)) return { type: typeof error, message: 'not an Error' };
  const code = (error as { code?: unknown }).code;
  const cause = (error as { cause?: unknown }).cause;
  const causeCode =
    cause instanceof Error && typeof (cause as { code?: unknown }).code === 'string'
      ? `; cause ${String((cause as { code?: unknown }).code)}`
      : '';
  return {
    type: error.name,
    message: `${error.message.slice(0, 300)}${claimOf(error)}${causeCode}`,
    ...(typeof code === 'string' ? { code } : {}),
  };
}

/** The values of a claim (a string, or an array of strings), by name or dotted path. */
export function claimValues(claims: Record<string, unknown>, path: string): string[] {
  let value: unknown = path in claims ? claims[path] : undefined;
  if (value === undefined) {
    value = claims;
    for (const part of path.split('.')) {
      value =
        value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined;
    }
  }
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  return [];
}
