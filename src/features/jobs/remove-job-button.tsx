import { useState } from 'react';
import { Button } from '../../components/ui/button';

/** "Remove", then a confirmation: the job leaves this browser with its file and its draft. */
export function RemoveJobButton({ name, onRemove }: { name: string; onRemove: () => void }) {
  const [confirming, setConfirming] = useState(false);
  return confirming ? (
    <span className="flex items-center gap-2 text-xs">
      Remove it, its stored file and any unsent corrections?
      <Button variant="secondary" className="px-2 py-1 text-xs" onClick={onRemove}>
        Remove
      </Button>
      <Button variant="ghost" className="px-2 py-1 text-xs" onClick={() => setConfirming(false)}>
        Keep
      </Button>
    </span>
  ) : (
    <Button
      variant="ghost"
      className="px-2 py-1 text-xs"
      aria-label={`Remove ${name} from the list`}
      onClick={() => setConfirming(true)}
    >
      Remove
    </Button>
  );
}
