/**
 * The kept files of deleted documents (or of files the retention rule removed), removed from the file
 * storage once the rows that named them are committed. One that cannot be removed now is an orphan,
 * which the storage's sweep removes later (orphan-files.ts): it is told, never thrown.
 */
import { componentLogger } from '@extraction-review/server-kit/logger';
import type { FileStorage } from './file-storage';

const logger = componentLogger('review files');

export async function removeKeptFiles(
  files: Pick<FileStorage, 'remove'> | undefined,
  keys: readonly string[],
): Promise<void> {
  for (const key of keys) {
    await files?.remove(key).catch((error: unknown) => {
      logger.error({ err: error, file: key }, 'the kept file of a deleted document stays for the sweep');
    });
  }
}
