/**
 * What a file is, from its first bytes rather than its name or the type the browser guessed: the
 * service decides the same way (API-FACTS: "the type comes from the bytes"), and a renamed file should
 * be caught before it is uploaded. The signatures are the reference service's
 * (packages/document-text/src/sniff-mime-type.ts).
 */

/** The types this app sends and can show in the review. */
export const ACCEPTED_TYPES = [
  'application/pdf',
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/tiff',
] as const;
export type AcceptedType = (typeof ACCEPTED_TYPES)[number];

/** HEIC/HEIF: read by the service, but no browser engine here can show it for review. */
export type SniffedType = AcceptedType | 'image/heic' | 'unknown';

/** For the file picker: a hint only, the bytes decide. */
export const ACCEPT_ATTRIBUTE =
  'application/pdf,.pdf,image/jpeg,.jpg,.jpeg,image/png,.png,image/webp,.webp,image/tiff,.tif,.tiff';

export const TYPE_NAMES: Record<AcceptedType, string> = {
  'application/pdf': 'PDF',
  'image/jpeg': 'JPEG',
  'image/png': 'PNG',
  'image/webp': 'WebP',
  'image/tiff': 'TIFF',
};

/** How many leading bytes the checks read. */
export const SNIFF_BYTES = 1024;

const ascii = (bytes: Uint8Array, start: number, end: number): string =>
  String.fromCharCode(...bytes.subarray(start, Math.min(end, bytes.length)));

const startsWith = (bytes: Uint8Array, signature: readonly number[]): boolean =>
  signature.every((byte, i) => bytes[i] === byte);

const HEIF_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'hevm', 'hevs', 'mif1', 'msf1']);

/** The type of a file from its first bytes (SNIFF_BYTES of them, or fewer for a short file). */
export function sniffBytes(head: Uint8Array): SniffedType {
  // PDF readers accept the header anywhere in the first kilobyte (PDF 32000-1, annex H.3).
  if (ascii(head, 0, SNIFF_BYTES).includes('%PDF-')) return 'application/pdf';
  if (startsLikePdfBody(head)) return 'application/pdf';
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WEBP') return 'image/webp';
  if (startsWith(head, [0x49, 0x49, 0x2a, 0x00]) || startsWith(head, [0x4d, 0x4d, 0x00, 0x2a]))
    return 'image/tiff';
  if (ascii(head, 4, 8) === 'ftyp' && HEIF_BRANDS.has(ascii(head, 8, 12))) return 'image/heic';
  return 'unknown';
}

/**
 * A PDF written without its `%PDF-` line but starting right with PDF syntax: the binary-marker comment
 * (`%âãÏÓ`) or a first object (`1 0 obj`). Viewers open such files and so does the service.
 */
function startsLikePdfBody(head: Uint8Array): boolean {
  if (head[0] === 0x25 && [1, 2, 3, 4].every((i) => (head[i] ?? 0) >= 0x80)) return true;
  return /^\s*\d+\s+\d+\s+obj\b/.test(ascii(head, 0, 64));
}

export async function sniffFileType(file: Blob): Promise<SniffedType> {
  return sniffBytes(new Uint8Array(await file.slice(0, SNIFF_BYTES).arrayBuffer()));
}

export function isAcceptedType(type: SniffedType): type is AcceptedType {
  return (ACCEPTED_TYPES as readonly string[]).includes(type);
}
