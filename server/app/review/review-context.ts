/**
 * What the review API's routes share: the store's parts, the clock, and the settings. One per app
 * server (server/app/review/open-review.ts builds it).
 */
import type { Context } from 'hono';
import type { ReviewDatabase } from './db/open-database';
import type { FileStorage } from './files/file-storage';
import type { PageWordsReader } from './words/page-words';
import type { IntegrationStore } from './store/integration-store';
import type { OperatorStore } from './store/operator-store';
import type { QueueStore } from './store/queue-store';
import type { ActiveSession, SessionStore } from './store/session-store';
import type { RequestLimits } from './store/request-limits';
import type { PeerCheck } from '@extraction-review/server-kit/trusted-proxy';
import type { SchemaFieldLike } from '@extraction-review/review-domain/fields/schema-hints';
import type { Clock } from '@extraction-review/server-kit/clock';
import type { OidcProviderClient } from './auth/oidc-provider-client';
import type { OidcIdentityStore } from './store/oidc-identities';

export interface ReviewContext {
  database: ReviewDatabase;
  queue: QueueStore;
  operators: OperatorStore;
  /** The pipelines that send documents through the gateway (/v2, /v1). */
  integrations: IntegrationStore;
  sessions: SessionStore;
  /** The counters of the sign-in, link and integration limits, in the store (every copy sees them). */
  limits: RequestLimits;
  /** The one clock (server-kit/clock.ts): every "now" the routes and stores act on. Tests move it. */
  clock: Clock;
  /** Single sign-on: the header naming the person, believed only from these peers. */
  sso?: { header: string; trusted: PeerCheck } | undefined;
  /**
   * OpenID Connect sign-in (OIDC_*): the provider's client, the identities linked to operators, and
   * the key that signs the `er_oidc` cookie of a sign-in under way.
   */
  oidc?: { client: OidcProviderClient; identities: OidcIdentityStore; stateKey: Buffer } | undefined;
  /** PASSWORD_SIGNIN: false refuses `POST /api/session` (403-008). Default true. */
  passwordSignIn?: boolean | undefined;
  /** Where documents' files are kept; without it, `…/file` answers 404. */
  files?: FileStorage | undefined;
  /** Reads (once) the words of the kept files' pages; without it, `…/pages/{n}/words` answers 404. */
  words?: PageWordsReader | undefined;
  /**
   * A v2 model's data schema, by model id (upstream/model-schemas.ts): the rules' known fields read it
   * beside the documents'. Without it (no v2 upstream, tests), the documents' fields alone.
   */
  modelSchemas?: ((modelId: string) => Promise<readonly SchemaFieldLike[] | null>) | undefined;
  /** Whether the browser reached us over HTTPS (directly or through a trusted proxy): cookies `Secure`. */
  isHttps: (c: Context) => boolean;
  /** The client's address: the connection's peer, or the one a trusted proxy (TRUST_PROXY) reports. */
  clientAddress: (c: Context) => string;
  /**
   * The app's origin for a request without an `Origin` header: PUBLIC_URL's, else the host and
   * protocol the request (or a trusted proxy) names. Unset: the request URL's.
   */
  appOrigin?: ((c: Context) => string) | undefined;
}

/** Hono's context variables of a signed-in request. */
export interface ReviewEnv {
  Variables: { session: ActiveSession };
}
