/**
 * `npm start` / `npm run serve`: the app server, with the embedded reference service as the upstream
 * of every API version that has no UPSTREAM_<VERSION>_URL.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createApp, type UpstreamTarget } from './app/create-app';
import { listen, type RunningServer } from './app/listen';
import { readEnv, repoRoot, type Env } from './config';
import type {
  referenceOptionsFromEnv as ReferenceOptionsFromEnv,
  startReferenceService as StartReferenceService,
} from './reference/create-reference-service';

/** What main needs of the embedded reference service (server/reference/create-reference-service.ts). */
interface ReferenceService {
  url: string;
  apiKey: string;
  close(): Promise<void>;
}

class StartupError extends Error {}

async function main(): Promise<void> {
  const env = readEnvOrExplain();
  const upstreamTimeoutMs = env.UPSTREAM_TIMEOUT_MS;
  checkUpstreamPairs(env);
  if (!env.DEV) checkBuilt(env.STATIC_DIR);

  const needsReference = env.UPSTREAM_V2_URL === undefined || env.UPSTREAM_V1_URL === undefined;
  const reference = needsReference ? await startReference(env) : undefined;
  const embedded: UpstreamTarget | undefined = reference && {
    url: reference.url,
    apiKey: reference.apiKey,
    embedded: true,
    // The reference service writes its URLs with REFERENCE_PUBLIC_URL when that is set.
    aliases: env.REFERENCE_PUBLIC_URL !== undefined ? [env.REFERENCE_PUBLIC_URL] : [],
  };
  const configured = (url: string | undefined, apiKey: string | undefined): UpstreamTarget | undefined =>
    url !== undefined && apiKey !== undefined ? { url, apiKey } : undefined;

  const upstream = {
    v2: configured(env.UPSTREAM_V2_URL, env.UPSTREAM_V2_API_KEY) ?? embedded,
    v1: configured(env.UPSTREAM_V1_URL, env.UPSTREAM_V1_API_KEY) ?? embedded,
  };
  const app = createApp({ upstream, staticDir: env.DEV ? null : env.STATIC_DIR, upstreamTimeoutMs });

  let server: RunningServer;
  try {
    server = await listen(app, { host: env.HOST, port: env.PORT });
  } catch (error) {
    await reference?.close();
    throw listenError(error, 'PORT', env.HOST, env.PORT);
  }

  if (env.DEV) {
    // Vite serves the app in development and prints its own URL; this server answers /api only.
    console.log(
      `extraction-review API for development at ${browserUrl(server.url)}/api (upstream: ${describe(upstream)})`,
    );
  } else {
    console.log(
      `extraction-review is running at ${browserUrl(server.url)} (upstream: ${describe(upstream)})`,
    );
  }
  handleShutdown(async () => {
    await server.close();
    await reference?.close();
  });
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

function checkBuilt(staticDir: string): void {
  if (!existsSync(path.join(staticDir, 'index.html'))) {
    throw new StartupError(
      `The browser app is not built: ${path.join(staticDir, 'index.html')} is missing. ` +
        'Run `npm run build` first (or `npm start`, which builds and then serves).',
    );
  }
}

async function startReference(env: Env): Promise<ReferenceService> {
  // Loaded only when needed: a configured upstream for both versions never loads its dependencies
  // (SQLite, pdf.js).
  let start: typeof StartReferenceService;
  let referenceOptionsFromEnv: typeof ReferenceOptionsFromEnv;
  try {
    ({ startReferenceService: start, referenceOptionsFromEnv } =
      await import('./reference/create-reference-service'));
  } catch (error) {
    throw new StartupError(
      `The embedded reference service could not be loaded (${error instanceof Error ? error.message : String(error)}). ` +
        'Set UPSTREAM_V2_URL/UPSTREAM_V2_API_KEY and UPSTREAM_V1_URL/UPSTREAM_V1_API_KEY to use another upstream.',
    );
  }
  try {
    return await start({
      ...referenceOptionsFromEnv(env),
      apiKey: env.REFERENCE_API_KEY ?? randomBytes(24).toString('base64url'),
    });
  } catch (error) {
    throw listenError(
      error,
      'REFERENCE_PORT',
      env.REFERENCE_HOST,
      env.REFERENCE_PORT,
      'The embedded reference service',
    );
  }
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

function handleShutdown(close: () => Promise<void>): void {
  let closing = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (closing) {
      console.log(`${signal} again: exiting now.`);
      process.exit(1);
    }
    closing = true;
    console.log(`${signal}: shutting down...`);
    close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('Error while shutting down:', error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}

main().catch((error: unknown) => {
  if (error instanceof StartupError) {
    console.error(`extraction-review cannot start: ${error.message}`);
  } else {
    console.error('extraction-review cannot start:', error);
  }
  process.exit(1);
});
