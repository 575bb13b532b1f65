/**
 * A throw-away PostgreSQL server for tests: Debian's server binaries, a fresh cluster in a temp dir,
 * 127.0.0.1 only on a free port, settings that trade durability for speed. Nothing is mocked: the
 * review store's PostgreSQL tests run against this real server.
 *
 * PostgreSQL refuses to run as root, so as root initdb and postgres run as the `postgres` system user
 * (Debian's package creates it), else `nobody`.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chown, mkdtemp, readFile, rm } from 'node:fs/promises';
import { closeSync, existsSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

export interface PostgresClusterOptions {
  /** A PostgreSQL `bin` directory; default: the newest `/usr/lib/postgresql/<version>/bin`. */
  binDir?: string;
  /** Server settings added to or overriding the defaults below (`postgres -c name=value`). */
  settings?: Record<string, string | number>;
  /** How long initdb plus start-up may take; default 60 s. */
  timeoutMs?: number;
}

export interface PostgresCluster {
  /** `postgres://postgres@127.0.0.1:<port>/postgres`: the superuser, no password (trust). */
  readonly url: string;
  readonly port: number;
  /** The temp dir holding the data dir, the unix socket and `postgres.log`; removed by stop(). */
  readonly dir: string;
  /** The postmaster's process id. */
  readonly pid: number;
  /** Fast shutdown (then harder signals if it hangs), then the temp dir is removed. Idempotent. */
  stop(): Promise<void>;
}

const DEBIAN_ROOT = '/usr/lib/postgresql';
const SUPERUSER = 'postgres';
const LOOPBACK = '127.0.0.1';
// A free port can be taken by someone else between our probe and the server's bind: try again then.
const START_ATTEMPTS = 3;

// Durability is worthless for a cluster deleted after the run; these make writes and commits cheap.
const FAST_SETTINGS: Record<string, string | number> = {
  fsync: 'off',
  synchronous_commit: 'off',
  full_page_writes: 'off',
  max_connections: 300,
  shared_buffers: '32MB',
};

const execFileAsync = promisify(execFile);

export async function startPostgresCluster(options: PostgresClusterOptions = {}): Promise<PostgresCluster> {
  const binDir = options.binDir ?? findPostgresBinDir();
  if (!hasServerBinaries(binDir)) throw new Error(`${binDir} holds no PostgreSQL initdb and postgres.`);
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  const runAs = await unprivilegedUser();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'review-pg-'));
  try {
    if (runAs) await chown(dir, runAs.uid, runAs.gid);
    await initdb(binDir, dir, runAs, deadline);
    const settings = { ...FAST_SETTINGS, ...options.settings };
    for (let attempt = 1; ; attempt++) {
      try {
        return await startServer({ binDir, dir, runAs, settings, deadline });
      } catch (error) {
        if (!(error instanceof PortTakenError) || attempt >= START_ATTEMPTS) throw error;
      }
    }
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

/** The newest Debian PostgreSQL server, or an error that says how to install one. */
export function findPostgresBinDir(root = DEBIAN_ROOT): string {
  const versions = existsSync(root) ? readdirSync(root).filter((name) => /^\d+(\.\d+)?$/.test(name)) : [];
  const usable = versions
    .sort((a, b) => Number(b) - Number(a))
    .map((version) => path.join(root, version, 'bin'))
    .filter(hasServerBinaries);
  const newest = usable[0];
  if (newest === undefined) {
    throw new Error(
      `No PostgreSQL server found (${root}/<version>/bin/initdb and postgres). Install Debian's server: ` +
        'run `node scripts/ensure-postgres.mjs` (or `sudo apt-get install postgresql`), ' +
        'or set TEST_DATABASE_URL to a superuser URL of an existing server.',
    );
  }
  return newest;
}

function hasServerBinaries(binDir: string): boolean {
  return ['initdb', 'postgres'].every((tool) => existsSync(path.join(binDir, tool)));
}

interface SystemUser {
  name: string;
  uid: number;
  gid: number;
}

/** As root: the user to run the server as (PostgreSQL exits when started as root). Else null. */
async function unprivilegedUser(): Promise<SystemUser | null> {
  if (process.getuid?.() !== 0) return null;
  for (const name of ['postgres', 'nobody']) {
    const user = await lookUpUser(name);
    if (user) return user;
  }
  throw new Error(
    'Running as root, but neither a `postgres` nor a `nobody` user exists to run PostgreSQL as.',
  );
}

async function lookUpUser(name: string): Promise<SystemUser | null> {
  try {
    // getent, not /etc/passwd: the user may come from any NSS source.
    const { stdout } = await execFileAsync('getent', ['passwd', name]);
    const [, , uid, gid] = stdout.trim().split(':');
    return uid && gid ? { name, uid: Number(uid), gid: Number(gid) } : null;
  } catch {
    return null;
  }
}

const SETPRIV = ['/usr/bin/setpriv', '/bin/setpriv'].find((file) => existsSync(file));

/**
 * The command line that runs `tool` as `runAs` (or as ourselves). setpriv execs in place, so the
 * child we hold is the tool itself, and its parent-death signal ends the server even when this
 * process is killed with SIGKILL and no exit handler runs. Without setpriv: runuser, or directly.
 */
function commandLine(tool: string, args: string[], runAs: SystemUser | null): [string, string[]] {
  if (SETPRIV) {
    const asUser = runAs ? [`--reuid=${runAs.uid}`, `--regid=${runAs.gid}`, '--clear-groups'] : [];
    // SIGQUIT is PostgreSQL's immediate shutdown.
    return [SETPRIV, [...asUser, '--pdeathsig', 'SIGQUIT', tool, ...args]];
  }
  return runAs ? ['runuser', ['-u', runAs.name, '--', tool, ...args]] : [tool, args];
}

async function initdb(
  binDir: string,
  dir: string,
  runAs: SystemUser | null,
  deadline: number,
): Promise<void> {
  const args = [
    `--pgdata=${path.join(dir, 'data')}`,
    `--username=${SUPERUSER}`,
    '--auth=trust',
    '--encoding=UTF8',
    '--locale=C',
    '--no-sync',
  ];
  const [command, commandArgs] = commandLine(path.join(binDir, 'initdb'), args, runAs);
  try {
    // cwd: the unprivileged user may not be allowed to read the directory we were started in.
    await execFileAsync(command, commandArgs, {
      cwd: dir,
      env: { ...process.env, LC_ALL: 'C' },
      timeout: Math.max(1, deadline - Date.now()),
    });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    const hint = runAs ? ` (it ran as ${runAs.name}, who must be able to reach ${dir})` : '';
    throw new Error(`initdb failed${hint}:\n${tail(`${stdout}\n${stderr}`)}`, { cause: error });
  }
}

class PortTakenError extends Error {}

interface ServerStart {
  binDir: string;
  dir: string;
  runAs: SystemUser | null;
  settings: Record<string, string | number>;
  deadline: number;
}

async function startServer(start: ServerStart): Promise<PostgresCluster> {
  const port = await freePort();
  const url = `postgres://${SUPERUSER}@${LOOPBACK}:${port}/postgres`;
  const child = spawnPostgres(start, port);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const abandon = () => killNow(child, start.dir);
  // Best effort when the test process ends without stop(): exit handlers must be synchronous.
  process.on('exit', abandon);
  try {
    await waitUntilAccepting(url, child, start);
  } catch (error) {
    process.off('exit', abandon);
    await stopServer(child, exited);
    throw error;
  }
  const pid = await postmasterPid(start.dir, child);
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      process.off('exit', abandon);
      await stopServer(child, exited, pid);
      await rm(start.dir, { recursive: true, force: true, maxRetries: 3 });
    })());
  return { url, port, dir: start.dir, pid, stop };
}

function spawnPostgres(start: ServerStart, port: number): ChildProcess {
  const args = ['-D', path.join(start.dir, 'data'), '-p', String(port), '-h', LOOPBACK, '-k', start.dir];
  for (const [name, value] of Object.entries(start.settings)) args.push('-c', `${name}=${value}`);
  const [command, commandArgs] = commandLine(path.join(start.binDir, 'postgres'), args, start.runAs);
  // The server's own log goes to a file we read back when it fails to start (this attempt's only).
  const log = openSync(logFile(start.dir), 'w');
  try {
    return spawn(command, commandArgs, {
      cwd: start.dir,
      env: { ...process.env, LC_ALL: 'C' },
      stdio: ['ignore', log, log],
    });
  } finally {
    closeSync(log);
  }
}

/** Binding port 0 lets the kernel pick a port nobody listens on. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen({ port: 0, host: LOOPBACK, exclusive: true }, () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** Connects until the server answers a query: the only proof that it is ready for tests. */
async function waitUntilAccepting(url: string, child: ChildProcess, start: ServerStart): Promise<void> {
  let spawnError: Error | undefined;
  child.once('error', (error) => (spawnError = error));
  for (;;) {
    if (spawnError) throw new Error(`Could not run postgres: ${spawnError.message}`, { cause: spawnError });
    if (child.exitCode !== null || child.signalCode !== null) throw await startFailure(start.dir);
    if (await answers(url)) return;
    if (Date.now() > start.deadline) {
      throw new Error(`PostgreSQL did not accept connections in time:\n${await readLog(start.dir)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function answers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  // A refused or reset connection is expected while the server starts; it must not crash us.
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

async function startFailure(dir: string): Promise<Error> {
  const log = await readLog(dir);
  if (/could not bind|address already in use/i.test(log)) {
    return new PortTakenError(`PostgreSQL could not listen on its port:\n${log}`);
  }
  return new Error(`PostgreSQL exited while starting:\n${log}`);
}

/** postmaster.pid's first line; with runuser in between, the child we hold is not the server. */
async function postmasterPid(dir: string, child: ChildProcess): Promise<number> {
  const lines = await readFile(path.join(dir, 'data', 'postmaster.pid'), 'utf8').catch(() => '');
  const pid = Number(lines.split('\n')[0]);
  return Number.isInteger(pid) && pid > 0 ? pid : (child.pid ?? 0);
}

/** Fast shutdown (SIGINT), then immediate (SIGQUIT), then SIGKILL: each given a few seconds. */
async function stopServer(child: ChildProcess, exited: Promise<void>, pid = child.pid): Promise<void> {
  for (const [signal, waitMs] of [
    ['SIGINT', 10_000],
    ['SIGQUIT', 5_000],
    ['SIGKILL', 5_000],
  ] as const) {
    if (child.exitCode !== null || child.signalCode !== null) return;
    signalProcess(pid, signal);
    if (pid !== child.pid) signalProcess(child.pid, signal);
    if (await Promise.race([exited.then(() => true), delay(waitMs).then(() => false)])) return;
  }
  throw new Error(`PostgreSQL (pid ${pid}) did not stop even after SIGKILL.`);
}

function killNow(child: ChildProcess, dir: string): void {
  const lines = readFileIfAny(path.join(dir, 'data', 'postmaster.pid'));
  signalProcess(Number(lines.split('\n')[0]) || child.pid, 'SIGQUIT');
  try {
    rmSync(dir, { recursive: true, force: true });
  } catch {
    // The server may still be removing its own files; a leftover temp dir is all we risk.
  }
}

function signalProcess(pid: number | undefined, signal: NodeJS.Signals): void {
  if (!pid) return;
  try {
    process.kill(pid, signal);
  } catch {
    // Already gone.
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

const logFile = (dir: string) => path.join(dir, 'postgres.log');

async function readLog(dir: string): Promise<string> {
  return tail(await readFile(logFile(dir), 'utf8').catch(() => '(no log)'));
}

function readFileIfAny(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

function tail(text: string, lines = 30): string {
  return text.trim().split('\n').slice(-lines).join('\n');
}
