import { getPageWords, pageWordsKey } from '../../../api/review/page-words';
import type { PageWordsSource } from './pick-context';

/** A queue document's words, read by the app server from its kept file (text layer, else OCR). */
export function serverWordsSource(documentId: string): PageWordsSource {
  return {
    key: pageWordsKey(documentId),
    read: async (page, signal) => (await getPageWords(documentId, page, { signal })).words,
  };
}
