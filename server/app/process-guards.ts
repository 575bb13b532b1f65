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
 * Neither ever logs more than the error (no request, no settings).
 */
import { isStoreUnavailable } from './review/db/store-unavailable';

export interface ProcessGuardOptions {
  /** Ends the process (tests pass their own). Default `process.exit`. */
  exit?: (code: number) => void;
  /** Where the lines go. Default `console.error`. */
  log?: (line: string, error: unknown) => void;
}

/** Whether the copy may go on after this uncaught exception (see above). */
export function survivable(error: unknown): boolean {
  return isStoreUnavailable(error);
}

/** Installs both handlers; returns what removes them (for tests). */
export function installProcessGuards(options: ProcessGuardOptions = {}): () => void {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const log = options.log ?? ((line: string, error: unknown) => console.error(line, error));

  const onRejection = (reason: unknown): void => {
    log('[process] unhandled promise rejection (the copy goes on):', reason);
  };
  const onException = (error: Error, origin: NodeJS.UncaughtExceptionOrigin): void => {
    if (survivable(error)) {
      log(`[process] uncaught ${origin}: a connection went away (the copy goes on):`, error);
      return;
    }
    log(`[process] uncaught ${origin}: the copy's state is unknown, exiting with 1:`, error);
    exit(1);
  };
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtException', onException);
  return () => {
    process.off('unhandledRejection', onRejection);
    process.off('uncaughtException', onException);
  };
}
