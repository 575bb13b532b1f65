/**
 * A second app server for a journey that needs a store of its own (the first start's set-up link is
 * printed only while the store has no admin, and the journeys' shared store has one): the real
 * `server/main.ts`, serving the app the run built, with its own ports and data folder, its output
 * kept so the journey reads what it printed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export interface FreshServer {
  url: string;
  dataDir: string;
  /** Everything printed so far. */
  output(): string;
  /** Resolves with the output once it matches (rejects after `timeoutMs`). */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
  stop(): Promise<void>;
}

function runId(): string {
  const id = process.env.E2E_RUN_ID;
  if (id === undefined) throw new Error('E2E_RUN_ID is unset: run the journeys through playwright.config.ts');
  return id;
}

/**
 * Starts the app server on `dataDir` (a new folder unless given: a restart keeps the store), with
 * `env`'s settings besides (OIDC_*, PASSWORD_SIGNIN…).
 */
export async function startFreshServer(options: {
  offset: number;
  dataDir?: string;
  env?: Record<string, string>;
}): Promise<FreshServer> {
  const port = Number(process.env.E2E_PORT) + options.offset;
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(os.tmpdir(), 'extraction-review-e2e-fresh-')));
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      PORT: String(port),
      REFERENCE_PORT: String(port + 1),
      REFERENCE_API_KEY: 'e2e-fresh-reference-key',
      REFERENCE_DATA_DIR: path.join(dataDir, 'reference'),
      APP_DATA_DIR: path.join(dataDir, 'app'),
      DATABASE_URL: '',
      STATIC_DIR: path.join(os.tmpdir(), `extraction-review-e2e-dist-${runId()}`),
      UPSTREAM_V2_URL: '',
      UPSTREAM_V2_API_KEY: '',
      UPSTREAM_V1_URL: '',
      UPSTREAM_V1_API_KEY: '',
      WEBHOOK_V2_SECRET: '',
      WEBHOOK_V2_IDS: '',
      SHUTDOWN_DRAIN_MS: '0', // no load balancer to drain for: stop at once (requests still finish)
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const waitFor = async (pattern: RegExp, timeoutMs = 60_000): Promise<string> => {
    const deadline = Date.now() + timeoutMs;
    while (!pattern.test(output)) {
      if (child.exitCode !== null) throw new Error(`the app server exited ${child.exitCode}:\n${output}`);
      if (Date.now() > deadline) throw new Error(`the app server never printed ${pattern}:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return output;
  };

  return {
    url: `http://127.0.0.1:${port}`,
    dataDir,
    output: () => output,
    waitFor,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

export async function removeFreshServerData(dataDir: string): Promise<void> {
  await rm(dataDir, { recursive: true, force: true });
}
