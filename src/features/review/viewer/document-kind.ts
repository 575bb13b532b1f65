/**
 * What kind of document the viewer is given, from its first bytes (the truth), else from its type.
 * Browsers draw PDFs (pdf.js), JPEG, PNG and WebP (`<img>`); TIFF is decoded here (utif2) because no
 * browser displays it; HEIC/HEIF and anything else cannot be drawn.
 */
export type DocumentKind =
  | { kind: 'pdf' }
  | { kind: 'image'; mimeType: 'image/jpeg' | 'image/png' | 'image/webp' }
  | { kind: 'tiff' }
  | { kind: 'unsupported'; description: string };

const ascii = (bytes: Uint8Array, from: number, length: number): string =>
  String.fromCharCode(...bytes.subarray(from, from + length));

/** The kind told by a file's first bytes (1 KB is plenty), or null when they tell nothing. */
export function kindFromBytes(bytes: Uint8Array): DocumentKind | null {
  if (bytes.length === 0) return { kind: 'unsupported', description: 'an empty file' };
  // pdf.js, like the service, finds a header anywhere in the first kilobyte.
  if (ascii(bytes, 0, 1024).includes('%PDF-')) return { kind: 'pdf' };
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff)
    return { kind: 'image', mimeType: 'image/jpeg' };
  if (ascii(bytes, 0, 8) === '\x89PNG\r\n\x1a\n') return { kind: 'image', mimeType: 'image/png' };
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP')
    return { kind: 'image', mimeType: 'image/webp' };
  const tiffMagic = ascii(bytes, 0, 4);
  if (tiffMagic === 'II*\0' || tiffMagic === 'MM\0*') return { kind: 'tiff' };
  if (ascii(bytes, 4, 4) === 'ftyp') {
    const brands = ascii(bytes, 8, 24);
    if (/hei[cxms]|hev[cxms]|mif1|msf1|heif/.test(brands)) {
      return { kind: 'unsupported', description: 'a HEIC/HEIF photo' };
    }
  }
  if (ascii(bytes, 0, 4) === 'GIF8') return { kind: 'unsupported', description: 'a GIF image' };
  return null;
}

/** The kind told by a MIME type, or null when it tells nothing. */
export function kindFromMimeType(mimeType: string | undefined): DocumentKind | null {
  const type = mimeType?.split(';')[0]?.trim().toLowerCase();
  switch (type) {
    case undefined:
    case '':
    case 'application/octet-stream':
      return null;
    case 'application/pdf':
      return { kind: 'pdf' };
    case 'image/jpeg':
    case 'image/png':
    case 'image/webp':
      return { kind: 'image', mimeType: type };
    case 'image/tiff':
      return { kind: 'tiff' };
    case 'image/heic':
    case 'image/heif':
      return { kind: 'unsupported', description: 'a HEIC/HEIF photo' };
    default:
      return { kind: 'unsupported', description: `a file of type ${type}` };
  }
}

export async function detectDocumentKind(file: Blob, mimeType?: string): Promise<DocumentKind> {
  const head = new Uint8Array(await file.slice(0, 1024).arrayBuffer());
  return (
    kindFromBytes(head) ??
    kindFromMimeType(mimeType) ??
    kindFromMimeType(file.type) ?? { kind: 'unsupported', description: 'a file of an unknown type' }
  );
}
