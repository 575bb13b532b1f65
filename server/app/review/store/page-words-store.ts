/**
 * The words of kept files' pages, as read once and kept for every copy (`page_words`, by document and
 * page; words/page-words.ts reads them through here). A row of another cache version is read again
 * by the caller and kept anew over the old one.
 */
import type { ReviewDatabase } from '../db/open-database';
import { keptFilesDb, type PageWordsTable } from '../db/kept-files-schema';

export type KeptPageWords = Pick<PageWordsTable, 'version' | 'words_json'>;

/** A page's kept words (their cache version and JSON), if any copy kept them. */
export async function findPageWords(
  database: ReviewDatabase,
  documentId: string,
  page: number,
): Promise<KeptPageWords | undefined> {
  return keptFilesDb(database)
    .selectFrom('page_words')
    .select(['version', 'words_json'])
    .where('document_id', '=', documentId)
    .where('page', '=', page)
    .executeTakeFirst();
}

/** Keeps a page's words, over what was kept for it; two copies keeping the same page both write the same. */
export async function keepPageWords(
  database: ReviewDatabase,
  documentId: string,
  page: number,
  row: KeptPageWords & { created_at: number },
): Promise<void> {
  await keptFilesDb(database)
    .insertInto('page_words')
    .values({ document_id: documentId, page, ...row })
    .onConflict((conflict) => conflict.columns(['document_id', 'page']).doUpdateSet(row))
    .execute();
}
