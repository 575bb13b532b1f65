import { Link, useSearch } from 'wouter';
import type { OperatorRef, QueueDocument } from '@extraction-review/contract/review/schemas';
import { DuplicateBadge } from '../../components/duplicate-badge';
import { ModelName } from '../../components/model-name';
import { formatDateTime } from '../../lib/format';
import { formatAge, formatClock, formatShare } from './format-age';
import { StateBadge } from './state-badge';
import { formatDate } from '../../lib/format';
import { parseQueueFilters, reviewHref } from '../../lib/queue-filters';

interface Props {
  document: QueueDocument;
  /** The signed-in operator's id: their own holds read "You". */
  me: string | undefined;
  /** The time ages are counted to (when the page was fetched). */
  now: number;
  /** Admins: whether the row is ticked for a bulk action (undefined: no box). */
  selected?: boolean | undefined;
  onToggle?: ((id: string) => void) | undefined;
}

/**
 * An operator as the queue names them: the signed-in one "You" at the start of a sentence, "you"
 * inside one ("Decided by you"); an operator since removed likewise.
 */
function who(operator: OperatorRef, me: string | undefined, at: 'start' | 'inside'): string {
  const [you, removed] = at === 'start' ? ['You', 'A removed operator'] : ['you', 'a removed operator'];
  if (operator.id === me) return you;
  return operator.name ?? removed;
}

/** "Alice, until 10:42" while held; "Decided by Bob" once decided; else nothing. */
export function holderText(document: QueueDocument, me: string | undefined): string {
  if (document.state === 'in_review' && document.holder) {
    const name = who(document.holder, me, 'start');
    return document.leaseExpiresAt ? `${name}, until ${formatClock(document.leaseExpiresAt)}` : name;
  }
  const decided = ['confirmed', 'rejected', 'postponed'].includes(document.state);
  if (decided && document.decidedBy) return `Decided by ${who(document.decidedBy, me, 'inside')}`;
  return '—';
}

/** "Assigned to Alice" (or "to you") under the holder: whose the document is until it is decided. */
export function assignedText(document: QueueDocument, me: string | undefined): string | null {
  if (document.assignedTo == null) return null;
  return document.assignedTo.id === me
    ? 'Assigned to you'
    : `Assigned to ${document.assignedTo.name ?? 'a removed operator'}`;
}

function AssignedNote({ document, me }: { document: QueueDocument; me: string | undefined }) {
  const text = assignedText(document, me);
  return text === null ? null : <span className="block text-xs text-slate-600">{text}</span>;
}

const cell = 'px-3 py-2 align-top';

/** One document of the queue. */
export function QueueRow({ document, me, now, selected, onToggle }: Props) {
  const since = document.readyAt ?? document.createdAt;
  const showReason = document.state === 'rejected' || document.state === 'postponed';
  // The review keeps the queue's filters: its "next" takes from the same view, and comes back to it.
  const search = useSearch();
  return (
    <tr
      data-document-id={document.id}
      className={`border-t border-slate-200 hover:bg-slate-50 ${selected === true ? 'bg-blue-50' : ''}`}
    >
      {selected !== undefined && (
        <td className={cell}>
          <input
            type="checkbox"
            aria-label={`Select ${document.fileName}`}
            checked={selected}
            onChange={() => onToggle?.(document.id)}
            className="size-4"
          />
        </td>
      )}
      <th scope="row" className={`${cell} max-w-64 font-normal`}>
        <Link
          href={reviewHref(document.id, parseQueueFilters(search))}
          className="font-medium break-words text-blue-900 underline-offset-2 hover:underline"
        >
          {document.fileName}
        </Link>
      </th>
      {/* The duplicate mark sits beside the alias, not in the row's header: the row stays named by its file. */}
      <td className={`${cell} max-w-48 break-words`}>
        {document.alias ?? (document.duplicateOf === null ? '—' : '')}
        {document.duplicateOf !== null && (
          <div className={document.alias === null ? undefined : 'mt-1'}>
            <DuplicateBadge duplicateOf={document.duplicateOf} />
          </div>
        )}
      </td>
      <td className={`${cell} max-w-48 break-words`}>
        <ModelName apiVersion={document.apiVersion} model={document.model} />
        {document.apiVersion === 'v1' && <span className="ml-1 text-slate-600">(v1)</span>}
      </td>
      <td className={cell}>
        <StateBadge state={document.state} />
      </td>
      <td className={`${cell} tabular-nums`}>{document.priority}</td>
      <td className={cell}>
        {holderText(document, me)}
        <AssignedNote document={document} me={me} />
      </td>
      <td className={`${cell} whitespace-nowrap tabular-nums`}>
        {formatShare(document.fieldsToReview, document.fieldsTotal)}
      </td>
      <td className={`${cell} whitespace-nowrap tabular-nums`}>
        <time dateTime={since} title={formatDateTime(since)}>
          {formatAge(since, now)}
        </time>
      </td>
      <td className={`${cell} max-w-64 break-words`}>
        {showReason ? (document.reason ?? '—') : ''}
        {document.state === 'postponed' && document.postponedUntil != null && (
          <span className="block text-xs text-slate-600">Back on {formatDate(document.postponedUntil)}</span>
        )}
      </td>
    </tr>
  );
}
