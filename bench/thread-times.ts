/**
 * Where a process's time goes, thread by thread (Linux /proc): CPU time, and the time each thread was
 * ready to run but waiting for a core (the scheduler's run delay). On a machine whose cores are all
 * busy, a thread that does the same work as the baseline still takes longer: this says by how much.
 */
import { readdir, readFile } from 'node:fs/promises';

export interface ThreadTime {
  /** User + system CPU time, ms (clock ticks of 10 ms). */
  cpu: number;
  /** Time spent runnable but not running, ms (schedstat). */
  wait: number;
}

/** CPU time (user + system, every thread, those gone included) a process has used so far, in ms. */
export async function processCpuMs(pid: number | undefined): Promise<number> {
  if (pid === undefined) return Number.NaN;
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  return stat ? cpuMsOf(stat) : Number.NaN;
}

/** User + system CPU of a `stat` line (a process's or a thread's), in ms. */
function cpuMsOf(stat: string): number {
  // Fields after the command name: utime and stime are the 12th and 13th, in clock ticks (100 Hz).
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Every thread of `pid` now, by thread id. */
export async function threadTimes(pid: number): Promise<Map<number, ThreadTime>> {
  const times = new Map<number, ThreadTime>();
  const tids = await readdir(`/proc/${pid}/task`).catch(() => [] as string[]);
  for (const tid of tids) {
    const [stat, schedstat] = await Promise.all([
      readFile(`/proc/${pid}/task/${tid}/stat`, 'utf8').catch(() => ''),
      readFile(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').catch(() => ''),
    ]);
    if (!stat) continue;
    const [, runDelayNs] = schedstat.split(' ');
    times.set(Number(tid), { cpu: cpuMsOf(stat), wait: Number(runDelayNs ?? 0) / 1e6 });
  }
  return times;
}

/** Per thread, what was used between two readings. */
export function since(
  before: Map<number, ThreadTime>,
  after: Map<number, ThreadTime>,
): Map<number, ThreadTime> {
  const used = new Map<number, ThreadTime>();
  for (const [tid, now] of after) {
    const then = before.get(tid) ?? { cpu: 0, wait: 0 };
    used.set(tid, { cpu: now.cpu - then.cpu, wait: now.wait - then.wait });
  }
  return used;
}

/** Adds `more` into `total`, thread by thread. */
export function accumulate(total: Map<number, ThreadTime>, more: Map<number, ThreadTime>): void {
  for (const [tid, time] of more) {
    const sum = total.get(tid) ?? { cpu: 0, wait: 0 };
    total.set(tid, { cpu: sum.cpu + time.cpu, wait: sum.wait + time.wait });
  }
}

export interface ThreadSplit {
  /** The process's main thread (its thread id is the process id). */
  main: ThreadTime;
  /** The busiest other thread: an extraction thread, for a service with one. */
  busiest: ThreadTime;
  /** Every other thread together: V8's helpers (GC, compilers), worker threads, libuv's pool. */
  others: ThreadTime;
}

/** `used` split into the main thread, the busiest other thread and the rest, each divided by `per`. */
export function splitThreads(used: Map<number, ThreadTime>, pid: number, per: number): ThreadSplit {
  const zero = { cpu: 0, wait: 0 };
  const main = used.get(pid) ?? zero;
  const rest = [...used].filter(([tid]) => tid !== pid).map(([, time]) => time);
  rest.sort((a, b) => b.cpu - a.cpu);
  const [busiest = zero, ...others] = rest;
  const scaled = (t: ThreadTime): ThreadTime => ({ cpu: t.cpu / per, wait: t.wait / per });
  return {
    main: scaled(main),
    busiest: scaled(busiest),
    others: scaled(
      others.reduce((sum, t) => ({ cpu: sum.cpu + t.cpu, wait: sum.wait + t.wait }), { cpu: 0, wait: 0 }),
    ),
  };
}
