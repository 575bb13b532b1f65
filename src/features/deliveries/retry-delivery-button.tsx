import { useMutation, useQueryClient } from '@tanstack/react-query';
import { retryDelivery } from '../../api/review/delivery-endpoints';
import type { DeliveryView } from '@extraction-review/contract/review/deliveries';
import { reviewKeys } from '../../api/keys';
import { ProblemAlert } from '../../components/problem-alert';
import { Button } from '../../components/ui/button';

/** "Retry" on a failed delivery: pending again with a new round of attempts, due now. */
export function RetryDeliveryButton({ delivery }: { delivery: DeliveryView }) {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: () => retryDelivery(delivery.id),
    // Retried or not (409-004: delivered meanwhile), the lists and this delivery are read again.
    onSettled: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: reviewKeys.deliveryLists() }),
        queryClient.invalidateQueries({ queryKey: reviewKeys.delivery(delivery.id) }),
        queryClient.invalidateQueries({ queryKey: reviewKeys.documentDeliveries(delivery.documentId) }),
      ]);
    },
  });
  return (
    <div className="flex flex-col items-end gap-1">
      <Button
        variant="secondary"
        className="px-2 py-1 text-xs"
        aria-label={`Retry delivery ${delivery.id}`}
        disabled={mutation.isPending}
        onClick={() => mutation.mutate()}
      >
        {mutation.isPending ? 'Retrying…' : 'Retry'}
      </Button>
      {mutation.isError && <ProblemAlert error={mutation.error} />}
    </div>
  );
}
