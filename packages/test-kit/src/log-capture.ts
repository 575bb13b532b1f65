/**
 * The process's log lines, captured for a test: the root logger (packages/server-kit/src/logger.ts)
 * writes JSON lines to memory until `restore()`. Tests read the lines, never spy on console.
 */
import {
  createLogger,
  memoryDestination,
  rootLogger,
  useRootLogger,
  type LogLevel,
} from '@extraction-review/server-kit/logger';

export interface CapturedLogs {
  /** Every line so far, parsed. */
  records(): Record<string, unknown>[];
  /** The messages of the lines at `level` so far. */
  messages(level: LogLevel): string[];
  /** Forgets the lines so far. */
  clear(): void;
  /** Puts the previous root logger back. */
  restore(): void;
}

export function captureLogs(level: LogLevel = 'debug'): CapturedLogs {
  const before = rootLogger();
  const out = memoryDestination();
  useRootLogger(createLogger({ format: 'json', level, destination: out }));
  const records = () => out.records();
  return {
    records,
    messages: (wanted) =>
      records()
        .filter((line) => line.level === wanted)
        .map((line) => String(line.msg)),
    clear: () => out.lines.splice(0),
    restore: () => useRootLogger(before),
  };
}

/** The messages of another process's JSON log lines of one `component`, in order (its stdout). */
export function componentMessages(output: string, component: string): string[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { component?: string; msg?: string })
    .filter((line) => line.component === component)
    .map((line) => line.msg ?? '');
}
