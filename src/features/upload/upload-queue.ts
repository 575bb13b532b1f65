/**
 * The uploads of this browser session: a bounded number in flight (p-limit), the others visibly queued,
 * each with its phase (queued → sending with its progress, or waiting out a 429 → enqueued, failed or
 * cancelled). Plain TypeScript with a subscribe/getSnapshot pair for `useSyncExternalStore`, so that it
 * is tested without React and outlives the upload page (the operator may go to the job list while files
 * are still going up).
 */
import pLimit from 'p-limit';

/** Uploads in flight at once: enough to fill a link, few enough not to trip the rate limit at once. */
export const UPLOAD_CONCURRENCY = 3;

export type UploadPhase =
  | { kind: 'queued' }
  | { kind: 'sending'; loaded: number; total: number }
  | { kind: 'rate-limited'; until: number; retry: number }
  /** `warning`: the job was queued, but something after it went wrong (it could not be stored here). */
  | { kind: 'enqueued'; jobId: string; warning?: string; href?: string }
  | { kind: 'failed'; error: unknown }
  | { kind: 'cancelled' };

export interface UploadItem<P> {
  id: string;
  /** The file name, or the URL. */
  label: string;
  /** Bytes, when known (a file); null for a URL. */
  size: number | null;
  payload: P;
  phase: UploadPhase;
}

export interface NewUpload<P> {
  label: string;
  size: number | null;
  payload: P;
}

export interface SendReport {
  progress(loaded: number, total: number): void;
  rateLimited(waitMs: number, retry: number): void;
}

export interface Sent {
  jobId: string;
  warning?: string;
  /** The job's page when it is not `/jobs/<jobId>` (a v1 prediction's). */
  href?: string;
}

/** Sends one upload; resolves with the job id. */
export type Sender<P> = (payload: P, report: SendReport, signal: AbortSignal) => Promise<Sent>;

export interface UploadQueue<P> {
  readonly concurrency: number;
  /** Queues uploads; each `done` settles when that upload is enqueued, failed or cancelled. */
  add(entries: readonly NewUpload<P>[]): { id: string; done: Promise<UploadItem<P>> }[];
  cancel(id: string): void;
  /** Sends a failed or cancelled upload again (queued behind the others). */
  retry(id: string): void;
  /** Takes a finished upload off the list. */
  dismiss(id: string): void;
  clearFinished(): void;
  getSnapshot(): readonly UploadItem<P>[];
  subscribe(listener: () => void): () => void;
}

export const isFinished = (phase: UploadPhase): boolean =>
  phase.kind === 'enqueued' || phase.kind === 'failed' || phase.kind === 'cancelled';

export const isInFlight = (phase: UploadPhase): boolean =>
  phase.kind === 'sending' || phase.kind === 'rate-limited';

export interface UploadQueueOptions<P> {
  send: Sender<P>;
  concurrency?: number;
  now?: () => number;
  newId?: () => string;
}

export function createUploadQueue<P>({
  send,
  concurrency = UPLOAD_CONCURRENCY,
  now = Date.now,
  newId = () => crypto.randomUUID(),
}: UploadQueueOptions<P>): UploadQueue<P> {
  const limit = pLimit(concurrency);
  const items = new Map<string, UploadItem<P>>();
  const controllers = new Map<string, AbortController>();
  const waiters = new Map<string, ((item: UploadItem<P>) => void)[]>();
  const listeners = new Set<() => void>();
  let snapshot: readonly UploadItem<P>[] = [];

  const publish = () => {
    snapshot = [...items.values()];
    for (const listener of listeners) listener();
  };

  const setPhase = (id: string, phase: UploadPhase) => {
    const item = items.get(id);
    if (!item) return;
    const next = { ...item, phase };
    items.set(id, next);
    publish();
    if (isFinished(phase)) {
      for (const resolve of waiters.get(id) ?? []) resolve(next);
      waiters.delete(id);
    }
  };

  const phaseOf = (id: string) => items.get(id)?.phase;

  async function run(id: string): Promise<void> {
    const item = items.get(id);
    if (!item || item.phase.kind !== 'queued') return;
    const controller = new AbortController();
    controllers.set(id, controller);
    setPhase(id, { kind: 'sending', loaded: 0, total: item.size ?? 0 });
    const report: SendReport = {
      progress: (loaded, total) => {
        if (isInFlight(phaseOf(id) ?? { kind: 'queued' }) && !controller.signal.aborted)
          setPhase(id, { kind: 'sending', loaded, total });
      },
      rateLimited: (waitMs, retry) => {
        if (!controller.signal.aborted) setPhase(id, { kind: 'rate-limited', until: now() + waitMs, retry });
      },
    };
    try {
      // Once the service has answered, the job exists: a late cancel no longer changes that.
      const sent = await send(item.payload, report, controller.signal);
      setPhase(id, { kind: 'enqueued', ...sent });
    } catch (error) {
      setPhase(id, controller.signal.aborted ? { kind: 'cancelled' } : { kind: 'failed', error });
    } finally {
      controllers.delete(id);
    }
  }

  const schedule = (id: string): Promise<UploadItem<P>> => {
    const done = new Promise<UploadItem<P>>((resolve) => {
      waiters.set(id, [...(waiters.get(id) ?? []), resolve]);
    });
    void limit(run, id);
    return done;
  };

  return {
    concurrency,
    add(entries) {
      const added = entries.map((entry) => {
        const id = newId();
        items.set(id, {
          id,
          label: entry.label,
          size: entry.size,
          payload: entry.payload,
          phase: { kind: 'queued' },
        });
        return id;
      });
      publish();
      return added.map((id) => ({ id, done: schedule(id) }));
    },
    cancel(id) {
      const phase = phaseOf(id);
      if (!phase || isFinished(phase)) return;
      if (phase.kind === 'queued') setPhase(id, { kind: 'cancelled' });
      else controllers.get(id)?.abort(new DOMException('The upload was cancelled', 'AbortError'));
    },
    retry(id) {
      const phase = phaseOf(id);
      if (phase?.kind !== 'failed' && phase?.kind !== 'cancelled') return;
      setPhase(id, { kind: 'queued' });
      void schedule(id);
    },
    dismiss(id) {
      const phase = phaseOf(id);
      if (!phase || !isFinished(phase)) return;
      items.delete(id);
      publish();
    },
    clearFinished() {
      for (const [id, item] of items) if (isFinished(item.phase)) items.delete(id);
      publish();
    },
    getSnapshot: () => snapshot,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
