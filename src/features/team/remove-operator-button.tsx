import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { removeOperator } from '../../api/review/endpoints';
import { operatorsQueryOptions } from '../../api/review/queries';
import type { OperatorView } from '@extraction-review/contract/review/schemas';
import { ProblemAlert } from '../../components/problem-alert';
import { Button } from '../../components/ui/button';
import { sessionAction } from './field-problems';
import { useRecheckSessionOn } from '../../app/session/use-session';

interface Props {
  operator: OperatorView;
  onRemoved: () => void;
}

type Step = 'idle' | 'confirming' | 'kept';

/** "Remove", then a confirmation: the operator and their sessions end at once (the server's rule). */
export function RemoveOperatorButton({ operator, onRemoved }: Props) {
  const queryClient = useQueryClient();
  const [step, setStep] = useState<Step>('idle');

  const mutation = useMutation({
    mutationFn: () => removeOperator(operator.id),
    onSuccess: () => onRemoved(),
    // Removed or not (404-012: another admin was quicker), the list is read again.
    onSettled: () => queryClient.invalidateQueries({ queryKey: operatorsQueryOptions().queryKey }),
  });

  useRecheckSessionOn(mutation.error);

  // Focus follows the question (autoFocus acts as each button appears): onto "Keep" when asked, back
  // onto "Remove" when kept.
  if (step !== 'confirming')
    return (
      <Button
        variant="ghost"
        className="px-2 py-1 text-xs whitespace-nowrap"
        aria-label={`Remove ${operator.name}`}
        autoFocus={step === 'kept'}
        onClick={() => setStep('confirming')}
      >
        Remove
      </Button>
    );
  return (
    <div className="flex flex-col items-end gap-2 text-left">
      <div role="group" aria-label={`Remove ${operator.name}?`} className="flex items-center gap-2 text-xs">
        <span>Remove {operator.name}? Their sessions end at once.</span>
        <Button
          variant="secondary"
          className="border-red-700 px-2 py-1 text-xs text-red-800"
          disabled={mutation.isPending}
          onClick={() => mutation.mutate()}
        >
          {mutation.isPending ? 'Removing…' : `Yes, remove ${operator.name}`}
        </Button>
        <Button
          variant="ghost"
          className="px-2 py-1 text-xs whitespace-nowrap"
          autoFocus
          onClick={() => {
            mutation.reset();
            setStep('kept');
          }}
        >
          Keep
        </Button>
      </div>
      {mutation.isError && <ProblemAlert error={mutation.error} action={sessionAction(mutation.error)} />}
    </div>
  );
}
