import { Link } from 'wouter';
import type { QueueDocument } from '@extraction-review/contract/review/schemas';
import { DuplicateBadge } from '../../components/duplicate-badge';
import { ModelName } from '../../components/model-name';
import { StateBadge } from '../../components/state-badge';
import { formatDateTime } from '../../lib/format';

interface Props {
  documents: readonly QueueDocument[];
  /** The signed-in operator's id: their own uploads read "You". */
  me: string | undefined;
}

/**
 * Where an upload is opened: its one review once its result is in; while its job runs (or when it
 * failed), its job's page, which follows the job and says why it failed.
 */
export function uploadHref(document: QueueDocument): string {
  const job = document.upstreamJobId;
  if ((document.state === 'processing' || document.state === 'failed') && job !== null) {
    return document.apiVersion === 'v1'
      ? `/jobs/v1/${encodeURIComponent(job)}`
      : `/jobs/${encodeURIComponent(job)}`;
  }
  return `/review/${encodeURIComponent(document.id)}`;
}

function uploader(document: QueueDocument, me: string | undefined): string {
  const by = document.uploadedBy;
  if (by === null) return 'A pipeline';
  if (by.id === me) return 'You';
  return by.name ?? 'A removed operator';
}

const cell = 'px-3 py-2 align-top';

export function UploadsTable({ documents, me }: Props) {
  return (
    <div className="overflow-x-auto rounded-md border border-slate-200 bg-white">
      <table className="w-full border-collapse text-left text-sm">
        <caption className="sr-only">Uploads</caption>
        <thead className="bg-slate-50 text-xs font-medium text-slate-600">
          <tr>
            <th scope="col" className={cell}>
              File
            </th>
            <th scope="col" className={cell}>
              Model
            </th>
            <th scope="col" className={cell}>
              State
            </th>
            <th scope="col" className={cell}>
              Uploaded by
            </th>
            <th scope="col" className={cell}>
              Uploaded
            </th>
          </tr>
        </thead>
        <tbody>
          {documents.map((document) => (
            <tr
              key={document.id}
              data-document-id={document.id}
              data-state={document.state}
              className="border-t border-slate-200 hover:bg-slate-50"
            >
              <th scope="row" className={`${cell} max-w-96 font-normal`}>
                <div className="flex flex-col items-start gap-1">
                  <Link
                    href={uploadHref(document)}
                    className="font-medium break-words text-blue-900 underline-offset-2 hover:underline"
                  >
                    {document.fileName}
                  </Link>
                  {document.alias !== null && (
                    <span className="text-xs text-slate-600">{document.alias}</span>
                  )}
                  <DuplicateBadge duplicateOf={document.duplicateOf} />
                </div>
              </th>
              <td className={`${cell} max-w-56 break-words`}>
                <ModelName apiVersion={document.apiVersion} model={document.model} />
              </td>
              <td className={cell}>
                <StateBadge state={document.state} />
              </td>
              <td className={`${cell} whitespace-nowrap`}>{uploader(document, me)}</td>
              <td className={`${cell} whitespace-nowrap tabular-nums`}>
                <time dateTime={document.createdAt}>{formatDateTime(document.createdAt)}</time>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
