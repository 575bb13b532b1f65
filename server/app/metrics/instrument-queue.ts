/**
 * The review actions counted as they succeed: the queue store's writes (one instance per opened
 * review) wrapped, each counted once its transaction has committed and only when it changed
 * something (a refused take or a stale decision is not an action). A decision's durations: from the
 * operator's take when this copy served it (kept in memory, so a take on another copy or before a
 * restart gives none), and from the document's result (`ready_at`, in the row).
 */
import type { Clock } from '@extraction-review/server-kit/clock';
import type { QueueStore } from '../review/store/queue-store';
import type { AppMetrics } from './app-metrics';

/** Takes remembered at most (the oldest forgotten first): documents being reviewed at once. */
const MAX_TAKES = 10_000;

const DECISION_ACTION = { confirmed: 'confirm', rejected: 'reject', postponed: 'postpone' } as const;

type Metrics = Pick<AppMetrics, 'reviewAction' | 'reviewDecided' | 'documentConfirmed'>;

export function instrumentQueue(queue: QueueStore, metrics: Metrics, clock: Clock): void {
  const takes = new Map<string, { operatorId: string; at: number }>();
  const taken = (documentId: string, operatorId: string): void => {
    takes.delete(documentId);
    takes.set(documentId, { operatorId, at: clock.now() });
    if (takes.size > MAX_TAKES) takes.delete(takes.keys().next().value as string);
  };

  const take = queue.take.bind(queue);
  queue.take = async (id, operatorId, now) => {
    const result = await take(id, operatorId, now);
    if (result.ok) {
      metrics.reviewAction('take');
      taken(id, operatorId);
    }
    return result;
  };
  const takeNext = queue.takeNext.bind(queue);
  queue.takeNext = async (operatorId, now, filters) => {
    const document = await takeNext(operatorId, now, filters);
    if (document !== undefined) {
      metrics.reviewAction('take');
      taken(document.id, operatorId);
    }
    return document;
  };
  const release = queue.release.bind(queue);
  queue.release = async (id, operatorId, now) => {
    const result = await release(id, operatorId, now);
    if (result.ok) {
      metrics.reviewAction('release');
      takes.delete(id);
    }
    return result;
  };
  const decide = queue.decide.bind(queue);
  queue.decide = async (id, operatorId, baseVersion, decision, ...rest) => {
    const result = await decide(id, operatorId, baseVersion, decision, ...rest);
    if (result.ok) {
      metrics.reviewAction(DECISION_ACTION[decision]);
      if (decision === 'confirmed') metrics.documentConfirmed('operator');
      const take = takes.get(id);
      takes.delete(id);
      const decidedAt = result.document.decided_at ?? clock.now();
      const readyAt = result.document.ready_at;
      metrics.reviewDecided(
        decision,
        take?.operatorId === operatorId ? Math.max(0, decidedAt - take.at) : undefined,
        readyAt === null ? undefined : Math.max(0, decidedAt - readyAt),
      );
    }
    return result;
  };
  const setResult = queue.setResult.bind(queue);
  queue.setResult = async (...args) => {
    const document = await setResult(...args);
    // Confirmed as its result came in: the routing found nothing to review (queue-store.ts).
    if (document?.state === 'confirmed') metrics.documentConfirmed('auto');
    return document;
  };
  const counted = <K extends 'saveCorrections' | 'reassign' | 'reopen' | 'setPriority' | 'deleteDocument'>(
    method: K,
    action: string,
  ): void => {
    const original = (queue[method] as (...args: unknown[]) => Promise<{ ok: boolean }>).bind(queue);
    (queue as unknown as Record<K, unknown>)[method] = async (...args: unknown[]) => {
      const result = await original(...args);
      if (result.ok) metrics.reviewAction(action);
      return result;
    };
  };
  counted('saveCorrections', 'correct');
  counted('reassign', 'reassign');
  counted('reopen', 'reopen');
  counted('setPriority', 'priority');
  counted('deleteDocument', 'delete');
  const applyBulk = queue.applyBulk.bind(queue);
  queue.applyBulk = async (ids, change, adminId, now) => {
    const outcome = await applyBulk(ids, change, adminId, now);
    // Each document changed is one action, as if done one by one.
    metrics.reviewAction(change.action, outcome.changed.length);
    return outcome;
  };
}
