/**
 * `npm start` / `npm run serve`: the app server, with the embedded reference service as the upstream
 * of every API version that has no UPSTREAM_<VERSION>_URL.
 *
 * Job events: when the embedded service is the v2 upstream, it gets one more webhook on every model,
 * pointing at this app server's /hooks/v2 with a secret made at each start, and the app server
 * advertises its id (/api/app-config). With a configured v2 upstream, WEBHOOK_V2_SECRET and
 * WEBHOOK_V2_IDS describe the webhook set up on that upstream instead.
 *
 * Several copies on one PostgreSQL (DATABASE_URL) share one upstream: an embedded reference service
 * per copy is refused (each would hold its own jobs) unless EMBEDDED_REFERENCE_WITH_DATABASE=true.
 * `/api/health/ready` checks what serving needs (app/health/); SIGTERM drains the copy, lets requests
 * in flight finish and exits (app/shutdown.ts, SHUTDOWN_DRAIN_MS, SHUTDOWN_GRACE_MS).
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { systemClock, type Clock } from '@extraction-review/server-kit/clock';
import { componentLogger, createLogger, useRootLogger } from '@extraction-review/server-kit/logger';
import { createApp, type AppOptions, type UpstreamTarget } from '@extraction-review/app-server/create-app';
import { AppEventHub } from '@extraction-review/app-server/events/app-event-hub';
import { Readiness } from '@extraction-review/app-server/health/readiness';
import { reviewReadinessChecks } from '@extraction-review/app-server/health/review-checks';
import { listen, type RunningServer } from '@extraction-review/app-server/listen';
import { forwardQueueEvents } from '@extraction-review/app-server/events/forward-queue-events';
import { MigrationFailed, SchemaRefusal } from '@extraction-review/app-server/review/db/migrate';
import { installProcessGuards } from '@extraction-review/app-server/process-guards';
import { onShutdownSignals, shutDown } from '@extraction-review/app-server/shutdown';
import { readEnv, repoRoot, SETTING_DEFAULTS, type Env } from '@extraction-review/app-server/settings/config';
import { mountReview } from '@extraction-review/app-server/review/http/mount-review';
import { cachedModelSchemas } from '@extraction-review/app-server/upstream/model-schemas';
import { V2Upstream } from '@extraction-review/app-server/upstream/v2-upstream';
import { JobFollower } from '@extraction-review/app-server/review/intake/job-follower';
import { EMBEDDED_REFERENCE_IDENTITY } from '@extraction-review/app-server/review/intake/upstream-identity';
import { DeliveryWorker } from '@extraction-review/app-server/review/deliveries/delivery-worker';
import { Housekeeping } from '@extraction-review/app-server/review/background/housekeeping';
import { AppMetrics } from '@extraction-review/app-server/metrics/app-metrics';
import { metricsOnlyApp } from '@extraction-review/app-server/metrics/metrics-route';
import { PurgeLog } from '@extraction-review/app-server/review/store/purge-log';
import {
  firstStartSetupLink,
  openReview,
  reviewSettingsFromEnv,
  type OpenedReview,
} from '@extraction-review/app-server/review/open-review';
import type * as ReferenceEntry from '@extraction-review/reference/create-reference-service';
import type { ReferenceServiceOptions } from '@extraction-review/reference/create-reference-service';
import type { ExtraWebhook } from '@extraction-review/reference/models/model-catalog';
import {
  readReferenceSettings,
  type ReferenceSettings,
} from '@extraction-review/reference/reference-settings';

/** What main needs of the embedded reference service (server/reference/create-reference-service.ts). */
interface ReferenceService {
  url: string;
  apiKey: string;
  close(): Promise<void>;
}

class StartupError extends Error {}

/**
 * The id of the webhook the embedded reference service gets on every model. Fixed, so that the
 * `webhook_ids` of jobs enqueued before a restart still name it when their delivery resumes.
 */
const EMBEDDED_WEBHOOK_ID = '5f0c2a7e-8d41-4b6a-9e3c-7a1d2b4c6e80';
const EMBEDDED_WEBHOOK_NAME = 'extraction-review';

/** The metrics' own listener, closed at shutdown with the app's. */
function metricsListeners(server: RunningServer | undefined): { name: string; close(): Promise<unknown> }[] {
  return server === undefined ? [] : [{ name: 'the metrics listener', close: () => server.close() }];
}

/** The start-up's lines: where it listens, which store, what is off (docs/operations.md, "Logs"). */
const log = componentLogger('main');

async function main(): Promise<void> {
  // First: what escapes every handler and loop is logged, and the copy stays up when that is safe.
  installProcessGuards();
  const env = readEnvOrExplain();
  // The one logger of the process (LOG_FORMAT, LOG_LEVEL): every module's lines go through it.
  useRootLogger(createLogger({ format: env.LOG_FORMAT, level: env.LOG_LEVEL }));
  const upstreamTimeoutMs = env.UPSTREAM_TIMEOUT_MS;
  checkUpstreamPairs(env);
  checkOneUpstream(env);
  if (!env.DEV) checkBuilt(env.STATIC_DIR);

  // The one clock (server-kit/clock.ts) of the app server, its review store and the embedded reference
  // service: every "now" that governs what they do is read from it.
  const clock = systemClock;
  const needsReference = env.UPSTREAM_V2_URL === undefined || env.UPSTREAM_V1_URL === undefined;
  // The embedded service's own settings (REFERENCE_*, DOCUMENT_MAX_*), read only when it is started.
  const referenceSettings = needsReference ? readReferenceSettingsOrExplain() : undefined;
  const embeddedV2 = env.UPSTREAM_V2_URL === undefined;
  if (embeddedV2 && (env.WEBHOOK_V2_SECRET !== undefined || env.WEBHOOK_V2_IDS.length > 0)) {
    log.warn(
      'WEBHOOK_V2_SECRET and WEBHOOK_V2_IDS are ignored: they describe a webhook of a configured v2 ' +
        'upstream (UPSTREAM_V2_URL); the embedded reference service gets a webhook of its own.',
    );
  }
  // The embedded service's webhook to this server: the URL is read at each call, as the port is known
  // for sure only once the server listens (PORT=0).
  let hookUrl = `${localUrl(env.HOST, env.PORT)}/hooks/v2`;
  const hookV2: NonNullable<AppOptions['webhooks']>['v2'] = embeddedV2
    ? { secret: randomBytes(32).toString('hex'), ids: [EMBEDDED_WEBHOOK_ID] }
    : env.WEBHOOK_V2_SECRET !== undefined
      ? { secret: env.WEBHOOK_V2_SECRET, ids: env.WEBHOOK_V2_IDS }
      : undefined;
  const reference = referenceSettings
    ? await startReference(
        referenceSettings,
        embeddedV2 && hookV2
          ? [
              {
                id: EMBEDDED_WEBHOOK_ID,
                name: EMBEDDED_WEBHOOK_NAME,
                url: () => hookUrl,
                secret: hookV2.secret,
              },
            ]
          : [],
        clock,
      )
    : undefined;
  const embedded: UpstreamTarget | undefined = reference &&
    referenceSettings && {
      url: reference.url,
      apiKey: reference.apiKey,
      embedded: true,
      identity: EMBEDDED_REFERENCE_IDENTITY,
      // The reference service writes its URLs with REFERENCE_PUBLIC_URL when that is set.
      aliases:
        referenceSettings.REFERENCE_PUBLIC_URL !== undefined ? [referenceSettings.REFERENCE_PUBLIC_URL] : [],
    };
  const configured = (url: string | undefined, apiKey: string | undefined): UpstreamTarget | undefined =>
    url !== undefined && apiKey !== undefined ? { url, apiKey } : undefined;

  const upstream = {
    v2: configured(env.UPSTREAM_V2_URL, env.UPSTREAM_V2_API_KEY) ?? embedded,
    v1: configured(env.UPSTREAM_V1_URL, env.UPSTREAM_V1_API_KEY) ?? embedded,
  };
  const events = new AppEventHub({ clock });
  // The way back sends confirmed v2 results to RAG only where the upstream offers it: the embedded
  // reference service's extension (the hosted API has none; docs/gateway.md).
  const review = await openReviewStore(env, reference, { rag: upstream.v2?.embedded === true }, clock);
  // Every change of the team queue, this copy's and (with PostgreSQL) the others', to the browsers.
  forwardQueueEvents(review.bus, events);
  // The metrics (METRICS_TOKEN, METRICS_PORT): kept only when something serves them.
  const metrics =
    env.METRICS_TOKEN !== undefined || env.METRICS_PORT !== undefined
      ? new AppMetrics({ review, clock })
      : undefined;
  // Documents the app uploads enter the queue once their result is in.
  const follower = new JobFollower({ review, upstream });
  follower.start();
  // Confirmed documents' webhooks and feedback (the way back): at once after a confirmation, and every
  // second for what is due (retries, and what a previous run or another copy left).
  const deliveries = new DeliveryWorker({
    database: review.database,
    clock: review.clock,
    upstream,
    webhooks: review.webhooks,
    onAttempt: metrics && ((outcome) => metrics.observeDelivery(outcome)),
  });
  review.bus.subscribe({
    onChange: (change) => {
      if (change.state === 'confirmed') deliveries.wake();
    },
  });
  deliveries.start();
  // Expired sessions and spent links swept, and the models' retention rules applied (issue 22).
  const housekeeping = new Housekeeping({
    review,
    purgeLog: new PurgeLog(review.database),
    intervalMs: env.RETENTION_SWEEP_INTERVAL_MS ?? SETTING_DEFAULTS.RETENTION_SWEEP_INTERVAL_MS,
  });
  housekeeping.start();
  const readiness = new Readiness({
    timeoutMs: env.READY_CHECK_TIMEOUT_MS ?? SETTING_DEFAULTS.READY_CHECK_TIMEOUT_MS,
    checks: reviewReadinessChecks(review, upstream),
  });
  const app = createApp({
    readiness,
    upstream,
    staticDir: env.DEV ? null : env.STATIC_DIR,
    upstreamTimeoutMs,
    webhooks: { v2: hookV2 },
    events,
    v1ConfidenceThresholds: env.V1_CONFIDENCE_THRESHOLDS,
    hosts: { publicUrl: env.PUBLIC_URL, allowedHosts: env.ALLOWED_HOSTS, trustProxy: env.TRUST_PROXY },
    metrics: metrics && { metrics, token: env.METRICS_TOKEN },
    review: mountReview(
      {
        ...review,
        // The rules' known fields read a v2 model's data schema too (the reference service's extension).
        modelSchemas: upstream.v2 && cachedModelSchemas(new V2Upstream(upstream.v2), { clock }),
      },
      {
        hosts: { publicUrl: env.PUBLIC_URL, trustProxy: env.TRUST_PROXY },
        intake: { tempDir: path.join(env.APP_DATA_DIR, 'incoming'), onDocument: (id) => follower.follow(id) },
      },
    ),
  });
  warnAboutHosts(env, !embeddedV2 && hookV2 !== undefined);
  if (referenceSettings?.REFERENCE_ALLOWED_HOSTS.includes('*')) {
    log.warn("REFERENCE_ALLOWED_HOSTS contains *: the reference service's Host check is off.");
  }

  let server: RunningServer;
  try {
    server = await listen(app, {
      host: env.HOST,
      port: env.PORT,
      // MAX_CONNECTIONS, default 1000 (packages/server-kit/src/connection-limits.ts): past it new connections
      // are closed at once, so the descriptors left serve the store, the files and health checks.
      limits: { maxConnections: env.MAX_CONNECTIONS },
    });
  } catch (error) {
    await follower.stop();
    await deliveries.stop();
    await housekeeping.stop();
    await review.close();
    await reference?.close();
    throw listenError(error, 'PORT', env.HOST, env.PORT);
  }
  // The metrics' own listener (METRICS_PORT), on the same interface as the app.
  let metricsServer: RunningServer | undefined;
  if (metrics !== undefined && env.METRICS_PORT !== undefined) {
    try {
      metricsServer = await listen(metricsOnlyApp(metrics), { host: env.HOST, port: env.METRICS_PORT });
    } catch (error) {
      await server.close({ graceMs: 0 });
      await follower.stop();
      await deliveries.stop();
      await housekeeping.stop();
      await review.close();
      await reference?.close();
      throw listenError(error, 'METRICS_PORT', env.HOST, env.METRICS_PORT, 'The metrics listener');
    }
  }
  // From the moment it listens: a SIGTERM during the start-up lines below drains like any other.
  onShutdownSignals((signal) =>
    shutDown(signal, {
      readiness,
      server,
      drainMs: env.SHUTDOWN_DRAIN_MS ?? SETTING_DEFAULTS.SHUTDOWN_DRAIN_MS,
      graceMs: env.SHUTDOWN_GRACE_MS ?? SETTING_DEFAULTS.SHUTDOWN_GRACE_MS,
      endStreams: () => events.close(),
      listeners: metricsListeners(metricsServer),
      workers: [
        { name: 'the job follower', stop: () => follower.stop() },
        { name: 'the delivery worker', stop: () => deliveries.stop() },
        { name: 'the housekeeping', stop: () => housekeeping.stop() },
      ],
      resources: [
        { name: 'the review store', close: () => review.close() },
        ...(reference ? [{ name: 'the embedded reference service', close: () => reference.close() }] : []),
      ],
    }),
  );
  const listening = new URL(server.url);
  hookUrl = `${localUrl(listening.hostname, Number(listening.port))}/hooks/v2`;

  log.info(
    metrics === undefined
      ? 'Metrics: off (set METRICS_TOKEN, or METRICS_PORT for a listener of their own)'
      : `Metrics: on (${[
          env.METRICS_TOKEN !== undefined
            ? `${browserUrl(server.url)}/metrics with the bearer token`
            : undefined,
          metricsServer !== undefined ? `${browserUrl(metricsServer.url)}/metrics, no token` : undefined,
        ]
          .filter((where) => where !== undefined)
          .join('; ')})`,
  );
  if (env.DEV) {
    // Vite serves the app in development and prints its own URL; this server answers /api only.
    log.info(
      `extraction-review API for development at ${browserUrl(server.url)}/api (upstream: ${describe(upstream)})`,
    );
  } else {
    log.info(`extraction-review is running at ${browserUrl(server.url)} (upstream: ${describe(upstream)})`);
  }
  const setupLink = await firstStartSetupLink(review, browserUrl(server.url));
  if (setupLink !== undefined) {
    log.info(
      `No admin yet: open this one-time link within an hour to create the first admin:\n  ${setupLink}\n` +
        '(or: npm run operators -- add NAME --role admin)',
    );
  }
  log.info(
    hookV2 === undefined
      ? "Job events: off (set WEBHOOK_V2_SECRET and WEBHOOK_V2_IDS to receive the v2 upstream's webhooks)"
      : `Job events: on (webhooks received at /hooks/v2; webhook id${hookV2.ids.length === 1 ? '' : 's'} ` +
          `${hookV2.ids.join(', ') || 'none given'})`,
  );
}

/** The review store (APP_DATA_DIR, or DATABASE_URL), migrated; its start-up line says which. */
async function openReviewStore(
  env: Env,
  reference: ReferenceService | undefined,
  deliveries: { rag: boolean },
  clock: Clock,
): Promise<OpenedReview> {
  let review: OpenedReview;
  try {
    review = await openReview({ ...reviewSettingsFromEnv(env), deliveries, clock });
  } catch (error) {
    await reference?.close();
    // A schema this code cannot serve, or a migration that failed, says itself what to do.
    if (error instanceof SchemaRefusal || error instanceof MigrationFailed) {
      throw new StartupError(error.message);
    }
    throw new StartupError(
      `The review store cannot be opened (${error instanceof Error ? error.message : String(error)}). ` +
        (env.DATABASE_URL !== undefined
          ? 'Check DATABASE_URL and that the PostgreSQL server is running and reachable.'
          : `Check that APP_DATA_DIR (${env.APP_DATA_DIR}) is writable.`),
    );
  }
  const operators = await review.operators.count();
  const integrations = (await review.integrations.list()).filter((i) => i.revokedAt === null).length;
  log.info(
    `Review store: ${review.database.engine === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : `embedded, in ${env.APP_DATA_DIR}`}; ` +
      `files: ${describeFileStorage(review.fileStorageKind, env)}; ` +
      `${operators} operator${operators === 1 ? '' : 's'}; ` +
      `${integrations} integration${integrations === 1 ? '' : 's'} sending through /v2 and /v1 ` +
      '(npm run integrations -- add NAME)',
  );
  if (env.DATABASE_URL !== undefined && review.fileStorageKind === 'disk') {
    log.warn(
      "FILE_STORAGE=disk with DATABASE_URL: documents' files stay on this machine's disk, and a copy on " +
        'another machine cannot show them (500-005). Use FILE_STORAGE=database or s3 for several copies.',
    );
  }
  return review;
}

/** Where the files go, for the start-up line: never a credential. */
function describeFileStorage(kind: OpenedReview['fileStorageKind'], env: Env): string {
  if (kind === 'disk') return `on this machine's disk (${path.join(env.APP_DATA_DIR, 'files')})`;
  if (kind === 's3')
    return `S3 bucket ${env.S3_BUCKET ?? ''}${env.S3_ENDPOINT !== undefined ? ` at ${new URL(env.S3_ENDPOINT).origin}` : ''}`;
  return 'in the review store (FILE_STORAGE=database)';
}

function readEnvOrExplain(): Env {
  // A .env file in the repository (see .env.example); the environment itself takes precedence.
  const envFile = path.join(repoRoot, '.env');
  if (existsSync(envFile)) process.loadEnvFile(envFile);
  try {
    return readEnv(process.env);
  } catch (error) {
    throw new StartupError(error instanceof Error ? error.message : String(error));
  }
}

/**
 * The embedded reference service's settings, with its data under the repository's data/ whatever the
 * working directory (run alone, the service keeps it under its own working directory).
 */
function readReferenceSettingsOrExplain(): ReferenceSettings {
  try {
    return readReferenceSettings({
      REFERENCE_DATA_DIR: path.join(repoRoot, 'data', 'reference'),
      ...process.env,
    });
  } catch (error) {
    throw new StartupError(error instanceof Error ? error.message : String(error));
  }
}

function warnAboutHosts(env: Env, upstreamWebhook: boolean): void {
  if (env.ALLOWED_HOSTS.includes('*')) {
    log.warn(
      'ALLOWED_HOSTS contains *: the Host check is off, so a web page can reach this server through DNS ' +
        'rebinding and read its answers. List the names the server is reached at instead.',
    );
  }
  if (upstreamWebhook && env.PUBLIC_URL === undefined && env.ALLOWED_HOSTS.length === 0) {
    log.warn(
      "The v2 upstream's webhook (WEBHOOK_V2_SECRET) calls this server under a public name: set PUBLIC_URL " +
        '(or ALLOWED_HOSTS) to it, or its calls are refused (421) by the Host check.',
    );
  }
}

function checkUpstreamPairs(env: Env): void {
  for (const version of ['V2', 'V1'] as const) {
    const url = env[`UPSTREAM_${version}_URL`];
    const key = env[`UPSTREAM_${version}_API_KEY`];
    if (url !== undefined && key === undefined) {
      throw new StartupError(
        `UPSTREAM_${version}_URL is set (${url}) but UPSTREAM_${version}_API_KEY is not. ` +
          `Set the key, or unset both to use the embedded reference service.`,
      );
    }
    if (url === undefined && key !== undefined) {
      throw new StartupError(
        `UPSTREAM_${version}_API_KEY is set but UPSTREAM_${version}_URL is not. ` +
          `Set the URL too (for the hosted service: ${version === 'V2' ? 'https://api-v2.mindee.net' : 'https://api.mindee.net'}), ` +
          'or unset both to use the embedded reference service.',
      );
    }
  }
}

/**
 * With DATABASE_URL, every copy must send to one upstream: an embedded reference service per copy
 * holds its own jobs, so another copy following them gets 404 and marks their documents failed.
 */
function checkOneUpstream(env: Env): void {
  if (env.DATABASE_URL === undefined) return;
  const missing = (['V2', 'V1'] as const).filter((version) => env[`UPSTREAM_${version}_URL`] === undefined);
  if (missing.length === 0) return;
  const what =
    `DATABASE_URL is set but ${missing.map((v) => `UPSTREAM_${v}_URL`).join(' and ')} ` +
    `${missing.length === 1 ? 'is' : 'are'} not, so this copy would start an embedded reference service of its own`;
  if (env.EMBEDDED_REFERENCE_WITH_DATABASE) {
    log.warn(
      `${what} (EMBEDDED_REFERENCE_WITH_DATABASE=true). Run only this one copy on this database: another ` +
        "copy would not find this service's jobs and would mark their documents failed.",
    );
    return;
  }
  throw new StartupError(
    `${what}. Copies sharing a database must share one upstream: each embedded service holds only its own ` +
      'jobs, and another copy following them gets 404 and marks their documents failed. Point every copy at ' +
      'one upstream: run one reference service (`npm run reference`) or use the hosted API, and set ' +
      'UPSTREAM_V2_URL, UPSTREAM_V2_API_KEY, UPSTREAM_V1_URL and UPSTREAM_V1_API_KEY to it on every copy. ' +
      'For a single copy on PostgreSQL, set EMBEDDED_REFERENCE_WITH_DATABASE=true.',
  );
}

function checkBuilt(staticDir: string): void {
  if (!existsSync(path.join(staticDir, 'index.html'))) {
    throw new StartupError(
      `The browser app is not built: ${path.join(staticDir, 'index.html')} is missing. ` +
        'Run `npm run build` first (or `npm start`, which builds and then serves).',
    );
  }
}

async function startReference(
  settings: ReferenceSettings,
  extraWebhooks: readonly ExtraWebhook[],
  clock: Clock,
): Promise<ReferenceService> {
  // Loaded only when needed: a configured upstream for both versions never loads its dependencies
  // (SQLite, pdf.js, sharp).
  let reference: typeof ReferenceEntry;
  try {
    reference = await import('@extraction-review/reference/create-reference-service');
  } catch (error) {
    throw new StartupError(
      `The embedded reference service could not be loaded (${error instanceof Error ? error.message : String(error)}). ` +
        'Set UPSTREAM_V2_URL/UPSTREAM_V2_API_KEY and UPSTREAM_V1_URL/UPSTREAM_V1_API_KEY to use another upstream.',
    );
  }
  try {
    return await reference.startReferenceService(
      embeddedReferenceOptions(settings, reference.referenceOptionsFromSettings, extraWebhooks, clock),
    );
  } catch (error) {
    throw listenError(
      error,
      'REFERENCE_PORT',
      settings.REFERENCE_HOST,
      settings.REFERENCE_PORT,
      'The embedded reference service',
    );
  }
}

/**
 * The embedded reference service's options: its own settings (REFERENCE_*, DOCUMENT_MAX_*,
 * server/reference/reference-settings.ts), a key made at each start unless REFERENCE_API_KEY fixes one,
 * this server's webhook on every model, and the one clock.
 */
function embeddedReferenceOptions(
  settings: ReferenceSettings,
  fromSettings: (settings: ReferenceSettings) => Omit<ReferenceServiceOptions, 'apiKey'>,
  extraWebhooks: readonly ExtraWebhook[],
  clock: Clock,
): ReferenceServiceOptions {
  return {
    ...fromSettings(settings),
    apiKey: settings.REFERENCE_API_KEY ?? randomBytes(24).toString('base64url'),
    extraWebhooks,
    clock,
  };
}

function listenError(
  error: unknown,
  portName: string,
  host: string,
  port: number,
  what = 'The app server',
): Error {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'EADDRINUSE') {
    return new StartupError(
      `${what} cannot listen on ${host}:${port}: the port is already in use. ` +
        `Stop the other process or choose another port with ${portName}=<port>.`,
    );
  }
  if (code === 'EACCES' || code === 'EADDRNOTAVAIL') {
    return new StartupError(
      `${what} cannot listen on ${host}:${port} (${code}). Check HOST and ${portName}.`,
    );
  }
  return error instanceof Error ? error : new Error(String(error));
}

/** This machine's URL of a server listening on `host`: a wildcard address is reached on loopback. */
function localUrl(host: string, port: number): string {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  const reachable = bare === '0.0.0.0' || bare === '' ? '127.0.0.1' : bare === '::' ? '::1' : bare;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}

/** The address to open in a browser: a wildcard host is reachable as localhost. */
function browserUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.hostname === '0.0.0.0' || parsed.hostname === '[::]') parsed.hostname = 'localhost';
  return parsed.origin;
}

function describe(upstream: { v2?: UpstreamTarget; v1?: UpstreamTarget }): string {
  const one = (target: UpstreamTarget | undefined) =>
    target === undefined
      ? 'none'
      : target.embedded === true
        ? `embedded reference service at ${target.url}`
        : new URL(target.url).origin;
  const v2 = one(upstream.v2);
  const v1 = one(upstream.v1);
  return v2 === v1 ? v2 : `v2 ${v2}, v1 ${v1}`;
}

main().catch((error: unknown) => {
  if (error instanceof StartupError) {
    log.fatal(`extraction-review cannot start: ${error.message}`);
  } else {
    log.fatal({ err: error }, 'extraction-review cannot start');
  }
  process.exit(1);
});
