/**
 * The review store as the app server uses it: opened on its engine (migrated), with the queue,
 * operators and sessions over it. `npm start` calls it (server/main.ts); tests call it with a clock.
 */
import path from 'node:path';
import { fileStorageKind, type Env } from '../settings/config';
import { documentLimitsFromEnv, type DocumentLimits } from '@extraction-review/document-text/document-limits';
import { sql } from 'kysely';
import type { DocumentRow } from './db/schema';
import { localQueueBus, postgresQueueBus, type QueueBus, type QueueChange } from './events/queue-bus';
import type { FileStorageKind, KeptFileStorage } from './files/file-storage';
import { openFileStorage, s3SettingsFromEnv, type FileStorageChoice } from './files/open-file-storage';
import { describeSweep, incomingDirOf, sweepOrphanFiles, type OrphanSweep } from './files/orphan-files';
import { PageWordsReader } from './words/page-words';
import { systemClock, type Clock } from '@extraction-review/server-kit/clock';
import { trustedPeers } from '@extraction-review/server-kit/trusted-proxy';
import { WebhookAddressGuard } from '@extraction-review/server-kit/webhook-address';
import { openReviewDatabase, type DatabaseSettings, type ReviewDatabase } from './db/open-database';
import type { ReviewContext } from './review-context';
import { RequestLimits } from './store/request-limits';
import { DEFAULT_LEASE_MS } from './model/queue-state';
import { IntegrationStore } from './store/integration-store';
import { OperatorStore } from './store/operator-store';
import { QueueStore } from './store/queue-store';
import { SETUP_LINK_TTL_MS, SessionStore, type SessionStoreOptions } from './store/session-store';
import { deliveriesOnConfirm, type DeliveryOptions } from './deliveries/deliveries-on-confirm';
import { componentLogger } from '@extraction-review/server-kit/logger';
import { OidcProviderClient, type OidcSettings } from './auth/oidc-provider-client';
import { stateCookieKey } from './auth/oidc-state-cookie';
import { OidcIdentityStore } from './store/oidc-identities';

const logger = componentLogger('review files');

/** DATABASE_POOL_SIZE, DATABASE_STATEMENT_TIMEOUT_MS, DATABASE_CONNECT_TIMEOUT_MS (db/open-database.ts). */
export interface ReviewSettings extends Pick<
  DatabaseSettings,
  'maxConnections' | 'statementTimeoutMs' | 'connectTimeoutMs'
> {
  databaseUrl?: string | undefined;
  dataDir: string;
  /** MIGRATE_ON_START: apply pending migrations at open (default), or only check (db/migrate.ts). */
  migrate?: boolean | undefined;
  leaseMs?: number | undefined;
  sessions?: SessionStoreOptions;
  sso?: { header: string; trustedProxies: readonly string[] } | undefined;
  /** OpenID Connect sign-in (OIDC_*); unset: none. */
  oidc?: OidcSettings | undefined;
  /** PASSWORD_SIGNIN (default true). */
  passwordSignIn?: boolean | undefined;
  /** The one clock (server-kit/clock.ts): server/main.ts passes its own; default the system's. */
  clock?: Clock | undefined;
  /** The way back (deliveries/deliveries-on-confirm.ts): whether confirmed v2 results go to the upstream's RAG. */
  deliveries?: DeliveryOptions | undefined;
  /** What the page words may read of one document (DOCUMENT_MAX_*; over them a `422-012`). */
  documentLimits?: Partial<DocumentLimits> | undefined;
  /** How long the page words may take to read a page (default 60 s; tests shorten it). */
  pageWordsTimeoutMs?: number | undefined;
  /** ALLOW_PRIVATE_WEBHOOKS: webhook targets allowed although not public. Default none. */
  allowPrivateWebhooks?: readonly string[] | undefined;
  /**
   * FILE_STORAGE (files/open-file-storage.ts). Unset: on disk under APP_DATA_DIR/files, whatever the
   * engine (tests); reviewSettingsFromEnv gives the setting's default (`database` with DATABASE_URL).
   */
  fileStorage?: FileStorageChoice | undefined;
}

export type OpenedReview = Omit<ReviewContext, 'isHttps' | 'clientAddress'> & {
  /** Every committed queue change, from this copy and (on PostgreSQL) the others. */
  bus: QueueBus;
  /**
   * The start's sweep of orphaned files (files/orphan-files.ts), run in the background: what it
   * removed, or undefined if it failed (logged). Awaited by close.
   */
  swept: Promise<OrphanSweep | undefined>;
  /** Which addresses integrations' webhooks may reach: when set (integrations) and when sent. */
  webhooks: WebhookAddressGuard;
  /** Where `files` keeps them (FILE_STORAGE), for the start-up's log. */
  fileStorageKind: FileStorageKind;
  close(): Promise<void>;
};

export function reviewSettingsFromEnv(env: Env): ReviewSettings {
  return {
    databaseUrl: env.DATABASE_URL,
    dataDir: env.APP_DATA_DIR,
    migrate: env.MIGRATE_ON_START,
    maxConnections: env.DATABASE_POOL_SIZE,
    statementTimeoutMs: env.DATABASE_STATEMENT_TIMEOUT_MS,
    connectTimeoutMs: env.DATABASE_CONNECT_TIMEOUT_MS,
    leaseMs: env.REVIEW_LEASE_MS,
    documentLimits: documentLimitsFromEnv(env),
    allowPrivateWebhooks: env.ALLOW_PRIVATE_WEBHOOKS,
    fileStorage: { kind: fileStorageKind(env), s3: s3SettingsFromEnv(env) },
    sso:
      env.SSO_HEADER === undefined
        ? undefined
        : { header: env.SSO_HEADER, trustedProxies: env.SSO_TRUSTED_PROXIES },
    oidc: oidcSettingsFromEnv(env),
    passwordSignIn: env.PASSWORD_SIGNIN,
  };
}

function oidcSettingsFromEnv(env: Env): OidcSettings | undefined {
  if (
    env.OIDC_ISSUER === undefined ||
    env.OIDC_CLIENT_ID === undefined ||
    env.OIDC_CLIENT_SECRET === undefined
  )
    return undefined;
  return {
    issuer: env.OIDC_ISSUER,
    clientId: env.OIDC_CLIENT_ID,
    clientSecret: env.OIDC_CLIENT_SECRET,
    name: env.OIDC_NAME,
    autoCreate: env.OIDC_AUTO_CREATE,
    roleClaim: env.OIDC_ROLE_CLAIM,
    adminValues: env.OIDC_ADMIN_VALUES,
  };
}

export async function openReview(settings: ReviewSettings): Promise<OpenedReview> {
  const clock = settings.clock ?? systemClock;
  const database: ReviewDatabase = await openReviewDatabase(settings);
  let bus: QueueBus;
  try {
    bus =
      settings.databaseUrl !== undefined
        ? await postgresQueueBus(
            settings.databaseUrl,
            async (channel, payload) => {
              await sql`select pg_notify(${channel}, ${payload})`.execute(database.db);
            },
            { connectTimeoutMs: settings.connectTimeoutMs },
          )
        : localQueueBus();
  } catch (error) {
    await database.close();
    throw error;
  }
  const toEvent = (row: DocumentRow): QueueChange => ({
    documentId: row.id,
    state: row.state,
    version: row.version,
    holderId: row.state === 'in_review' ? row.holder_id : null,
    at: new Date(row.updated_at).toISOString(),
  });
  let files: KeptFileStorage;
  try {
    files = openFileStorage({
      ...(settings.fileStorage ?? { kind: 'disk' }),
      dataDir: settings.dataDir,
      database,
    });
  } catch (error) {
    await bus.close();
    await database.close();
    throw error;
  }
  // Files older than an hour that no document names (a stop between a file and its row), and writes
  // whose maker is gone. The files' times are the wall clock's, whatever clock the store is given:
  // files' mtimes, S3's LastModified and the file storage's heartbeats (files/database-file-storage.ts,
  // on the system clock too) are what the sweep compares this now with.
  const swept = sweepOrphanFiles({
    database,
    files,
    incomingDir: incomingDirOf(settings.dataDir),
    now: Date.now(),
  }).then(
    (result) => {
      const line = describeSweep(result);
      if (line !== undefined) logger.info(line);
      return result;
    },
    (error: unknown) => {
      logger.error({ err: error }, 'the sweep of orphaned files failed');
      return undefined;
    },
  );
  const webhooks = new WebhookAddressGuard(settings.allowPrivateWebhooks);
  return {
    database,
    bus,
    queue: new QueueStore(
      database,
      settings.leaseMs ?? DEFAULT_LEASE_MS,
      (row) => bus.publish(toEvent(row)),
      // Each confirmation's webhook and feedback, written in its transaction (the way back's outbox).
      deliveriesOnConfirm(settings.deliveries ?? { rag: false }),
    ),
    operators: new OperatorStore(database),
    integrations: new IntegrationStore(database, { webhooks }),
    webhooks,
    sessions: new SessionStore(database, settings.sessions),
    limits: new RequestLimits(database),
    files,
    words: new PageWordsReader(database, files, {
      limits: settings.documentLimits,
      timeoutMs: settings.pageWordsTimeoutMs,
      // The reading thread's copy of a file, for the time it is read: this machine's own.
      tempDir: path.join(settings.dataDir, 'tmp'),
      clock,
    }),
    clock,
    sso:
      settings.sso === undefined
        ? undefined
        : { header: settings.sso.header, trusted: trustedPeers(settings.sso.trustedProxies) },
    oidc:
      settings.oidc === undefined
        ? undefined
        : {
            client: new OidcProviderClient(settings.oidc),
            identities: new OidcIdentityStore(database),
            stateKey: stateCookieKey(settings.oidc.clientSecret),
          },
    passwordSignIn: settings.passwordSignIn ?? true,
    swept,
    fileStorageKind: files.kind,
    close: async () => {
      await swept;
      await files.close();
      await bus.close();
      await database.close();
    },
  };
}

/** How long a set-up link stays valid (an hour: session-store.ts). */
export { SETUP_LINK_TTL_MS };

/**
 * On a start with no admin: a one-time link that creates the first admin. The token is in the
 * URL's fragment, which browsers never send to a server nor put in a Referer: it reaches the app only.
 * None once an admin exists, however made (the command, another copy's link): it would be refused.
 */
export async function firstStartSetupLink(review: OpenedReview, appUrl: string): Promise<string | undefined> {
  if (await review.sessions.adminExists()) return undefined;
  const token = await review.sessions.createSetupToken(review.clock.now(), SETUP_LINK_TTL_MS);
  return `${appUrl}/setup#${token}`;
}
