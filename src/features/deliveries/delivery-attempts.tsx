import { useQuery } from '@tanstack/react-query';
import { deliveryQueryOptions } from '../../api/review/delivery-queries';
import { ProblemAlert } from '../../components/problem-alert';
import { Spinner } from '../../components/ui/spinner';
import { formatWhen, OUTCOME_LABEL } from './describe-delivery';

/** A delivery's attempts, oldest first: when, what came of it, how long it took. */
export function DeliveryAttempts({ id }: { id: number }) {
  const detail = useQuery(deliveryQueryOptions(id));
  if (detail.isPending) return <Spinner label="Loading the attempts…" />;
  if (detail.isError) return <ProblemAlert error={detail.error} onRetry={() => void detail.refetch()} />;
  const attempts = detail.data.delivery.attemptLog;
  if (attempts.length === 0) return <p className="text-sm text-slate-700">No attempt yet.</p>;
  return (
    <ol aria-label={`Attempts of delivery ${id}`} className="flex flex-col gap-1 text-sm">
      {attempts.map((attempt, index) => (
        <li key={`${attempt.at}-${index}`} className="flex flex-wrap gap-x-2">
          <span className="text-slate-600">{index + 1}.</span>
          <time dateTime={attempt.at}>{formatWhen(attempt.at)}</time>
          <span className="font-medium">
            {OUTCOME_LABEL[attempt.outcome] ?? attempt.outcome}
            {attempt.status !== null && ` ${attempt.status}`}
          </span>
          <span className="text-slate-600">({attempt.durationMs} ms)</span>
          {attempt.error !== null && (
            <span className="w-full break-words text-slate-700">{attempt.error}</span>
          )}
        </li>
      ))}
    </ol>
  );
}
