// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- oidc-provider ships no types, and the e2e project compiles this file without the rest of the test kit
/// <reference path="./oidc-provider.d.ts" />
/**
 * A real OpenID Connect provider on 127.0.0.1 for tests (oidc-provider, the certified one): one
 * confidential client, a few accounts, and an interaction that signs in the account the test chose
 * at once (no form), with consent given. The code flow, PKCE, the ID token's signature and nonce,
 * the user info: all the provider's own.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export interface TestAccount {
  email?: string;
  email_verified?: boolean;
  preferred_username?: string;
  name?: string;
  groups?: string[];
}

export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The accounts by subject; change them between sign-ins (their groups, their e-mail). */
  accounts: Map<string, TestAccount>;
  /** Adds a redirect URI of the client: before the provider's first request (it is made then). */
  allowRedirectUri(uri: string): void;
  /** The subject the next interaction signs in. */
  signInAs(subject: string): void;
  /** Follows the provider's redirects from an authorization URL to the redirect URI: its query string. */
  authorize(authorizationUrl: string, redirectUri: string): Promise<string>;
  close(): Promise<void>;
}

export async function startTestProvider(options: {
  redirectUris?: string[];
  accounts: Record<string, TestAccount>;
}): Promise<TestProvider> {
  const redirectUris = [...(options.redirectUris ?? [])];
  const accounts = new Map(Object.entries(options.accounts));
  let next = Object.keys(options.accounts)[0] ?? '';
  const clientId = 'extraction-review';
  const clientSecret = 'test-client-secret-0123456789abcdef';
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  // Made at the first request, with the redirect URIs known then (the apps' ports are chosen after
  // the provider's address is given to them).
  const makeProvider = () => {
    const provider = new Provider(issuer, {
      clients: [
        {
          client_id: clientId,
          client_secret: clientSecret,
          redirect_uris: redirectUris,
          grant_types: ['authorization_code'],
          response_types: ['code'],
          token_endpoint_auth_method: 'client_secret_post',
        },
      ],
      findAccount: (_ctx: unknown, subject: string) => {
        const account = accounts.get(subject);
        if (account === undefined) return undefined;
        return { accountId: subject, claims: () => ({ sub: subject, ...account }) };
      },
      claims: {
        openid: ['sub'],
        email: ['email', 'email_verified'],
        profile: ['preferred_username', 'name', 'groups'],
      },
      features: { devInteractions: { enabled: false } },
      interactions: {
        url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}`,
      },
      // Consent given at once, for what the client asked.
      loadExistingGrant: async (ctx: {
        oidc: { client: { clientId: string }; session: { accountId?: string }; provider: Provider };
      }) => {
        const grant = new ctx.oidc.provider.Grant({
          clientId: ctx.oidc.client.clientId,
          accountId: ctx.oidc.session.accountId,
        });
        grant.addOIDCScope('openid email profile');
        await grant.save();
        return grant;
      },
      cookies: { keys: ['oidc-test-provider-cookie-key'] },
      // Set, so that the provider does not print a notice for each default.
      ttl: { Interaction: 600, Session: 600, Grant: 600, AccessToken: 600, IdToken: 600 },
    });
    // The interaction: the chosen account signs in, no form.
    provider.use(async (ctx, nextMiddleware) => {
      if (ctx.path.startsWith('/interaction/')) {
        const returnTo = await provider.interactionResult(
          ctx.req,
          ctx.res,
          { login: { accountId: next } },
          { mergeWithLastSubmission: false },
        );
        ctx.redirect(returnTo);
        return;
      }
      await nextMiddleware();
    });
    return provider.callback();
  };
  let handle: ReturnType<Provider['callback']> | undefined;
  server.on('request', (req, res) => {
    handle ??= makeProvider();
    handle(req, res);
  });

  return {
    issuer,
    clientId,
    clientSecret,
    accounts,
    allowRedirectUri(uri) {
      if (handle !== undefined)
        throw new Error('the test provider has started serving: allow redirect URIs first');
      redirectUris.push(uri);
    },
    signInAs(subject) {
      next = subject;
    },
    async authorize(authorizationUrl, redirectUri) {
      const jar = new Map<string, string>();
      let url = authorizationUrl;
      for (let hop = 0; hop < 10; hop++) {
        if (url.startsWith(redirectUri)) return new URL(url).search;
        const response = await fetch(url, {
          redirect: 'manual',
          headers: { Cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
        });
        for (const line of response.headers.getSetCookie()) {
          const [pair = ''] = line.split(';');
          const at = pair.indexOf('=');
          jar.set(pair.slice(0, at), pair.slice(at + 1));
        }
        const location = response.headers.get('location');
        if (location === null) {
          throw new Error(
            `the provider answered ${response.status} without a redirect: ${await response.text()}`,
          );
        }
        url = new URL(location, url).href;
      }
      throw new Error('the provider redirected more than 10 times');
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
