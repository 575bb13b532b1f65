/**
 * `server/main.ts` in a child process (through tsx), as `npm run serve` starts it, with only the
 * environment a test gives (never the caller's UPSTREAM_* or WEBHOOK_* settings): the app server and,
 * unless told otherwise, the embedded reference service. `DEV=1` by default, so that no build is
 * needed (the server then answers /api and /hooks only).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { repoRoot } from '@extraction-review/app-server/settings/config';

export interface MainProcess {
  /** `http://127.0.0.1:<port>`, the app server. */
  url: string;
  child: ChildProcess;
  /** Everything it printed so far. */
  output(): string;
  /** Sends the signal and resolves with the exit code once it has exited. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export async function startMainProcess(env: Record<string, string>): Promise<MainProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join('server', 'main.ts')], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      PORT: '0',
      REFERENCE_PORT: '0',
      DEV: '1',
      UPSTREAM_V2_URL: '',
      UPSTREAM_V2_API_KEY: '',
      UPSTREAM_V1_URL: '',
      UPSTREAM_V1_API_KEY: '',
      WEBHOOK_V2_SECRET: '',
      WEBHOOK_V2_IDS: '',
      // The embedded review store, never a PostgreSQL named by the caller's environment.
      DATABASE_URL: '',
      // No load balancer to drain for: SIGTERM stops at once (requests in flight still finish).
      SHUTDOWN_DRAIN_MS: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server/main.ts did not start:\n${output}`)), 60_000);
    const check = (): void => {
      const match = /(?:running at|development at) (http:\/\/[^\s/]+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        child.off('exit', onExit);
        resolve(match[1]);
      }
    };
    const onExit = (code: number | null): void => {
      clearTimeout(timer);
      reject(new Error(`server/main.ts exited (${code}) before listening:\n${output}`));
    };
    child.stdout?.on('data', check);
    child.once('exit', onExit);
  });
  return {
    url,
    child,
    output: () => output,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      const exited = once(child, 'exit') as Promise<[number | null]>;
      child.kill(signal);
      const [code] = await exited;
      return code;
    },
  };
}
