import { getJobPageWords, getPageWords, jobPageWordsKey, pageWordsKey } from '../../../api/review/page-words';
import type { ApiVersion } from '@extraction-review/contract/review/schemas';
import type { PageWordsSource } from './pick-context';

/** A queue document's words, read by the app server from its kept file (text layer, else OCR). */
export function serverWordsSource(documentId: string): PageWordsSource {
  return {
    key: pageWordsKey(documentId),
    read: async (page, signal) => (await getPageWords(documentId, page, { signal })).words,
    // The same answer (the server reads a page once and keeps it): its picture's turn.
    turn: async (page, signal) => (await getPageWords(documentId, page, { signal })).turn ?? 0,
  };
}

/**
 * A job's words (its own page, `/jobs/{id}` or `/jobs/v1/{id}`): the file this browser sent went
 * through the app server, which kept it with the job's id and reads its pages as a queue document's.
 */
export function jobWordsSource(apiVersion: ApiVersion, jobId: string): PageWordsSource {
  return {
    key: jobPageWordsKey(apiVersion, jobId),
    read: async (page, signal) => (await getJobPageWords(apiVersion, jobId, page, { signal })).words,
    turn: async (page, signal) => (await getJobPageWords(apiVersion, jobId, page, { signal })).turn ?? 0,
  };
}
