import {
  getJobPageWords,
  getPageWords,
  jobPageWordsKey,
  pageWordsKey,
  type PageWordsResponse,
} from '../../../api/review/page-words';
import type { ApiVersion } from '@extraction-review/contract/review/schemas';
import type { PageWordsSource } from './pick-context';

/** A queue document's words, read by the app server from its kept file (text layer, else OCR). */
export function serverWordsSource(documentId: string): PageWordsSource {
  return fromAnswers(pageWordsKey(documentId), (page) => getPageWords(documentId, page));
}

/**
 * A job's words (its own page, `/jobs/{id}` or `/jobs/v1/{id}`): the file this browser sent went
 * through the app server, which kept it with the job's id and reads its pages as a queue document's.
 */
export function jobWordsSource(apiVersion: ApiVersion, jobId: string): PageWordsSource {
  return fromAnswers(jobPageWordsKey(apiVersion, jobId), (page) => getJobPageWords(apiVersion, jobId, page));
}

/**
 * A page's words and its picture's turn from one answer of the server, asked for once per page: the
 * words (picking) and the turn (a photo shown upright, viewer/photo-turns.ts) are wanted at once. A
 * caller that stops waiting leaves the request to the other (the server reads a page once anyway).
 */
function fromAnswers(
  key: readonly unknown[],
  ask: (page: number) => Promise<PageWordsResponse>,
): PageWordsSource {
  const answers = new Map<number, Promise<PageWordsResponse>>();
  const answer = (page: number, signal: AbortSignal): Promise<PageWordsResponse> => {
    let asked = answers.get(page);
    if (!asked) {
      asked = ask(page);
      answers.set(page, asked);
      asked.catch(() => answers.delete(page)); // asked again next time
    }
    return untilAborted(asked, signal);
  };
  return {
    key,
    read: async (page, signal) => (await answer(page, signal)).words,
    turn: async (page, signal) => (await answer(page, signal)).turn ?? 0,
  };
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
