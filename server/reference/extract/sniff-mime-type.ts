/**
 * File type from the leading bytes, never from the name or the part's Content-Type: clients send
 * `application/octet-stream` and arbitrary names (API-FACTS), and a renamed text file must not pass
 * as a PDF.
 */

/** How many leading bytes `sniffMimeType` needs to see. */
export const SNIFF_BYTES = 1024;

const ascii = (bytes: Uint8Array, start: number, end: number): string =>
  String.fromCharCode(...bytes.subarray(start, end));

const startsWith = (bytes: Uint8Array, signature: readonly number[], offset = 0): boolean =>
  signature.every((byte, i) => bytes[offset + i] === byte);

const HEIF_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1']);

export function sniffMimeType(head: Uint8Array): string | undefined {
  // PDF readers accept the header anywhere in the first 1024 bytes (some producers prepend junk).
  if (ascii(head, 0, Math.min(head.length, SNIFF_BYTES)).includes('%PDF-')) return 'application/pdf';
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WEBP') return 'image/webp';
  if (startsWith(head, [0x49, 0x49, 0x2a, 0x00]) || startsWith(head, [0x4d, 0x4d, 0x00, 0x2a])) {
    return 'image/tiff';
  }
  if (ascii(head, 4, 8) === 'ftyp' && HEIF_BRANDS.has(ascii(head, 8, 12))) return 'image/heic';
  return undefined;
}

export const isImage = (mimeType: string): boolean => mimeType.startsWith('image/');
