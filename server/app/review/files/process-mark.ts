/**
 * Who made an unfinished write (a `.part` on disk): the machine, the process and when that process
 * started, written into the part's name, so that a sweep can tell whose it is (issue 19: "a `.part` is
 * only ever removed by the process that made it"). Two app-server copies sharing one APP_DATA_DIR (one
 * machine, or several over a network file system) then never remove each other's writes in flight, as
 * the sweep of issue 18 did after its grace period.
 *
 * `<key>.<host>.<pid>.<start>.<random>.part`
 * - host: the host name reduced to `[a-z0-9-]` (dots separate the fields), with 8 hex digits of its
 *   SHA-256 so that two names reduced alike stay apart.
 * - start: the kernel's boot id (8 hex digits) and the process's start time in clock ticks since boot
 *   (`/proc/<pid>/stat`, field 22): together they tell a process from a later one given the same pid,
 *   after a restart or a reboot (a container's app is pid 1 at every start). Where there is no /proc, a
 *   random token, and any living process with that pid counts as the maker.
 *
 * Verdicts (makerOf): this process; another living process of this machine; a process of this machine
 * that is gone (its part may be removed by a sweep, once older than the grace); a process of another
 * machine (never touched: its liveness cannot be known from here).
 */
import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import os from 'node:os';

export interface ProcessMark {
  host: string;
  pid: number;
  start: string;
}

export type Maker = 'this-process' | 'alive' | 'gone' | 'elsewhere';

export function hostMark(hostname: string = os.hostname()): string {
  const readable =
    hostname
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, '-')
      .slice(0, 40) || 'host';
  return `${readable}-${createHash('sha256').update(hostname).digest('hex').slice(0, 8)}`;
}

function bootId(): string | undefined {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').replace(/-/g, '').trim().slice(0, 8);
  } catch {
    return undefined;
  }
}

/** Field 22 of /proc/<pid>/stat: after the command name's last `)`, the fields from the 3rd on. */
function startTicks(pid: number | 'self'): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

const BOOT = bootId();

function startOf(pid: number | 'self'): string | undefined {
  const ticks = startTicks(pid);
  return BOOT !== undefined && ticks !== undefined && /^\d+$/.test(ticks) ? `${BOOT}t${ticks}` : undefined;
}

/** This process, as its parts name it. */
export const THIS_PROCESS: ProcessMark = {
  host: hostMark(),
  pid: process.pid,
  // Without /proc: random, so no later process can ever look like this one.
  start: startOf('self') ?? `r${randomUUID().replace(/-/g, '').slice(0, 16)}`,
};

export function partName(key: string, mark: ProcessMark = THIS_PROCESS): string {
  return `${key}.${mark.host}.${mark.pid}.${mark.start}.${randomUUID().slice(0, 8)}.part`;
}

const PART = /^([0-9a-f-]{36})\.([a-z0-9-]+)\.(\d+)\.([a-z0-9]+)\.[0-9a-f]{8}\.part$/;

/** The key and maker of a part this code names; undefined for any other name (older parts included). */
export function parsePart(name: string): { key: string; mark: ProcessMark } | undefined {
  const match = PART.exec(name);
  if (!match) return undefined;
  const [, key = '', host = '', pid = '', start = ''] = match;
  return { key, mark: { host, pid: Number(pid), start } };
}

/** Whose a part is, as seen from this process (see the header). */
export function makerOf(mark: ProcessMark, self: ProcessMark = THIS_PROCESS): Maker {
  if (mark.host !== self.host) return 'elsewhere';
  if (mark.pid === self.pid && mark.start === self.start) return 'this-process';
  if (!processExists(mark.pid)) return 'gone';
  // A living process with that pid: the maker, unless it started at another time (the pid reused).
  if (mark.start.startsWith('r')) return 'alive';
  const now = startOf(mark.pid);
  return now === undefined || now === mark.start ? 'alive' : 'gone';
}

function processExists(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
