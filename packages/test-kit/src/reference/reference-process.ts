/**
 * `npm run reference` in a child process (server/reference/main.ts through tsx), so a test can kill
 * it outright (SIGKILL) in the middle of a job, as a crash or a power cut would.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { TEST_API_KEY } from './reference-harness';

/** Where `npm run reference` runs (its data/reference default is relative to it). */
const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..', '..');

/**
 * glibc's malloc settings that the npm scripts start the service with (read at process start, so not
 * settable from within): two arenas instead of up to one per thread, and blocks of 128 KB or more
 * always mapped and unmapped (no arena holds on to freed image and page buffers). Measured: the
 * reference bench's peak ~60–100 MB lower (docs/reference-service.md#what-it-costs).
 */
const RESIDENT_MEMORY_ENV = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072' };
/**
 * V8's young generation at most 4 MB a semi-space (instead of 16) in every thread, as the npm scripts
 * start the service: the reference bench's peak ~40–60 MB lower, CPU per job within noise.
 */
const RESIDENT_MEMORY_FLAGS = ['--max-semi-space-size=4'];

export interface ReferenceProcess {
  url: string;
  child: ChildProcess;
  /** Everything it printed. */
  output(): string;
  kill(signal: NodeJS.Signals): Promise<void>;
}

export async function startReferenceProcess(env: Record<string, string>): Promise<ReferenceProcess> {
  const args = [...RESIDENT_MEMORY_FLAGS, '--import', 'tsx', path.join('server', 'reference', 'main.ts')];
  const child = spawn(process.execPath, args, {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH ?? '',
      // As `npm run reference` sets them (package.json).
      ...RESIDENT_MEMORY_ENV,
      REFERENCE_PORT: '0',
      REFERENCE_API_KEY: TEST_API_KEY,
      // Tests poll fast.
      REFERENCE_RATE_LIMIT_GET_PER_MINUTE: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the reference service did not start:\n${output}`)),
      60_000,
    );
    const check = (): void => {
      const match = /Reference service listening on ([^\s"]+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the reference service exited (${code}) before listening:\n${output}`));
    });
  });
  return {
    url,
    child,
    output: () => output,
    kill: async (signal) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill(signal);
      await exited;
    },
  };
}
