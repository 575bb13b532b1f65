/**
 * For admins: how soon a waiting document comes up. "Start reviewing" takes the highest priority
 * first, then the oldest; 0 is everybody's default. Saved at once, as the document's new version.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { reviewKeys } from '../../../api/keys';
import { setDocumentPriority } from '../../../api/review/endpoints';
import type { ReviewDocument } from '@extraction-review/contract/review/schemas';
import { ProblemAlert } from '../../../components/problem-alert';
import { Button } from '../../../components/ui/button';

export function PriorityControl({ document }: { document: ReviewDocument }) {
  const queryClient = useQueryClient();
  const id = useId();
  const [value, setValue] = useState(String(document.priority));
  const save = useMutation({
    mutationFn: (priority: number) => setDocumentPriority(document.id, priority),
    onSuccess: (answer) => {
      queryClient.setQueryData(reviewKeys.document(document.id), answer);
      void queryClient.invalidateQueries({ queryKey: reviewKeys.queues() });
      void queryClient.invalidateQueries({ queryKey: reviewKeys.timeline(document.id) });
    },
  });
  const parsed = Number(value);
  const valid = value.trim() !== '' && Number.isInteger(parsed) && parsed >= -1000 && parsed <= 1000;
  return (
    <form
      className="flex flex-wrap items-end gap-2 text-sm"
      onSubmit={(event) => {
        event.preventDefault();
        if (valid) save.mutate(parsed);
      }}
    >
      <div className="flex flex-col gap-1">
        <label htmlFor={id} className="font-medium">
          Priority
        </label>
        <input
          id={id}
          type="number"
          min={-1000}
          max={1000}
          step={1}
          value={value}
          onChange={(event) => setValue(event.target.value)}
          aria-describedby={`${id}-hint`}
          className="w-28 rounded-md border border-slate-300 px-2 py-1"
        />
      </div>
      <Button type="submit" variant="secondary" disabled={!valid || save.isPending}>
        {save.isPending ? 'Saving…' : 'Set priority'}
      </Button>
      <p id={`${id}-hint`} className="basis-full text-xs text-slate-700">
        Higher comes up first in “Start reviewing” (0 by default; −1000 to 1000).
        {save.isSuccess && ` Now ${document.priority}.`}
      </p>
      {save.error != null && <ProblemAlert error={save.error} action="The priority was not changed." />}
    </form>
  );
}
