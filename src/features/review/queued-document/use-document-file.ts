import { queryOptions, useQuery } from '@tanstack/react-query';
import { NetworkError } from '../../../api/errors';
import { errorFromResponse } from '../../../api/http';
import { reviewKeys } from '../../../api/keys';
import { reviewFileUrl } from '../../../api/review/endpoints';

export interface DocumentFile {
  file: Blob;
  /** Null when the server could not say (the review then goes by the result's own type). */
  mimeType: string | null;
  size: number;
}

/**
 * The kept file of a queued document, for the viewer; null when the store has none (404: sent by URL,
 * or removed), and the review shows the values alone. Its own key beside the document's, so that
 * reading the document again never downloads the file again.
 */
export function useDocumentFile(documentId: string, enabled = true) {
  return useQuery({ ...documentFileQueryOptions(documentId), enabled });
}

/** The kept file's query, also started before the app renders (src/app/start-review-early.ts). */
export function documentFileQueryOptions(documentId: string) {
  return queryOptions({
    queryKey: reviewKeys.file(documentId),
    queryFn: ({ signal }) => fetchDocumentFile(documentId, signal),
    // A kept file never changes.
    staleTime: Infinity,
  });
}

async function fetchDocumentFile(documentId: string, signal: AbortSignal): Promise<DocumentFile | null> {
  const url = reviewFileUrl(documentId);
  const endpoint = `GET ${url}`;
  let response: Response;
  try {
    // src/api has no call for a file's bytes yet (its doorway parses JSON): the one direct request of
    // the review, same origin, the session cookie with it.
    // eslint-disable-next-line no-restricted-globals
    response = await fetch(url, { credentials: 'same-origin', signal });
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    throw new NetworkError({ endpoint, cause: error });
  }
  if (response.status === 404) return null;
  if (!response.ok) throw await errorFromResponse(response, endpoint, signal);
  const file = await response.blob();
  const type = response.headers.get('content-type')?.split(';')[0]?.trim() ?? '';
  return {
    file,
    mimeType: type === '' || type === 'application/octet-stream' ? null : type,
    size: file.size,
  };
}
