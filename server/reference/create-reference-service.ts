/**
 * Entry points of the reference service: a local, complete stand-in for the hosted extraction API.
 *
 * - `startReferenceService` opens the data directory and listens on its own port (what `npm start`
 *   embeds as the default upstream, and what `npm run reference` runs alone).
 * - `openReferenceService` wires the same service without a socket, for in-process use
 *   (`app.request()`); `createReferenceApp` is the bare Hono app factory.
 * - `referenceOptionsFromSettings` maps the service's own settings (reference-settings.ts: REFERENCE_*,
 *   DOCUMENT_MAX_*) to the options; an embedder passes its own settings of the same names.
 *
 * Layers, each inner one behind a small interface: routes/ → jobs/ → store/ → extract/.
 */
import { readFileSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { ServerType } from '@hono/node-server';
import type { Hono } from 'hono';
import {
  documentLimits,
  documentLimitsFromEnv,
  type DocumentLimits,
} from '@extraction-review/document-text/document-limits';
import { warmUpDocumentInspection } from '@extraction-review/document-text/inspect-document';
import { processExtractor } from '@extraction-review/document-text/threads/threaded-extractor';
import { addressPolicy } from './fetch/address-policy';
import type { Resolver } from './fetch/download-url';
import { systemClock, type Clock } from '@extraction-review/server-kit/clock';
import { DEFAULT_CONCURRENCY, JobService } from './jobs/job-service';
import {
  loadModelCatalog,
  withExtraWebhooks,
  type ExtraWebhook,
  type ModelCatalog,
} from './models/model-catalog';
import { openRag } from './rag/rag-extension';
import { createReferenceApp } from './routes/create-reference-app';
import { DEFAULT_MAX_FILE_BYTES, DEFAULT_URL_TIMEOUT_MS } from './routes/enqueue';
import { DEFAULT_RATE_LIMITS } from './routes/rate-limit';
import { serviceUrls } from './routes/service-urls';
import { hostPolicy, isLoopbackName } from '@extraction-review/server-kit/host-policy';
import {
  guardConnections,
  serverOptions,
  withDefaults,
  type ConnectionLimits,
} from '@extraction-review/server-kit/connection-limits';
import {
  answerClientErrors,
  cutSlowRequest,
  requestListener,
} from '@extraction-review/server-kit/node-listener';
import { trustedPeers } from '@extraction-review/server-kit/trusted-proxy';
import { FileStore } from './store/file-store';
import { SqliteJobStore } from './store/sqlite-job-store';
import { V1JobService } from './v1/v1-job-service';
import { V1Store } from './v1/v1-store';
import { announceV1Job } from './v1/v1-webhooks';
import { openWebhooks, type WebhooksExtensionOptions } from './webhooks/webhooks-extension';
import { DEFAULT_MODELS_FILE, type ReferenceSettings } from './reference-settings';
import { componentLogger } from '@extraction-review/server-kit/logger';

const logger = componentLogger('reference');

export { createReferenceApp, type ReferenceAppDeps } from './routes/create-reference-app';

export { DEFAULT_MODELS_FILE };
/** Heap cap of each extraction thread: ample for a 100 MB PDF, short of exhausting the machine. */
const EXTRACTION_HEAP_MB = 2048;

export interface ReferenceServiceOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** 0 = any free port. Default 0. */
  port?: number;
  /** The key clients must send in `Authorization` (bare, no `Bearer`). */
  apiKey: string;
  /** Holds `reference.sqlite` and `files/`; created if missing. */
  dataDir: string;
  /** Default server/reference/models.json. */
  modelsFile?: string;
  /** Base of the absolute URLs the service writes; default the address it listens on. */
  publicUrl?: string;
  /**
   * Peers whose `X-Forwarded-Proto`/`X-Forwarded-Host`/`Forwarded` headers give the URLs' base when no
   * `publicUrl` is set: `loopback`, addresses, CIDR ranges. Default nobody.
   */
  trustProxy?: readonly string[];
  /**
   * Hosts answered to besides its own addresses and `publicUrl`'s (REFERENCE_ALLOWED_HOSTS; see
   * packages/server-kit/src/host-policy.ts). The Host check is on when the service listens on loopback or this
   * list is given: listening on a public interface with no list, it answers to any host (its key
   * guards it).
   */
  allowedHosts?: readonly string[];
  /**
   * Open connections and time limits (packages/server-kit/src/connection-limits.ts); default the app server's
   * (1000 connections, 30 s for headers and an unauthenticated body). Tests pass short ones.
   */
  connectionLimits?: { [K in keyof ConnectionLimits]?: number | undefined };
  /** Largest accepted document (file, decoded file_base64, url download). Default 100 MB. */
  maxFileBytes?: number;
  /**
   * What one document may cost to read (pages, rendered and decoded pixels): over them a job fails
   * with `422-012`. Defaults in extract/document-limits.ts (DOCUMENT_MAX_* settings).
   */
  documentLimits?: Partial<DocumentLimits>;
  /** Jobs processed at once (one extraction thread each). Default: the available parallelism. */
  concurrency?: number;
  /** Default 590 s, the hosted service's time-out, counted from the job's creation. */
  processingTimeoutMs?: number;
  /** Per-key budgets; 0 turns one off. Default 200 POST and 1,200 GET per minute. */
  rateLimits?: { postPerWindow?: number; getPerWindow?: number; windowMs?: number };
  urlInput?: {
    /** Default 60 s. */
    timeoutMs?: number;
    /** Test only: hosts reachable although not public (names, addresses, CIDR ranges). */
    allowHosts?: readonly string[];
    /** Test only: a PEM file of extra trusted certificate authorities. */
    caFile?: string;
    /** Test only: a resolver instead of the system's. */
    resolve?: Resolver;
  };
  /** Where models-file `secret_env` variables are read. Default the process environment. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Serve HTTPS with this PEM certificate and key (the official clients call `https://` hosts only). */
  tls?: { cert: string | Buffer; key: string | Buffer };
  /** Webhook delivery settings (retries, time-out); tests shorten the waits. */
  webhooks?: WebhooksExtensionOptions;
  /**
   * Webhooks added to every model besides the models file's: the app server's own `/hooks/v2` when it
   * embeds the service (server/main.ts), so that its browsers hear of their jobs. Shown like the
   * others by the model search (never the secret).
   */
  extraWebhooks?: readonly ExtraWebhook[];
  /**
   * The service's one clock (server-kit/clock.ts): jobs' times and deadlines, webhook attempts, RAG timestamps.
   * Default the system's; tests set the time with their own.
   */
  clock?: Clock;
}

export interface ReferenceService {
  /** The base it listens on, e.g. `http://127.0.0.1:8790`. */
  url: string;
  apiKey: string;
  models: readonly { id: string; name: string }[];
  close(): Promise<void>;
}

export interface OpenedReferenceService {
  app: Hono;
  models: ModelCatalog;
  /** Stops the jobs (those under way resume at the next start), then closes the database. */
  close(): Promise<void>;
}

/** The service's settings as its options (everything but the key, which callers decide). */
export function referenceOptionsFromSettings(
  env: ReferenceSettings,
): Omit<ReferenceServiceOptions, 'apiKey'> {
  return {
    host: env.REFERENCE_HOST,
    port: env.REFERENCE_PORT,
    dataDir: env.REFERENCE_DATA_DIR,
    modelsFile: env.REFERENCE_MODELS_FILE,
    publicUrl: env.REFERENCE_PUBLIC_URL,
    trustProxy: env.REFERENCE_TRUST_PROXY,
    allowedHosts: env.REFERENCE_ALLOWED_HOSTS,
    tls: readTls(env.REFERENCE_TLS_CERT_FILE, env.REFERENCE_TLS_KEY_FILE),
    maxFileBytes: env.REFERENCE_MAX_FILE_BYTES,
    documentLimits: documentLimitsFromEnv(env),
    concurrency: env.REFERENCE_CONCURRENCY,
    processingTimeoutMs: env.REFERENCE_PROCESSING_TIMEOUT_MS,
    connectionLimits: { maxConnections: env.REFERENCE_MAX_CONNECTIONS },
    rateLimits: {
      postPerWindow: env.REFERENCE_RATE_LIMIT_POST_PER_MINUTE,
      getPerWindow: env.REFERENCE_RATE_LIMIT_GET_PER_MINUTE,
      windowMs: env.REFERENCE_RATE_LIMIT_WINDOW_MS,
    },
    urlInput: {
      timeoutMs: env.REFERENCE_URL_TIMEOUT_MS,
      allowHosts: env.REFERENCE_URL_ALLOW_HOSTS,
      caFile: env.REFERENCE_URL_CA_FILE,
    },
  };
}

export async function openReferenceService(
  options: Omit<ReferenceServiceOptions, 'host' | 'port'> & {
    listeningUrl: () => string;
    /** Whether to check the Host of each request (startReferenceService decides). Default no. */
    checkHosts?: boolean;
  },
): Promise<OpenedReferenceService> {
  await mkdir(options.dataDir, { recursive: true });
  const models = withExtraWebhooks(
    await loadModelCatalog(options.modelsFile ?? DEFAULT_MODELS_FILE, options.env),
    options.extraWebhooks ?? [],
  );
  const ca = await readCaFile(options.urlInput?.caFile);
  const files = new FileStore(path.join(options.dataDir, 'files'));
  await files.init();
  const store = new SqliteJobStore(path.join(options.dataDir, 'reference.sqlite'));
  // Before the jobs resume: a job failed at start is announced to the webhooks.
  const clock = options.clock ?? systemClock;
  const webhooks = openWebhooks({ database: store.database, models, clock }, options.webhooks);
  const rag = openRag({ database: store.database, models, clock });
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  // The process's threads, reading within this service's limits (each request carries them).
  const extractor = processExtractor(concurrency, EXTRACTION_HEAP_MB).within(
    documentLimits(options.documentLimits),
  );
  // In the background: the service answers at once, and the first job rarely waits for it.
  extractor.warmUp().catch((error: unknown) => logger.error({ err: error }, 'extractor warm-up failed'));
  warmUpDocumentInspection().catch((error: unknown) =>
    logger.error({ err: error }, 'document inspection warm-up failed'),
  );
  const jobs = new JobService({
    store,
    files,
    models,
    extractor,
    concurrency,
    processingTimeoutMs: options.processingTimeoutMs,
    onFinished: webhooks.onFinished,
    webhookDeliveries: webhooks.webhookDeliveries,
    // "Delete extracted data once fetched" covers the document text kept for RAG too.
    onInferenceDeleted: (inference) => rag.store.forgetInference(inference.id),
    rag: rag.store,
    clock,
  });
  const v1Jobs = new V1JobService({
    store: new V1Store(store.database),
    files,
    models,
    reader: extractor,
    concurrency,
    processingTimeoutMs: options.processingTimeoutMs,
    clock,
    // Endpoints read at the job's end: a product's webhooks as the models file has them then.
    onFinished: (job) =>
      announceV1Job(
        webhooks.dispatcher,
        (j) => models.findProduct(j.account, j.name, j.version)?.webhooks ?? [],
        job,
      ),
  });
  const trustProxy = trustedPeers(options.trustProxy ?? []);
  const app = createReferenceApp({
    hosts:
      options.checkHosts === true
        ? hostPolicy({ publicUrl: options.publicUrl, allowedHosts: options.allowedHosts, trustProxy })
        : undefined,
    apiKey: options.apiKey,
    jobs,
    models,
    files,
    urls: serviceUrls({
      publicUrl: options.publicUrl,
      listeningUrl: options.listeningUrl,
      trustProxy,
    }),
    maxFileBytes: options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES,
    urlInput: {
      policy: addressPolicy(options.urlInput?.allowHosts),
      timeoutMs: options.urlInput?.timeoutMs ?? DEFAULT_URL_TIMEOUT_MS,
      ca,
      resolve: options.urlInput?.resolve,
    },
    rateLimits: {
      postPerWindow: options.rateLimits?.postPerWindow ?? DEFAULT_RATE_LIMITS.postPerWindow,
      getPerWindow: options.rateLimits?.getPerWindow ?? DEFAULT_RATE_LIMITS.getPerWindow,
      windowMs: options.rateLimits?.windowMs,
    },
    extendV2: rag.extendV2,
    v1Jobs,
  });
  const { resumed, failed } = jobs.resumeInterrupted();
  if (resumed + failed > 0) {
    logger.info(`interrupted jobs from the previous run: ${resumed} resumed, ${failed} failed`);
  }
  const v1 = v1Jobs.resumeInterrupted();
  if (v1.resumed + v1.failed > 0) {
    logger.info(`interrupted v1 jobs: ${v1.resumed} resumed, ${v1.failed} failed`);
  }
  return {
    app,
    models,
    close: async () => {
      // The extraction threads are the process's (see processExtractor), not this service's.
      await jobs.close();
      await v1Jobs.close();
      await webhooks.close();
      store.close();
    },
  };
}

export async function startReferenceService(options: ReferenceServiceOptions): Promise<ReferenceService> {
  const host = options.host ?? '127.0.0.1';
  let listening = '';
  const opened = await openReferenceService({
    ...options,
    listeningUrl: () => listening,
    checkHosts: checksHosts(host, options.allowedHosts),
  });
  let server: ServerType;
  let port: number;
  try {
    [server, port] = await listen(opened.app, host, options.port ?? 0, options.tls, options.connectionLimits);
  } catch (error) {
    await opened.close();
    throw error;
  }
  const url = `${options.tls ? 'https' : 'http'}://${hostForUrl(host)}:${port}`;
  listening = url;

  let closing: Promise<void> | undefined;
  return {
    url,
    apiKey: options.apiKey,
    models: opened.models.models.map(({ id, name }) => ({ id, name })),
    close: () =>
      (closing ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          // Keep-alive connections would hold close() open; requests in flight still finish.
          if ('closeIdleConnections' in server) server.closeIdleConnections();
        });
        await opened.close();
      })()),
  };
}

async function readCaFile(file: string | undefined): Promise<string | undefined> {
  if (file === undefined) return undefined;
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new Error(`Cannot read REFERENCE_URL_CA_FILE ${file}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

function readTls(certFile: string | undefined, keyFile: string | undefined): ReferenceServiceOptions['tls'] {
  if (certFile === undefined || keyFile === undefined) return undefined;
  const read = (file: string, name: string): Buffer => {
    try {
      return readFileSync(file);
    } catch (error) {
      throw new Error(`Cannot read ${name} ${file}: ${(error as Error).message}`, { cause: error });
    }
  };
  return { cert: read(certFile, 'REFERENCE_TLS_CERT_FILE'), key: read(keyFile, 'REFERENCE_TLS_KEY_FILE') };
}

function listen(
  app: Hono,
  hostname: string,
  port: number,
  tls: ReferenceServiceOptions['tls'],
  given: ReferenceServiceOptions['connectionLimits'],
): Promise<[ServerType, number]> {
  return new Promise((resolve, reject) => {
    const listener = requestListener(app);
    // The app server's defaults (1000 connections, 30 s for headers and an unauthenticated body);
    // the key check lifts the body deadline for a client's uploads (create-reference-app.ts).
    const limits = withDefaults(given);
    const server = tls
      ? createHttpsServer({ ...tls, ...serverOptions(limits) }, listener)
      : createHttpServer(serverOptions(limits), listener);
    answerClientErrors(server);
    guardConnections(server, limits, cutSlowRequest);
    server.once('error', reject);
    server.listen(port, hostname, () => resolve([server, (server.address() as AddressInfo).port]));
  });
}

/**
 * Whether the service checks the Host of each request: when it listens on loopback (a web page could
 * otherwise reach it through DNS rebinding), or when hosts are listed. Listening on a public interface
 * with no list, it answers to whatever name it is reached under, as a hosted API does: its key guards
 * it.
 */
export function checksHosts(host: string, allowedHosts: readonly string[] | undefined): boolean {
  return isLoopbackName(host) || (allowedHosts?.length ?? 0) > 0;
}

/** A wildcard address is not one a client can call; IPv6 needs brackets in a URL. */
function hostForUrl(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}
