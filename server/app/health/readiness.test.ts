/**
 * Readiness as a list of named checks: each within its time limit, required or only reported, one run
 * of a check at a time (probes share a run still under way), and failing at once when the copy drains.
 */
import { describe, expect, it } from 'vitest';
import { Readiness, type ReadinessCheck } from './readiness';

/** A check whose runs the test settles by hand; counts how many were started. */
function manualCheck(name: string, extra: Partial<ReadinessCheck> = {}) {
  const runs: { resolve: (value: undefined) => void; reject: (error: Error) => void; signal: AbortSignal }[] =
    [];
  const check: ReadinessCheck = {
    name,
    run: (signal) =>
      new Promise<undefined>((resolve, reject) => {
        runs.push({ resolve, reject, signal });
      }),
    ...extra,
  };
  return { check, runs };
}

const ok = (name: string, extra: Partial<ReadinessCheck> = {}): ReadinessCheck => ({
  name,
  run: () => Promise.resolve(undefined),
  ...extra,
});

describe('readiness', () => {
  it('is ready when every check passes, and names each with its state', async () => {
    const readiness = new Readiness({
      timeoutMs: 1_000,
      checks: [
        ok('database'),
        { name: 'migrations', run: () => Promise.resolve({ ok: true, detail: 'newer' }) },
      ],
    });
    expect(await readiness.report()).toEqual({
      ready: true,
      checks: {
        database: { state: 'ok', required: true },
        migrations: { state: 'ok', required: true, detail: 'newer' },
        shutdown: { state: 'ok', required: true },
      },
    });
    expect(readiness.names).toEqual(['database', 'migrations', 'shutdown']);
  });

  it('is not ready when a required check throws or says so; an optional one is only reported', async () => {
    const readiness = new Readiness({
      timeoutMs: 1_000,
      checks: [
        ok('database'),
        {
          name: 'listen',
          run: () => Promise.resolve({ ok: false, detail: 'the LISTEN connection is down' }),
        },
        {
          name: 'upstream',
          required: false,
          run: () => Promise.reject(new Error('unreachable (ECONNREFUSED)')),
        },
      ],
    });
    const report = await readiness.report();
    expect(report.ready).toBe(false);
    expect(report.checks).toMatchObject({
      listen: { state: 'failing', required: true, detail: 'the LISTEN connection is down' },
      upstream: { state: 'failing', required: false, detail: 'unreachable (ECONNREFUSED)' },
    });

    const onlyUpstream = new Readiness({
      timeoutMs: 1_000,
      checks: [{ name: 'upstream', required: false, run: () => Promise.reject(new Error('down')) }],
    });
    expect((await onlyUpstream.report()).ready).toBe(true);
  });

  it('counts a check that does not answer within its limit as timed out, and aborts its signal', async () => {
    const hanging = manualCheck('database');
    const readiness = new Readiness({ timeoutMs: 20, checks: [hanging.check, ok('migrations')] });
    const report = await readiness.report();
    expect(report.ready).toBe(false);
    expect(report.checks.database).toEqual({
      state: 'timeout',
      required: true,
      detail: 'no answer within 20 ms',
    });
    expect(report.checks.migrations?.state).toBe('ok');
    expect(hanging.runs[0]?.signal.aborted).toBe(true);
  });

  it('runs a check once at a time: probes share a run, even one that timed out and still hangs', async () => {
    const hanging = manualCheck('database');
    const readiness = new Readiness({ timeoutMs: 20, checks: [hanging.check] });
    const reports = await Promise.all([readiness.report(), readiness.report(), readiness.report()]);
    expect(reports.map((r) => r.checks.database?.state)).toEqual(['timeout', 'timeout', 'timeout']);
    // Still hanging: another probe starts no second query.
    expect((await readiness.report()).checks.database?.state).toBe('timeout');
    expect(hanging.runs).toHaveLength(1);

    // Once the hung run settles, the next probe checks afresh.
    hanging.runs[0]?.resolve(undefined);
    await new Promise((resolve) => setImmediate(resolve));
    const next = readiness.report();
    await new Promise((resolve) => setImmediate(resolve));
    expect(hanging.runs).toHaveLength(2);
    hanging.runs[1]?.resolve(undefined);
    expect((await next).checks.database?.state).toBe('ok');
  });

  it('uses a check’s own limit when it has one', async () => {
    const slow = manualCheck('upstream', { timeoutMs: 10, required: false });
    const readiness = new Readiness({ timeoutMs: 60_000, checks: [slow.check] });
    const report = await readiness.report();
    expect(report.checks.upstream).toMatchObject({ state: 'timeout', detail: 'no answer within 10 ms' });
    expect(report.ready).toBe(true);
  });

  it('fails the shutdown check from the moment the copy drains, whatever the others say', async () => {
    const readiness = new Readiness({ timeoutMs: 1_000, checks: [ok('database')] });
    expect((await readiness.report()).ready).toBe(true);
    readiness.startDraining('SIGTERM received: this copy is shutting down');
    expect(readiness.draining).toBe(true);
    const report = await readiness.report();
    expect(report.ready).toBe(false);
    expect(report.checks.shutdown).toEqual({
      state: 'failing',
      required: true,
      detail: 'SIGTERM received: this copy is shutting down',
    });
    expect(report.checks.database?.state).toBe('ok');
  });

  it('refuses two checks of one name, and a check named like the built-in one', () => {
    const readiness = new Readiness({ timeoutMs: 1_000, checks: [ok('database')] });
    expect(() => readiness.add(ok('database'))).toThrow(/exists already/);
    expect(() => readiness.add(ok('shutdown'))).toThrow(/exists already/);
    readiness.add(ok('search index'));
    expect(readiness.names).toEqual(['database', 'search index', 'shutdown']);
  });

  it('keeps URLs out of a failing check’s detail', async () => {
    const readiness = new Readiness({
      timeoutMs: 1_000,
      checks: [
        {
          name: 'database',
          run: () => Promise.reject(new Error('connect failed for postgres://review:s3cret@db:5432/review')),
        },
      ],
    });
    const detail = (await readiness.report()).checks.database?.detail ?? '';
    expect(detail).toBe('connect failed for <url>');
  });
});
