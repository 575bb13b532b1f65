import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { takeNext } from '../../api/review/endpoints';
import { reviewKeys } from '../../api/keys';
import { ProblemAlert } from '../../components/problem-alert';
import { Button } from '../../components/ui/button';
import { hasFilters, reviewHref, toNextQuery, type QueueFilters } from '../../lib/queue-filters';

/** Keys typed into a field are the field's, not shortcuts. */
function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false;
  if (target instanceof HTMLInputElement)
    return !['checkbox', 'radio', 'button', 'submit', 'reset', 'file', 'image', 'color'].includes(
      target.type,
    );
  return (
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement ||
    target.closest('[contenteditable]:not([contenteditable="false"])') != null
  );
}

interface Props {
  /** The queue's active filters: the document taken is one they list, and its review keeps them. */
  filters: QueueFilters;
  /** The signed-in operator's id (the `me` of the operator filter). */
  me: string | undefined;
}

/**
 * Takes the next waiting document of the active filters (highest priority, then oldest) under a
 * lease and opens it; says so when nothing is left. `s` does the same from anywhere on the page but a
 * text field.
 */
export function StartReviewingButton({ filters, me }: Props) {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const [nothingLeft, setNothingLeft] = useState(false);
  const take = useMutation({
    mutationFn: () => takeNext(toNextQuery(filters, me)),
    onMutate: () => setNothingLeft(false),
    onSuccess: (document) => {
      if (document === undefined) {
        setNothingLeft(true);
        return;
      }
      // The review opens warm on what the take answered.
      queryClient.setQueryData(reviewKeys.document(document.id), { document });
      navigate(reviewHref(document.id, filters));
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: reviewKeys.queues() }),
  });

  const start = useRef(() => {});
  useEffect(() => {
    start.current = () => {
      if (!take.isPending) take.mutate();
    };
  });
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 's' || event.repeat || event.defaultPrevented) return;
      if (event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return;
      if (isTypingTarget(event.target)) return;
      if (event.target instanceof Element && event.target.closest('dialog[open]')) return;
      event.preventDefault();
      start.current();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);

  return (
    <div className="flex flex-col items-start gap-2 sm:items-end">
      <Button aria-keyshortcuts="s" aria-busy={take.isPending} onClick={() => start.current()}>
        Start reviewing
        <kbd
          aria-hidden="true"
          className="rounded border border-blue-300 px-1 font-mono text-xs font-normal text-blue-50"
        >
          S
        </kbd>
      </Button>
      <p role="status" className="text-sm text-slate-700">
        {take.isPending && 'Taking the next document…'}
        {nothingLeft
          ? hasFilters(filters)
            ? 'Nothing left to review in these filters: no matching document is waiting.'
            : 'Nothing left to review: no document is waiting.'
          : ''}
      </p>
      {take.isError && (
        <ProblemAlert error={take.error} action="No document was taken: try again in a moment." />
      )}
    </div>
  );
}
