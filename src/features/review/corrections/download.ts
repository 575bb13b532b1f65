/** Save text as a file through the browser's download (an object URL on a temporary link). */
export function downloadText(filename: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked later: some browsers start reading the URL only after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** `invoice.pdf` → `invoice-corrected.csv`: the document's name without its extension, and a suffix. */
export function exportFilename(documentName: string, extension: 'json' | 'csv'): string {
  const base = documentName.replace(/\.[^./\\]+$/, '').replace(/[^\p{L}\p{N}._-]+/gu, '_') || 'document';
  return `${base}-corrected.${extension}`;
}
