/**
 * Whether a PDF is encrypted: its trailer dictionary has an `/Encrypt` entry (PDF 32000-1, 7.6.1).
 *
 * Only three places can hold the trailer that counts, so the file is never read whole:
 * - the end of the file: a classic `trailer << … >>` sits just before `startxref`;
 * - the offset `startxref` names: with a cross-reference stream (PDF 1.5+) the trailer entries are in
 *   that stream's dictionary, which may be far from the end when the stream is long;
 * - the start of the file: a linearised PDF repeats its full trailer after the first page's
 *   cross-reference section, while the one at the end may hold only `/Size`.
 *
 * An encryption dictionary is never itself compressed or encrypted (7.5.7, 7.6.1), so the name shows as
 * plain text; `/EncryptMetadata` (a key inside that dictionary) is a different name.
 */

/** How much of the start and of the end is read. */
export const PDF_SCAN_BYTES = 64 * 1024;

const latin1 = (bytes: ArrayBuffer): string => new TextDecoder('latin1').decode(bytes);

/** `/Encrypt` as a key followed by an indirect reference or a direct dictionary. */
const ENCRYPT_ENTRY = /\/Encrypt(?![A-Za-z0-9#._-])\s*(?:\d+\s+\d+\s+R|<<)/;
const STARTXREF = /startxref\s+(\d+)\s*(?:%%EOF)?\s*$/;

/** Within a piece of a PDF, a trailer or cross-reference stream dictionary with `/Encrypt`. */
export function hasEncryptEntry(text: string): boolean {
  return ENCRYPT_ENTRY.test(text);
}

export async function isEncryptedPdf(file: Blob): Promise<boolean> {
  const head = latin1(await file.slice(0, PDF_SCAN_BYTES).arrayBuffer());
  if (hasEncryptEntry(head)) return true;
  if (file.size <= PDF_SCAN_BYTES) return false;
  const tail = latin1(await file.slice(Math.max(0, file.size - PDF_SCAN_BYTES)).arrayBuffer());
  if (hasEncryptEntry(tail)) return true;
  // The last `startxref` (incremental updates append new ones) may point at a cross-reference stream.
  const offset = Number(STARTXREF.exec(tail.trimEnd())?.[1] ?? Number.NaN);
  if (!Number.isInteger(offset) || offset < 0 || offset >= file.size) return false;
  const xref = latin1(await file.slice(offset, offset + 4096).arrayBuffer());
  // Only the dictionary, not the stream's (binary) data after it.
  return hasEncryptEntry(xref.split(/\bstream\b/, 1)[0] ?? '');
}
