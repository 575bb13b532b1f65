/**
 * "Duplicate of <file name>": a document whose kept file is byte-identical (same SHA-256) to an
 * earlier one's, with a link to that earlier document's review. Shown in the Uploads list, the
 * queue's rows and the review's heading, so the same file is not reviewed twice unknowingly.
 */
import { Link } from 'wouter';
import type { QueueDocument } from '@extraction-review/contract/review/schemas';

export function DuplicateBadge({ duplicateOf }: { duplicateOf: QueueDocument['duplicateOf'] }) {
  if (duplicateOf === null) return null;
  return (
    <span
      data-duplicate-of={duplicateOf.id}
      className="inline-flex max-w-full items-center gap-1 rounded-full bg-amber-50 px-2 py-0.5 text-xs font-normal text-amber-950 ring-1 ring-amber-400"
    >
      <span aria-hidden="true">=</span>
      <span className="whitespace-nowrap">Duplicate of</span>
      <Link
        href={`/review/${encodeURIComponent(duplicateOf.id)}`}
        className="truncate font-medium underline underline-offset-2"
        title={duplicateOf.fileName}
      >
        {duplicateOf.fileName}
      </Link>
    </span>
  );
}
