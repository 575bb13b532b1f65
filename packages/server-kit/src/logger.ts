/**
 * The one logger of both servers (pino): one JSON line per event (`time`, `level`, `msg`, then fields)
 * when stdout is not a terminal (a process manager, a container, a file), readable lines when it is
 * (the quick start). `LOG_FORMAT=json|pretty` forces one, `LOG_LEVEL` sets the level
 * (docs/operations.md, "Logs").
 *
 * Secrets never reach a line: header values that carry them are censored by path (`redact`), and every
 * line is scrubbed of URL user-info (`https://user:pass@host`) and key-like query parameters
 * (`?api_key=…`) whatever field or message carries them, since an error's message or stack may quote
 * a URL the code never meant to log.
 *
 * Modules that are not handed a logger ask `componentLogger('their name')`: the process's root logger,
 * set once at start-up by the entry point (`useRootLogger`), so tests and entry points choose where
 * the lines go without any module reading the environment. Lines written while a request is served
 * carry its `request_id` (`withLogFields`).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { pino, stdSerializers, type DestinationStream, type Logger } from 'pino';
import PinoPretty from 'pino-pretty';

export type { Logger } from 'pino';

export const LOG_FORMATS = ['json', 'pretty', 'auto'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface LoggerOptions {
  /** `auto` (the default): pretty when the destination is a terminal, else JSON. */
  format?: LogFormat;
  /** Default `info`. */
  level?: LogLevel;
  /** Where the lines go; default stdout. Tests pass a stream of their own. */
  destination?: DestinationStream;
  /** Whether the destination is a terminal (for `auto`); default stdout's. */
  isTty?: boolean;
  /** Fields on every line (`service`, …). */
  base?: Record<string, unknown>;
}

/** Header and field paths whose values are secrets: censored wherever pino finds them. */
export const REDACTED_PATHS: readonly string[] = [
  ...['authorization', 'cookie', 'set-cookie', 'x-api-key', 'x-csrf-token', 'proxy-authorization'].flatMap(
    (name) => [`headers["${name}"]`, `req.headers["${name}"]`, `res.headers["${name}"]`],
  ),
  ...['password', 'apiKey', 'api_key', 'token', 'secret', 'cookie', 'authorization'].flatMap((key) => [
    key,
    `*.${key}`,
  ]),
];

export const CENSORED = '[redacted]';

// `scheme://user:pass@` or `scheme://token@`: the user-info of a URL, up to the last `@` before the host.
const URL_USER_INFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@"'\\]+@/gi;
// Query parameters whose values are credentials: `?api_key=…`, `&token=…`, `&X-Amz-Signature=…`.
const KEY_LIKE_PARAM =
  /([?&](?:api[_-]?key|key|token|access[_-]?token|secret|password|passwd|signature|x-amz-signature|x-amz-credential|sig)=)[^&#\s"'\\]*/gi;

/** A text (a URL, a message, a whole line) without URL user-info or key-like query values. */
export function scrubSecrets(text: string): string {
  return text.replace(URL_USER_INFO, `$1${CENSORED}@`).replace(KEY_LIKE_PARAM, `$1${CENSORED}`);
}

/** Writes each line scrubbed to `inner`. */
function scrubbing(inner: DestinationStream): DestinationStream {
  return { write: (line: string) => inner.write(scrubSecrets(line)) };
}

/** Whether `format` comes out as JSON lines on a destination that is (or not) a terminal. */
export function choosesJson(format: LogFormat, isTty: boolean): boolean {
  return format === 'json' || (format === 'auto' && !isTty);
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const isTty = options.isTty ?? process.stdout.isTTY === true;
  const json = choosesJson(options.format ?? 'auto', isTty);
  const out = options.destination ?? pino.destination({ dest: 1, sync: true });
  const target: DestinationStream = json ? out : readable(out, isTty && options.destination === undefined);
  return pino(
    {
      level: options.level ?? 'info',
      base: { pid: process.pid, ...options.base },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      // The fields of the work under way (a request's id): on every line logged while it runs.
      mixin: () => logFields.getStore() ?? {},
      redact: { paths: [...REDACTED_PATHS], censor: CENSORED },
      // An error is one field, its stack a string in it: one line, never several.
      serializers: { err: stdSerializers.err, error: stdSerializers.err },
    },
    scrubbing(target),
  );
}

/** Readable lines (pino-pretty's formatter, synchronously: a line is out before an exit). */
function readable(out: DestinationStream, colorize: boolean): DestinationStream {
  const format = PinoPretty.prettyFactory({
    colorize,
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,component',
    messageFormat: '{if component}{component}: {end}{msg}',
  });
  return { write: (line: string) => out.write(format(line)) };
}

const logFields = new AsyncLocalStorage<Record<string, unknown>>();

/**
 * Runs `work` with `fields` on every line any logger writes meanwhile, across its awaits (the request
 * log middleware: `request_id` on the lines of the modules a request reaches).
 */
export function withLogFields<T>(fields: Record<string, unknown>, work: () => T): T {
  return logFields.run({ ...logFields.getStore(), ...fields }, work);
}

let root: Logger | undefined;

/** The process's root logger: the one set by the entry point, else (tests, scripts) a default one. */
export function rootLogger(): Logger {
  root ??= createLogger({ level: defaultLevel() });
  return root;
}

/** Sets the process's root logger (the entry point, first thing; tests that capture lines). */
export function useRootLogger(logger: Logger): void {
  root = logger;
}

function defaultLevel(): LogLevel {
  const level = process.env.LOG_LEVEL?.trim().toLowerCase();
  return (LOG_LEVELS as readonly string[]).includes(level ?? '') ? (level as LogLevel) : 'info';
}

/** What a module logs through: its lines carry `component`. */
export type ComponentLogger = Pick<Logger, 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace'>;

/**
 * A logger for one component, bound to whichever root logger is current when it logs (so a module may
 * make it at import time, before the entry point sets the root).
 */
export function componentLogger(component: string): ComponentLogger {
  let boundTo: Logger | undefined;
  let child: Logger | undefined;
  const current = (): Logger => {
    const parent = rootLogger();
    if (boundTo !== parent || child === undefined) {
      boundTo = parent;
      child = parent.child({ component });
    }
    return child;
  };
  return {
    fatal: (...args: Parameters<Logger['fatal']>) => current().fatal(...args),
    error: (...args: Parameters<Logger['error']>) => current().error(...args),
    warn: (...args: Parameters<Logger['warn']>) => current().warn(...args),
    info: (...args: Parameters<Logger['info']>) => current().info(...args),
    debug: (...args: Parameters<Logger['debug']>) => current().debug(...args),
    trace: (...args: Parameters<Logger['trace']>) => current().trace(...args),
  } as ComponentLogger;
}

/** A destination that keeps the lines in memory, parsed (tests). */
export function memoryDestination(): DestinationStream & {
  lines: string[];
  records(): Record<string, unknown>[];
} {
  const lines: string[] = [];
  return {
    lines,
    write: (chunk: string) => {
      for (const line of chunk.split('\n')) if (line !== '') lines.push(line);
    },
    records: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}
