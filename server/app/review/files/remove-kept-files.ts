/**
 * The kept files of deleted documents (or of files the retention rule removed), removed from the file
 * storage once the rows that named them are committed. One that cannot be removed now is an orphan,
 * which the storage's sweep removes later (orphan-files.ts): it is told, never thrown.
 */
import type { FileStorage } from './file-storage';

export async function removeKeptFiles(
  files: Pick<FileStorage, 'remove'> | undefined,
  keys: readonly string[],
  log: (message: string, error: unknown) => void = (message, error) => console.error(message, error),
): Promise<void> {
  for (const key of keys) {
    await files?.remove(key).catch((error: unknown) => {
      log(`[review files] the kept file ${key} of a deleted document stays for the sweep:`, error);
    });
  }
}
