/**
 * For tests of a database that goes away: outages of a PRIVATE PostgreSQL (startPostgresCluster),
 * never the test run's shared one.
 *
 * - `stopFast` is `pg_ctl stop -m fast`: SIGINT to the postmaster, which ends every session with
 *   57P01 and exits; the data directory stays.
 * - `startAgain` starts a server on the same data directory and port (the clients' URL stays valid).
 * - `freeze`/`thaw`: SIGSTOP/SIGCONT of the postmaster and every process under it (each session's
 *   backend too: stopping the postmaster alone would leave open connections answering).
 *
 * `stop()` ends a server started again, then the cluster's own stop() removes the directory.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { findPostgresBinDir, type PostgresCluster } from './postgres-cluster';

export interface PostgresOutage {
  stopFast(): Promise<void>;
  startAgain(): Promise<void>;
  freeze(): number[];
  thaw(): void;
  /** The server's current postmaster pid. */
  pid(): number;
  stop(): Promise<void>;
}

// As postgres-cluster.ts starts it: durability traded for speed, room for many connections.
const SETTINGS = ['fsync=off', 'synchronous_commit=off', 'full_page_writes=off', 'max_connections=300'];

export function outageOf(cluster: PostgresCluster): PostgresOutage {
  const dataDir = path.join(cluster.dir, 'data');
  let current = cluster.pid;
  let restarted: ChildProcess | undefined;
  let frozen: number[] = [];

  const running = (): boolean => existsSync(path.join(dataDir, 'postmaster.pid'));

  return {
    pid: () => current,
    stopFast: async () => {
      process.kill(current, 'SIGINT');
      // The postmaster removes its pid file as its very last step.
      await until(() => !running(), 20_000, 'PostgreSQL to stop');
    },
    startAgain: async () => {
      if (running()) throw new Error('PostgreSQL is still running');
      const args = ['-D', dataDir, '-p', String(cluster.port), '-h', '127.0.0.1', '-k', cluster.dir];
      for (const setting of SETTINGS) args.push('-c', setting);
      const postgres = path.join(findPostgresBinDir(), 'postgres');
      const asUser = process.getuid?.() === 0 ? userIds('postgres') : undefined;
      restarted = spawn(
        '/usr/bin/setpriv',
        [
          ...(asUser ? [`--reuid=${asUser.uid}`, `--regid=${asUser.gid}`, '--clear-groups'] : []),
          '--pdeathsig',
          'SIGQUIT',
          postgres,
          ...args,
        ],
        { cwd: cluster.dir, stdio: 'ignore', env: { ...process.env, LC_ALL: 'C' } },
      );
      restarted.on('error', (error) => console.error('[test postgres] could not start again:', error));
      await until(() => answers(cluster.url), 30_000, 'PostgreSQL to accept connections again');
      current = Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    },
    freeze: () => {
      frozen = [current, ...childrenOf(current)];
      for (const pid of frozen) signal(pid, 'SIGSTOP');
      return frozen;
    },
    thaw: () => {
      for (const pid of frozen) signal(pid, 'SIGCONT');
      frozen = [];
    },
    stop: async () => {
      for (const pid of frozen) signal(pid, 'SIGCONT');
      const child = restarted;
      if (child !== undefined && child.exitCode === null && child.signalCode === null) {
        const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        signal(current, 'SIGINT');
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
        if (child.exitCode === null && child.signalCode === null) signal(current, 'SIGKILL');
      }
      await cluster.stop();
    },
  };
}

function userIds(name: string): { uid: number; gid: number } {
  const [, , uid, gid] = execFileSync('getent', ['passwd', name], { encoding: 'utf8' }).trim().split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Gone already.
  }
}

/** Every process whose parent is `pid` (the postmaster's background workers and backends). */
function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);
}

async function answers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function until(
  check: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Waited ${timeoutMs} ms for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
