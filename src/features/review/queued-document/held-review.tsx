import type { ReactNode } from 'react';
import type { ReviewDocument } from '@extraction-review/contract/review/schemas';
import type { ReviewTab } from '../panels/review-panels';
import type { TabSpec } from '../panels/review-tabs';
import { Spinner } from '../../../components/ui/spinner';
import { EditableReview } from './editable-review';
import type { QueueReviewInput } from '@extraction-review/review-domain/queue/read-queue-result';
import type { DocumentFile } from './use-document-file';
import { useDraftSeed } from './use-draft-seed';

export interface HeldReviewProps {
  document: ReviewDocument;
  review: QueueReviewInput;
  file: DocumentFile | null;
  /** The file is still downloading (`file` is null meanwhile): the page says so. */
  fileLoading?: boolean | undefined;
  /** The kept file could not be loaded (not "none kept"): confirming waits until the page is shown. */
  fileFailed?: boolean | undefined;
  me: string;
  isAdmin: boolean;
  /** The document is no longer the operator's (refused, or found taken over). */
  onLostHold: (error: unknown) => void;
  /** Confirmed, but the next document could not be taken. */
  onNextFailed: (error: unknown) => void;
  /** An admin's controls (priority, hand to), as a tab of the review. */
  adminTab?: TabSpec<ReviewTab> | undefined;
}

interface Props extends HeldReviewProps {
  /**
   * Opened ahead of its take (move-on.ts): not the operator's yet, so `aheadView` (the document drawn,
   * read-only, "Taking…") is shown until it is, and then until the draft is read, in place of a spinner.
   */
  taking?: boolean | undefined;
  aheadView?: ReactNode;
}

/** The draft key of a queued document in this browser's draft store. */
export const queueDraftKey = (documentId: string): string => `review:${documentId}`;

/**
 * The document the operator holds: its review starts once the draft kept in this browser has been
 * read and laid over the server's corrections (use-draft-seed.ts).
 */
export function HeldReview({ taking = false, aheadView, ...props }: Props) {
  const draftKey = queueDraftKey(props.document.id);
  const seed = useDraftSeed(draftKey, props.document, !taking);
  if (taking || !seed) return aheadView ?? <Spinner label="Reading your draft…" />;
  return <EditableReview {...props} draftKey={draftKey} seed={seed} />;
}
