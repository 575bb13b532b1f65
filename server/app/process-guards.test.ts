/**
 * The process guards over a real child process: an unhandled rejection and a connection's error
 * thrown out of a callback are logged and the process goes on; any other uncaught exception is
 * logged and ends it with 1. Each is one JSON line (stdout is not a terminal), its stack a field.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { repoRoot } from './settings/config';
import { survivable } from './process-guards';

interface Guarded {
  child: ChildProcess;
  output(): string;
  ask(message: string): Promise<'alive' | { exitCode: number | null }>;
}

async function startGuarded(): Promise<Guarded> {
  const child = fork(path.join(repoRoot, 'packages/test-kit/src/app/guarded-process.ts'), [], {
    cwd: repoRoot,
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const [first] = (await once(child, 'message')) as [unknown];
  expect(first).toBe('ready');
  return {
    child,
    output: () => output,
    ask: (message) =>
      new Promise((resolve) => {
        const onMessage = (answer: unknown) => {
          if (answer !== 'alive') return;
          child.off('exit', onExit);
          child.off('message', onMessage);
          resolve('alive');
        };
        const onExit = (exitCode: number | null) => {
          child.off('message', onMessage);
          resolve({ exitCode });
        };
        child.on('message', onMessage);
        child.once('exit', onExit);
        child.send(message);
      }),
  };
}

/** Every line the process wrote, each one JSON (stdout is a pipe): a stack never spans lines. */
function logLines(output: string): Record<string, unknown>[] {
  return output
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('installProcessGuards', () => {
  let running: Guarded | undefined;
  afterEach(() => {
    if (running?.child.exitCode === null) running.child.kill('SIGKILL');
    running = undefined;
  });

  it('logs an unhandled rejection and a connection error thrown from a callback, and goes on', async () => {
    running = await startGuarded();
    expect(await running.ask('reject')).toBe('alive');
    expect(await running.ask('connection')).toBe('alive');
    expect(await running.ask('nothing')).toBe('alive');
    const lines = logLines(running.output());
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: 'error',
        component: 'process',
        msg: 'unhandled promise rejection (the copy goes on)',
        err: expect.objectContaining({ message: 'nobody awaited this', stack: expect.any(String) }),
      }),
    );
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: 'error',
        msg: 'uncaught uncaughtException: a connection went away (the copy goes on)',
        err: expect.objectContaining({ code: 'ECONNRESET' }),
      }),
    );
  });

  it('logs any other uncaught exception and exits with 1', async () => {
    running = await startGuarded();
    expect(await running.ask('bug')).toEqual({ exitCode: 1 });
    expect(logLines(running.output())).toContainEqual(
      expect.objectContaining({
        level: 'fatal',
        msg: "uncaught uncaughtException: the copy's state is unknown, exiting with 1",
        err: expect.objectContaining({
          type: 'TypeError',
          message: 'undefined is not a function',
          stack: expect.stringContaining('TypeError: undefined is not a function\n    at '),
        }),
      }),
    );
  });

  it('calls survivable only what a lost connection or a busy store throws', () => {
    expect(survivable(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(survivable(Object.assign(new Error('terminating connection'), { code: '57P01' }))).toBe(true);
    expect(survivable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(survivable(new TypeError('x is not a function'))).toBe(false);
    expect(survivable(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
  });
});
