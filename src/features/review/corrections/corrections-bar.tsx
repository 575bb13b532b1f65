import { useId, useState, type ReactNode } from 'react';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import type { ReviewNode } from '@extraction-review/review-domain/fields/review-tree';
import {
  correctedFields,
  invalidValues,
} from '@extraction-review/review-domain/corrections/corrected-fields';
import { downloadText, exportFilename } from './download';
import { RagOutcome } from './rag-outcome';
import { toCsv } from '@extraction-review/review-domain/corrections/to-csv';
import { useSendToRag } from './use-send-to-rag';

interface Props {
  nodes: ReviewNode[];
  changes: { values: number; removed: number; added: number; total: number };
  documentName: string;
  inferenceId: string;
  modelId: string;
  /** No service behind the review (a saved result opened from files): nothing can be sent. */
  offline?: boolean | undefined;
  /** v1: the feedback panel, shown instead of "Send to RAG" (which takes v2 extractions only). */
  feedback?: ReactNode;
  onRevertAll: () => void;
}

/**
 * The count of changes; the exports (JSON in the API's shape, CSV one row per table row); "Send to RAG"
 * (the corrected fields and the inference id, to the reference service's extension); revert all.
 */
export function CorrectionsBar({
  nodes,
  changes,
  documentName,
  inferenceId,
  modelId,
  offline = false,
  feedback,
  onRevertAll,
}: Props) {
  const [confirming, setConfirming] = useState(false);
  const helpId = useId();
  const send = useSendToRag(modelId);
  const invalid = invalidValues(nodes);
  const download = (kind: 'json' | 'csv') => {
    const fields = correctedFields(nodes);
    if (kind === 'json')
      downloadText(
        exportFilename(documentName, 'json'),
        `${JSON.stringify({ fields }, null, 2)}\n`,
        'application/json',
      );
    else downloadText(exportFilename(documentName, 'csv'), toCsv(fields), 'text/csv');
  };

  return (
    <section
      aria-label="Corrections"
      className="flex flex-col gap-2 rounded-md border border-slate-300 bg-white p-3"
    >
      <p role="status" className="text-sm text-slate-900">
        {describeChanges(changes)}
      </p>
      {invalid.length > 0 && (
        <p className="text-sm text-red-800">
          {invalid.length === 1 ? 'One value is' : `${invalid.length} values are`} not a number:{' '}
          {invalid.map((n) => n.path).join(', ')}. Exports keep the text as typed; fix it before sending to
          RAG.
        </p>
      )}
      <div className="flex flex-wrap items-center gap-2">
        <Button variant="secondary" onClick={() => download('json')} aria-describedby={helpId}>
          Export JSON
        </Button>
        <Button variant="secondary" onClick={() => download('csv')} aria-describedby={helpId}>
          Export CSV
        </Button>
        {!offline && !feedback && (
          <Button
            onClick={() => send.mutate({ inference_id: inferenceId, fields: correctedFields(nodes) })}
            disabled={invalid.length > 0 || send.isPending}
          >
            Send to RAG
          </Button>
        )}
        {send.isPending && <Spinner label="Sending…" />}
        {confirming ? (
          <span className="flex items-center gap-2 text-sm">
            Revert all {changes.total} changes?
            <Button
              variant="secondary"
              onClick={() => {
                onRevertAll();
                setConfirming(false);
              }}
            >
              Yes, revert all
            </Button>
            <Button variant="ghost" onClick={() => setConfirming(false)}>
              Keep them
            </Button>
          </span>
        ) : (
          <Button variant="ghost" disabled={changes.total === 0} onClick={() => setConfirming(true)}>
            Revert all
          </Button>
        )}
      </div>
      <p id={helpId} className="text-xs text-slate-700">
        JSON: the fields with your corrections, in the API&rsquo;s shape. CSV: one row per table row, the
        document&rsquo;s own values repeated on each; lists of plain values in one cell.
        {offline &&
          !feedback &&
          ' RAG takes v2 extractions from the service only: export the corrections instead.'}
      </p>
      <RagOutcome data={send.data} error={send.error} />
      {feedback}
    </section>
  );
}

function describeChanges({ values, removed, added, total }: Props['changes']): string {
  if (total === 0) return 'No corrections yet: every value is as extracted.';
  const parts = [
    values > 0 && `${values} value${values === 1 ? '' : 's'} corrected`,
    added > 0 && `${added} item${added === 1 ? '' : 's'} added`,
    removed > 0 && `${removed} item${removed === 1 ? '' : 's'} removed`,
  ].filter(Boolean);
  return `${parts.join(', ')}. Kept as a draft in this browser.`;
}
