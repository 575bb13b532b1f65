/**
 * What a file is, from its first bytes rather than its name or the type the browser guessed: the
 * service decides the same way, and a renamed file should be caught before it is uploaded.
 */
export type SniffedType = 'application/pdf' | 'unknown';

export async function sniffFileType(file: Blob): Promise<SniffedType> {
  const head = new Uint8Array(await file.slice(0, 1024).arrayBuffer());
  // PDF readers accept the header anywhere in the first kilobyte (PDF 32000-1, annex H.3).
  const text = new TextDecoder('latin1').decode(head);
  return text.includes('%PDF-') ? 'application/pdf' : 'unknown';
}
