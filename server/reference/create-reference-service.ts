/**
 * Entry points of the reference service: a local, complete stand-in for the hosted extraction API.
 *
 * - `startReferenceService` opens the data directory and listens on its own port (what `npm start`
 *   embeds as the default upstream, and what `npm run reference` runs alone).
 * - `openReferenceService` wires the same service without a socket, for in-process use
 *   (`app.request()`); `createReferenceApp` is the bare Hono app factory.
 *
 * Layers, each inner one behind a small interface: routes/ → jobs/ → store/ → extract/.
 */
import { mkdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import type { Hono } from 'hono';
import { processExtractor } from './extract/threads/threaded-extractor';
import { DEFAULT_CONCURRENCY, JobService } from './jobs/job-service';
import { loadModelCatalog, type ModelCatalog } from './models/model-catalog';
import { createReferenceApp } from './routes/create-reference-app';
import { DEFAULT_MAX_UPLOAD_BYTES } from './routes/enqueue';
import { serviceUrls } from './routes/service-urls';
import { FileStore } from './store/file-store';
import { SqliteJobStore } from './store/sqlite-job-store';

export { createReferenceApp, type ReferenceAppDeps } from './routes/create-reference-app';

export const DEFAULT_MODELS_FILE = path.join(import.meta.dirname, 'models.json');
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
  /** Largest accepted upload. Default 100 MB, the hosted service's limit. */
  maxUploadBytes?: number;
  /** Jobs processed at once (one extraction thread each). Default 2. */
  concurrency?: number;
  /** Default 590 s, the hosted service's time-out. */
  processingTimeoutMs?: number;
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
  /** Waits for the jobs being processed, then closes the database. */
  close(): Promise<void>;
}

export async function openReferenceService(
  options: Omit<ReferenceServiceOptions, 'host' | 'port' | 'publicUrl'> & { baseUrl: () => string },
): Promise<OpenedReferenceService> {
  await mkdir(options.dataDir, { recursive: true });
  const models = await loadModelCatalog(options.modelsFile ?? DEFAULT_MODELS_FILE);
  const files = new FileStore(path.join(options.dataDir, 'files'));
  await files.init();
  const store = new SqliteJobStore(path.join(options.dataDir, 'reference.sqlite'));
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  const extractor = processExtractor(concurrency, EXTRACTION_HEAP_MB);
  // In the background: the service answers at once, and the first job rarely waits for it.
  extractor.warmUp().catch((error: unknown) => console.error('[reference] extractor warm-up failed:', error));
  const jobs = new JobService({
    store,
    files,
    models,
    extractor,
    concurrency,
    processingTimeoutMs: options.processingTimeoutMs,
  });
  const app = createReferenceApp({
    apiKey: options.apiKey,
    jobs,
    models,
    files,
    urls: serviceUrls(options.baseUrl),
    maxUploadBytes: options.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES,
  });
  const { resumed, failed } = jobs.resumeInterrupted();
  if (resumed + failed > 0) {
    console.log(`[reference] interrupted jobs from the previous run: ${resumed} resumed, ${failed} failed`);
  }
  return {
    app,
    models,
    close: async () => {
      // The extraction threads are the process's (see processExtractor), not this service's.
      await jobs.close();
      store.close();
    },
  };
}

export async function startReferenceService(options: ReferenceServiceOptions): Promise<ReferenceService> {
  const host = options.host ?? '127.0.0.1';
  let base = options.publicUrl ?? '';
  const opened = await openReferenceService({ ...options, baseUrl: () => base });
  let server: ServerType;
  let port: number;
  try {
    [server, port] = await listen(opened.app, host, options.port ?? 0);
  } catch (error) {
    await opened.close();
    throw error;
  }
  const url = `http://${hostForUrl(host)}:${port}`;
  base = options.publicUrl ?? url;

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

function listen(app: Hono, hostname: string, port: number): Promise<[ServerType, number]> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, hostname, port }, (info: AddressInfo) =>
      resolve([server, info.port]),
    );
    server.once('error', reject);
  });
}

/** A wildcard address is not one a client can call; IPv6 needs brackets in a URL. */
function hostForUrl(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}
