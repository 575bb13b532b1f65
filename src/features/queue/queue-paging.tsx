import { Button } from '../../components/ui/button';

interface Props {
  page: number;
  hasPrevious: boolean;
  /** The next page's cursor; null on the last page, undefined while unknown. */
  nextCursor: string | null | undefined;
  /** The rows shown are still the previous page's while this one loads: clicks wait. */
  busy: boolean;
  onPrevious: () => void;
  onNext: (cursor: string) => void;
}

/** "Previous page", "Page N", "Next page". */
export function QueuePaging({ page, hasPrevious, nextCursor, busy, onPrevious, onNext }: Props) {
  return (
    <nav aria-label="Pages of the queue" className="flex items-center gap-3">
      <Button
        variant="secondary"
        disabled={!hasPrevious}
        aria-busy={busy}
        onClick={() => {
          if (!busy) onPrevious();
        }}
      >
        <span aria-hidden="true">←</span> Previous page
      </Button>
      <span className="text-sm text-slate-700 tabular-nums">Page {page}</span>
      <Button
        variant="secondary"
        disabled={nextCursor == null}
        aria-busy={busy}
        onClick={() => {
          // While a page loads, the cursor shown is the previous page's: a second click would skip.
          if (!busy && nextCursor != null) onNext(nextCursor);
        }}
      >
        Next page <span aria-hidden="true">→</span>
      </Button>
    </nav>
  );
}
