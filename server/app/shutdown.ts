/**
 * A copy's graceful shutdown, as a load balancer needs it (SIGTERM from an orchestrator, a rolling
 * restart):
 *
 *   1. readiness turns `503` at once (health/readiness.ts), and every answer closes its connection;
 *   2. the copy keeps serving for SHUTDOWN_DRAIN_MS, the time the balancer takes to notice and stop
 *      sending (skipped on SIGINT: a developer's Ctrl-C has no balancer to wait for);
 *   3. it stops accepting connections, ends the event streams (browsers reconnect, to another copy),
 *      and lets requests in flight finish, uploads included, for up to SHUTDOWN_GRACE_MS, closing
 *      each connection as soon as it is idle; what is still under way then is cut;
 *      Other listeners of the copy (the metrics' own port, METRICS_PORT) close with it;
 *   4. the background workers stop (the job follower and the delivery worker hand their leases back,
 *      so another copy takes their work at once instead of when the leases run out);
 *   5. the review store (and the embedded reference service) close, and the process exits 0.
 *
 * A second signal exits at once. Each step is logged with a `[shutdown]` prefix; a step that fails is
 * logged and the next ones still run (the exit code is then 1).
 */
import type { RunningServer } from './listen';
import type { Readiness } from './health/readiness';
import { componentLogger } from '@extraction-review/server-kit/logger';

const logger = componentLogger('shutdown');

export interface ShutdownPlan {
  readiness: Readiness;
  server: Pick<RunningServer, 'drain' | 'close' | 'inFlight'>;
  drainMs: number;
  graceMs: number;
  /** Listeners besides the app's (the metrics' port): closed with the server, after its drain. */
  listeners?: readonly { name: string; close(): Promise<unknown> }[];
  /** Ends the event streams (they would otherwise hold their connections for the whole grace). */
  endStreams(): void;
  /** Background work, stopped once no request is left (an upload's document is followed first). */
  workers: readonly { name: string; stop(): Promise<void> }[];
  /** The store and anything else to close last, in order. */
  resources: readonly { name: string; close(): Promise<void> }[];
  /** Waits (the drain); injectable for tests. Default a timer. */
  wait?: (ms: number) => Promise<void>;
  log?: (line: string) => void;
}

const defaultLog = (line: string): void => logger.info(line);

/** Runs the shutdown; resolves with the exit code (0 when every step succeeded). */
export async function shutDown(signal: NodeJS.Signals, plan: ShutdownPlan): Promise<number> {
  const log = plan.log ?? defaultLog;
  const wait = plan.wait ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  let failed = false;
  const step = async (what: string, run: () => Promise<void> | void): Promise<void> => {
    try {
      await run();
    } catch (error) {
      failed = true;
      logger.error({ err: error }, `${what} failed`);
    }
  };

  plan.readiness.startDraining(`${signal} received: this copy is shutting down`);
  plan.server.drain();
  const drainMs = signal === 'SIGINT' ? 0 : plan.drainMs;
  log(
    `${signal}: readiness is 503 from now; serving ${drainMs} ms more (SHUTDOWN_DRAIN_MS) so that the ` +
      'load balancer stops sending',
  );
  if (drainMs > 0) await wait(drainMs);

  log(
    `drain over: no new connections; ${plan.server.inFlight()} request(s) in flight may take up to ` +
      `${plan.graceMs} ms (SHUTDOWN_GRACE_MS) to finish`,
  );
  await step('ending the event streams', () => {
    plan.endStreams();
    log('event streams ended (browsers reconnect elsewhere)');
  });
  await step('closing the server', async () => {
    const closed = plan.server.close({ graceMs: plan.graceMs });
    const { inFlight, cut } = await closed;
    log(
      cut === 0
        ? `every connection closed: ${inFlight} request(s) in flight finished`
        : `every connection closed: ${inFlight - cut} request(s) in flight finished, ${cut} cut at the end of the grace`,
    );
  });

  for (const listener of plan.listeners ?? []) {
    await step(`closing ${listener.name}`, async () => {
      await listener.close();
      log(`${listener.name} closed`);
    });
  }

  for (const worker of plan.workers) {
    await step(`stopping ${worker.name}`, async () => {
      await worker.stop();
      log(`${worker.name} stopped`);
    });
  }
  for (const resource of plan.resources) {
    await step(`closing ${resource.name}`, async () => {
      await resource.close();
      log(`${resource.name} closed`);
    });
  }
  const code = failed ? 1 : 0;
  log(`done; exiting with ${code}`);
  return code;
}

/**
 * SIGTERM and SIGINT run `run` once; a second signal exits at once (code 1). `exit` is called with the
 * code `run` resolves with.
 */
export function onShutdownSignals(
  run: (signal: NodeJS.Signals) => Promise<number>,
  exit: (code: number) => never = (code) => process.exit(code),
): void {
  let running = false;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (running) {
      logger.info(`${signal} again: exiting now`);
      exit(1);
    }
    running = true;
    run(signal).then(exit, (error: unknown) => {
      logger.error({ err: error }, 'the shutdown failed');
      exit(1);
    });
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}
