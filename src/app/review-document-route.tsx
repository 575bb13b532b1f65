import { QueueDocumentPage } from '../features/review/queued-document/queue-document-page';
import { RequireSession } from './session/require-session';
import { ErrorBoundary } from './error-boundary';

/**
 * A document of the team queue (`/review/{id}`): for a signed-in operator only, behind its own error
 * boundary (a rendering bug shows a message, the local draft stays stored). Keyed by the document, so
 * "Confirm and next" starts the next one afresh.
 */
export function ReviewDocumentRoute({ documentId }: { documentId: string }) {
  return (
    <RequireSession>
      <ErrorBoundary>
        <QueueDocumentPage key={documentId} documentId={documentId} />
      </ErrorBoundary>
    </RequireSession>
  );
}
