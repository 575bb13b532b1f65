/**
 * For admins: delete the document for good (issue 22, a request to erase personal data), from the
 * review page's admin controls, never beside Confirm. A modal dialog names the file and says what goes
 * (file, values, corrections, history, pending deliveries) and what stays (a tombstone without the
 * file's name); Cancel has the focus. Deleted, the admin is taken back to the queue, which says so.
 * A document another operator reviews is refused (403-006, naming them): the dialog shows why.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { reviewKeys } from '../../../api/keys';
import { deleteDocument } from '../../../api/review/endpoints';
import type { ReviewDocument } from '@extraction-review/contract/review/schemas';
import { ProblemAlert } from '../../../components/problem-alert';
import { Button } from '../../../components/ui/button';

/** The queue's notice after a deletion, carried in the history entry (never in the URL). */
export interface DeletedNotice {
  deleted: string;
}

export function DeleteDocumentControl({ document }: { document: ReviewDocument }) {
  const [open, setOpen] = useState(false);
  return (
    <div className="flex flex-col gap-1 text-sm">
      <span className="font-medium">Delete</span>
      <div>
        <Button variant="secondary" className="text-red-800" onClick={() => setOpen(true)}>
          Delete document…
        </Button>
      </div>
      {open && <DeleteDocumentDialog document={document} onCancel={() => setOpen(false)} />}
    </div>
  );
}

export function DeleteDocumentDialog({
  document: doc,
  onCancel,
}: {
  document: ReviewDocument;
  onCancel: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const id = useId();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const name = doc.alias ?? doc.fileName;
  const remove = useMutation({
    mutationFn: () => deleteDocument(doc.id),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: reviewKeys.document(doc.id) });
      void queryClient.invalidateQueries({ queryKey: reviewKeys.queues() });
      const notice: DeletedNotice = { deleted: name };
      navigate('/queue', { state: notice });
    },
  });

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) {
      element.showModal();
      element.querySelector<HTMLButtonElement>('[data-cancel]')?.focus();
    }
  }, []);

  return (
    <dialog
      ref={dialog}
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-text`}
      onClose={onCancel}
      className="m-auto w-full max-w-lg rounded-lg border border-slate-300 bg-white p-5 text-slate-900 shadow-xl backdrop:bg-slate-900/40"
    >
      <div className="flex flex-col gap-3">
        <h2 id={`${id}-title`} className="text-lg font-semibold">
          Delete “{name}”?
        </h2>
        <div id={`${id}-text`} className="flex flex-col gap-2 text-sm">
          <p>
            The file, its extracted values, the corrections, the history and any deliveries not yet sent are
            removed for good. This cannot be undone.
          </p>
          <p className="text-slate-700">
            The audit log keeps only that a document of this model was deleted, by you, and when: not its name
            or values.
          </p>
        </div>
        {remove.error != null && <ProblemAlert error={remove.error} action="The document was not deleted." />}
        <div className="flex justify-end gap-2">
          <Button data-cancel variant="secondary" onClick={() => dialog.current?.close()}>
            Cancel
          </Button>
          <Button
            className="bg-red-800 hover:bg-red-900"
            disabled={remove.isPending}
            onClick={() => remove.mutate()}
          >
            {remove.isPending ? 'Deleting…' : 'Delete for good'}
          </Button>
        </div>
      </div>
    </dialog>
  );
}
