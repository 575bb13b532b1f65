/**
 * File type from the leading bytes, never from the name or the part's Content-Type: clients send
 * `application/octet-stream` and arbitrary names (API-FACTS), and a renamed text file must not pass
 * as a PDF.
 *
 * Supported (API-FACTS, v2 limits): PDF, JPEG, PNG, WebP, TIFF and HEIC/HEIF. Anything else gets a
 * `422-002` whose detail says what the file looks like (`requireSupportedType`).
 */
import { ProblemError } from '@extraction-review/contract/problem';

/** How many leading bytes `sniffMimeType` needs to see. */
export const SNIFF_BYTES = 1024;

/** Every type the reference service reads, as `sniffMimeType` names them. */
export const SUPPORTED_MIME_TYPES = [
  'application/pdf',
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/tiff',
  'image/heic',
  'image/heif',
] as const;

export const SUPPORTED_TYPES_TEXT = 'PDF, JPEG, PNG, WebP, TIFF or HEIC/HEIF';

const ascii = (bytes: Uint8Array, start: number, end: number): string =>
  String.fromCharCode(...bytes.subarray(start, Math.min(end, bytes.length)));

const startsWith = (bytes: Uint8Array, signature: readonly number[], offset = 0): boolean =>
  signature.every((byte, i) => bytes[offset + i] === byte);

/** HEIF brands whose images are HEVC-coded: what phones write, and what `image/heic` means. */
const HEIC_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'hevm', 'hevs']);
/** Generic HEIF brands (still images and sequences); the codec is told by the compatible brands. */
const HEIF_BRANDS = new Set(['mif1', 'msf1', 'mif2', 'heif']);
/** AV1 in HEIF: AVIF, which the hosted service does not list. */
const AVIF_BRANDS = new Set(['avif', 'avis']);

/** The major and compatible brands of an ISO-BMFF `ftyp` box at the start of the file, if any. */
function ftypBrands(head: Uint8Array): string[] | undefined {
  if (head.length < 12 || ascii(head, 4, 8) !== 'ftyp') return undefined;
  const size = ((head[0] ?? 0) << 24) | ((head[1] ?? 0) << 16) | ((head[2] ?? 0) << 8) | (head[3] ?? 0);
  const end = Math.min(size >= 16 ? size : 12, head.length);
  const brands = [ascii(head, 8, 12)];
  // Bytes 12..16 are the minor version; compatible brands follow, four bytes each.
  for (let at = 16; at + 4 <= end; at += 4) brands.push(ascii(head, at, at + 4));
  return brands;
}

function heifType(head: Uint8Array): 'image/heic' | 'image/heif' | 'avif' | undefined {
  const brands = ftypBrands(head);
  if (!brands) return undefined;
  const [major = ''] = brands;
  if (HEIC_BRANDS.has(major)) return 'image/heic';
  if (AVIF_BRANDS.has(major)) return 'avif';
  if (brands.some((brand) => HEIC_BRANDS.has(brand))) return 'image/heic';
  if (brands.some((brand) => AVIF_BRANDS.has(brand))) return 'avif';
  if (brands.some((brand) => HEIF_BRANDS.has(brand))) return 'image/heif';
  return undefined;
}

/**
 * The detected type, or `undefined` when the reference service does not read files like this one.
 * `head` is the file's first bytes (`SNIFF_BYTES` of them, or the whole file when it is shorter).
 */
export function sniffMimeType(head: Uint8Array): string | undefined {
  // PDF readers accept the header anywhere in the first 1024 bytes (some producers prepend junk),
  // but junk that is markup makes a polyglot: a browser given the file as HTML or SVG runs it. The
  // reader of the kept file cannot tell which of the two the sender meant, so it is neither.
  const header = ascii(head, 0, SNIFF_BYTES).indexOf('%PDF-');
  if (header >= 0) return hasMarkup(head, header) ? undefined : 'application/pdf';
  if (startsLikePdfBody(head)) return 'application/pdf';
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WEBP') return 'image/webp';
  if (startsWith(head, [0x49, 0x49, 0x2a, 0x00]) || startsWith(head, [0x4d, 0x4d, 0x00, 0x2a])) {
    return 'image/tiff';
  }
  const heif = heifType(head);
  if (heif === 'image/heic' || heif === 'image/heif') return heif;
  return undefined;
}

/**
 * Markup a browser would take for HTML, SVG or XML (the tags of the WHATWG HTML sniffing rules, and
 * any other element, comment, doctype or processing instruction) in the first `end` bytes: `<`
 * followed by a letter, `!` or `?`. The junk real PDFs carry before their header is lines of text
 * or binary (the corpus's `broken_*.pdf`), never a tag.
 */
export function hasMarkup(head: Uint8Array, end = SNIFF_BYTES): boolean {
  return /<(?:[a-z][a-z0-9-]*[\s/>]|!|\?[a-z])/i.test(ascii(head, 0, end));
}

/** A file whose first non-blank character opens a tag: what a browser sniffs as HTML or XML. */
const startsWithMarkup = (head: Uint8Array): boolean =>
  /^\s*<(?:[a-z][a-z0-9-]*[\s/>]|!|\?[a-z])/i.test(ascii(head, 0, 64));

/**
 * A PDF written without its `%PDF-` line but starting right with PDF syntax: the binary-marker comment
 * that follows the header (`%âãÏÓ`) or a first object (`1 0 obj`). Viewers open such files (the
 * corpus's `valid_exported.pdf` is one); a file that starts with anything else is not taken for a PDF.
 */
function startsLikePdfBody(head: Uint8Array): boolean {
  if (head[0] === 0x25 && [1, 2, 3, 4].every((i) => (head[i] ?? 0) >= 0x80)) return true;
  return /^\s*\d+\s+\d+\s+obj\b/.test(ascii(head, 0, 64));
}

export const isImage = (mimeType: string): boolean => mimeType.startsWith('image/');

/**
 * Whether a file that `sniffMimeType` did not recognise is a PDF that lost its `%PDF-` header (the
 * body of a PDF: numbered objects, a cross-reference table, `%%EOF`). `tail` is the file's last bytes.
 * Such a file cannot be repaired safely: which version, which junk to cut? It is refused as damaged
 * rather than as an unsupported type.
 */
export function looksLikeHeaderlessPdf(head: Uint8Array, tail: Uint8Array = new Uint8Array()): boolean {
  const start = ascii(head, 0, SNIFF_BYTES);
  const end = ascii(tail, 0, tail.length);
  return (
    (/\b\d+\s+\d+\s+obj\b/.test(start) && /\bendobj\b|\bstream\b/.test(start)) ||
    /%%EOF\s*$/.test(end) ||
    /\bstartxref\s+\d+\s*$/.test(end)
  );
}

/** What a file that is not of a supported type looks like, in a few words, for the problem's detail. */
export function describeUnsupported(head: Uint8Array): string {
  const text = ascii(head, 0, 64);
  if (head.length === 0) return 'an empty file';
  if (text.startsWith('GIF87a') || text.startsWith('GIF89a')) return 'a GIF image';
  if (text.startsWith('BM') && head.length >= 26) return 'a BMP image';
  if (heifType(head) === 'avif') return 'an AVIF image';
  if (startsWith(head, [0x00, 0x00, 0x00, 0x0c, 0x6a, 0x50, 0x20, 0x20])) return 'a JPEG 2000 image';
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04])) {
    const entries = ascii(head, 0, SNIFF_BYTES);
    if (entries.includes('word/')) return 'a Word document (DOCX)';
    if (entries.includes('xl/')) return 'an Excel workbook (XLSX)';
    if (entries.includes('ppt/')) return 'a PowerPoint presentation (PPTX)';
    return 'a ZIP archive';
  }
  if (startsWith(head, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return 'an older Office document';
  if (startsWith(head, [0x1f, 0x8b])) return 'a gzip archive';
  if (text.startsWith('%!PS')) return 'a PostScript file';
  if (text.startsWith('{\\rtf')) return 'an RTF document';
  if (startsWithMarkup(head)) {
    return /<svg/i.test(ascii(head, 0, SNIFF_BYTES)) ? 'an SVG image' : 'an XML or HTML document';
  }
  if (isMostlyText(head)) return 'a text file';
  return 'a file of an unknown type';
}

function isMostlyText(head: Uint8Array): boolean {
  if (head.length === 0) return false;
  let printable = 0;
  for (const byte of head) {
    if (byte === 0) return false;
    if (byte === 9 || byte === 10 || byte === 13 || byte >= 32) printable++;
  }
  return printable / head.length > 0.95;
}

/**
 * The detected type, or a `422-002` saying what the file looks like instead (a `422-003` for a PDF
 * without its header: it is a PDF, damaged beyond repair).
 */
export function requireSupportedType(head: Uint8Array, tail?: Uint8Array): string {
  const mimeType = sniffMimeType(head);
  if (mimeType) return mimeType;
  // Markup then a PDF (a polyglot) is refused for what a browser would take it for, not as a PDF.
  if (!startsWithMarkup(head) && looksLikeHeaderlessPdf(head, tail)) {
    throw new ProblemError(
      '422-003',
      'The PDF is damaged and cannot be repaired: it has no "%PDF-" header in its first 1024 bytes.',
    );
  }
  throw new ProblemError(
    '422-002',
    `The file is ${describeUnsupported(head)} (detected from its content), which is not supported: ` +
      `send a ${SUPPORTED_TYPES_TEXT} file.`,
  );
}

/**
 * Names senders give each supported type (`Content-Type` of an upload's part), beside the one
 * `sniffMimeType` answers. HEIC and HEIF are one container: either name fits either.
 */
const DECLARED_ALIASES: Record<string, readonly string[]> = {
  'application/pdf': ['application/pdf', 'application/x-pdf', 'application/acrobat'],
  'image/jpeg': ['image/jpeg', 'image/jpg', 'image/pjpeg'],
  'image/png': ['image/png', 'image/x-png', 'image/apng'],
  'image/webp': ['image/webp'],
  'image/tiff': ['image/tiff', 'image/tif', 'image/x-tiff'],
  'image/heic': ['image/heic', 'image/heif', 'image/heic-sequence', 'image/heif-sequence'],
  'image/heif': ['image/heic', 'image/heif', 'image/heic-sequence', 'image/heif-sequence'],
};

const DOCUMENT_NAMES = new Set(Object.values(DECLARED_ALIASES).flat());

/**
 * Whether a type a sender declared (a part's `Content-Type`) may stand for a document whose bytes are
 * `sniffed`: its own name, or no type at all (none, `application/octet-stream`). Another document
 * type is let pass (a PNG scan saved as `.jpg` is common, and harmless: whoever reads the file reads
 * its bytes); any other type (`text/html`, `image/svg+xml`, `text/javascript`…) says the sender
 * meant the file to be something a browser runs, and is refused: that is a polyglot.
 */
export function declaredTypeFits(declared: string | null | undefined, sniffed: string): boolean {
  const type = (declared ?? '').split(';', 1)[0]?.trim().toLowerCase() ?? '';
  if (type === '' || type === 'application/octet-stream' || type === 'binary/octet-stream') return true;
  return type === sniffed || DOCUMENT_NAMES.has(type);
}
