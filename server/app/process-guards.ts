/**
 * The last line of defence of an app-server copy: what escapes every handler and loop is logged, and
 * the copy stays up when that is safe. Installed once, first thing, by server/main.ts.
 *
 * - `unhandledRejection`: a promise rejected with no one to catch it (a background task's `void
 *   promise`). Node's default since v15 ends the process; here it is logged and the copy goes on. A
 *   rejection is only a value no one awaited: the code that made it has already unwound, nothing was
 *   left half-done by the throw itself.
 * - `uncaughtException`: an error thrown from a callback, or an `error` event with no listener. Node's
 *   documentation says the process is then in an undefined state (the throw may have stopped our own
 *   code between two steps of an update). The copy exits with 1 (the supervisor or orchestrator starts
 *   it again), unless the error means that an outside resource went away (store-unavailable.ts: a
 *   database or network connection refused, reset or timed out, SQLite busy): such errors come from a
 *   socket's or driver's `error` event, which leaves only that connection broken, and the pool or the
 *   bus opens a new one. Those are logged and the copy stays up.
 *
 * Neither ever logs more than the error (no request, no settings): one line at `error` (`fatal` when
 * the copy exits), the error a field with its stack in it, never a multi-line trace.
 */
import { componentLogger, type ComponentLogger } from '@extraction-review/server-kit/logger';
import { isStoreUnavailable } from './review/db/store-unavailable';

export interface ProcessGuardOptions {
  /** Ends the process (tests pass their own). Default `process.exit`. */
  exit?: (code: number) => void;
  /** Where the lines go. Default the process's logger, as component `process`. */
  log?: ComponentLogger;
}

/** Whether the copy may go on after this uncaught exception (see above). */
export function survivable(error: unknown): boolean {
  return isStoreUnavailable(error);
}

/** Installs both handlers; returns what removes them (for tests). */
export function installProcessGuards(options: ProcessGuardOptions = {}): () => void {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const log = options.log ?? componentLogger('process');

  const onRejection = (reason: unknown): void => {
    log.error({ err: reason }, 'unhandled promise rejection (the copy goes on)');
  };
  const onException = (error: Error, origin: NodeJS.UncaughtExceptionOrigin): void => {
    if (survivable(error)) {
      log.error({ err: error, origin }, `uncaught ${origin}: a connection went away (the copy goes on)`);
      return;
    }
    log.fatal({ err: error, origin }, `uncaught ${origin}: the copy's state is unknown, exiting with 1`);
    exit(1);
  };
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtException', onException);
  return () => {
    process.off('unhandledRejection', onRejection);
    process.off('uncaughtException', onException);
  };
}
