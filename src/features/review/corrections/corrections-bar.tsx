import { useId, useState } from 'react';
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
  /** v1: feedback is sent from its own tab instead of "Send to RAG" (which takes v2 extractions only). */
  v1?: boolean | undefined;
  /** Confirming the document sends its values to RAG already (a queue review): "Send to RAG" says so. */
  ragOnConfirm?: boolean | undefined;
  onRevertAll: () => void;
}

const SMALL = 'px-2 py-1 text-xs';

/**
 * One line at the foot of the review: the count of changes; the exports (JSON in the API's shape, CSV
 * one row per table row); "Send to RAG" (the corrected fields and the inference id, to the reference
 * service's extension), a secondary action; revert all. What each does is in its tooltip and for
 * screen readers, not printed: the values keep the height.
 */
export function CorrectionsBar({
  nodes,
  changes,
  documentName,
  inferenceId,
  modelId,
  offline = false,
  v1 = false,
  ragOnConfirm = false,
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
    <section aria-label="Corrections" className="flex flex-col gap-1">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <p
          role="status"
          className="min-w-0 flex-1 truncate text-xs text-slate-800"
          title={describeChanges(changes)}
        >
          {describeChanges(changes)}
        </p>
        <div className="flex shrink-0 flex-wrap items-center gap-1">
          <Button
            variant="ghost"
            className={SMALL}
            onClick={() => download('json')}
            aria-describedby={helpId}
            title="The fields with your corrections, in the API's shape"
          >
            Export JSON
          </Button>
          <Button
            variant="ghost"
            className={SMALL}
            onClick={() => download('csv')}
            aria-describedby={helpId}
            title="One row per table row, the document's own values repeated on each"
          >
            Export CSV
          </Button>
          {!offline && !v1 && (
            <Button
              variant="ghost"
              className={SMALL}
              onClick={() => send.mutate({ inference_id: inferenceId, fields: correctedFields(nodes) })}
              disabled={invalid.length > 0 || send.isPending}
              title={
                ragOnConfirm
                  ? 'Confirming sends the values to RAG already: this sends them now, before deciding'
                  : 'The corrected values become a validated document of the model, for RAG'
              }
            >
              Send to RAG
            </Button>
          )}
          {send.isPending && <Spinner label="Sending…" />}
          {confirming ? (
            <span className="flex items-center gap-1 text-xs">
              Revert all {changes.total} changes?
              <Button
                variant="secondary"
                className={SMALL}
                onClick={() => {
                  onRevertAll();
                  setConfirming(false);
                }}
              >
                Yes, revert all
              </Button>
              <Button variant="ghost" className={SMALL} onClick={() => setConfirming(false)}>
                Keep them
              </Button>
            </span>
          ) : (
            <Button
              variant="ghost"
              className={SMALL}
              disabled={changes.total === 0}
              onClick={() => setConfirming(true)}
            >
              Revert all
            </Button>
          )}
        </div>
      </div>
      {invalid.length > 0 && (
        <p className="text-xs text-red-800">
          {invalid.length === 1 ? 'One value is' : `${invalid.length} values are`} not a number:{' '}
          {invalid.map((n) => n.path).join(', ')}. Exports keep the text as typed; fix it before sending to
          RAG.
        </p>
      )}
      <p id={helpId} className="sr-only">
        JSON: the fields with your corrections, in the API&rsquo;s shape. CSV: one row per table row, the
        document&rsquo;s own values repeated on each; lists of plain values in one cell.
        {offline && !v1 && ' RAG takes v2 extractions from the service only: export the corrections instead.'}
      </p>
      <RagOutcome data={send.data} error={send.error} />
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
