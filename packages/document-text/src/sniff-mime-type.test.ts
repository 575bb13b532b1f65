import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixturesDir } from '@extraction-review/test-kit/fixtures-dir';
import { ProblemError } from '@extraction-review/contract/problem';
import {
  declaredTypeFits,
  describeUnsupported,
  hasMarkup,
  looksLikeHeaderlessPdf,
  requireSupportedType,
  SNIFF_BYTES,
  sniffMimeType,
} from './sniff-mime-type';

const head = async (file: string) =>
  new Uint8Array((await readFile(path.join(fixturesDir, 'file_types', file))).subarray(0, SNIFF_BYTES));

const bytes = (text: string) => new Uint8Array(Buffer.from(text, 'latin1'));

/** An ISO-BMFF `ftyp` box: size, 'ftyp', major brand, minor version, compatible brands. */
function ftyp(major: string, ...compatible: string[]): Uint8Array {
  const size = 16 + 4 * compatible.length;
  const box = Buffer.alloc(size + 8);
  box.writeUInt32BE(size, 0);
  box.write(`ftyp${major}`, 4, 'latin1');
  compatible.forEach((brand, i) => box.write(brand, 16 + 4 * i, 'latin1'));
  box.write('meta', size + 4, 'latin1');
  return new Uint8Array(box);
}

describe('sniffMimeType, on the real sample files', () => {
  it.each([
    ['receipt.jpg', 'image/jpeg'],
    ['receipt.jpga', 'image/jpeg'],
    ['receipt.png', 'image/png'],
    ['receipt.webp', 'image/webp'],
    ['receipt.tif', 'image/tiff'],
    ['receipt.tiff', 'image/tiff'],
    ['receipt.heic', 'image/heic'],
    ['pdf/multipage.pdf', 'application/pdf'],
    ['pdf/blank.pdf', 'application/pdf'],
    // Junk before "%PDF-" within the first 1024 bytes.
    ['pdf/broken_fixable.pdf', 'application/pdf'],
    ['pdf/broken_invoice.pdf', 'application/pdf'],
    // No header line: starts with the binary-marker comment.
    ['pdf/valid_exported.pdf', 'application/pdf'],
  ])('%s → %s', async (file, type) => {
    expect(sniffMimeType(await head(file))).toBe(type);
  });

  it('does not take a text file for anything, whatever its name', async () => {
    expect(sniffMimeType(await head('receipt.txt'))).toBeUndefined();
    expect(sniffMimeType(new TextEncoder().encode('Invoice number: 1'))).toBeUndefined();
  });

  it('refuses a PDF body behind a line of text as damaged (422-003), not as another type', async () => {
    const unfixable = await head('pdf/broken_unfixable.pdf');
    expect(sniffMimeType(unfixable)).toBeUndefined();
    expect(looksLikeHeaderlessPdf(unfixable)).toBe(true);
    expect(() => requireSupportedType(unfixable)).toThrow(
      expect.objectContaining({ code: '422-003', message: expect.stringContaining('no "%PDF-" header') }),
    );
  });
});

describe('HEIF brands', () => {
  it.each([
    [['heic', 'mif1', 'heic'], 'image/heic'],
    [['heix'], 'image/heic'],
    [['hevc'], 'image/heic'],
    [['mif1', 'heic'], 'image/heic'],
    [['msf1', 'hevc'], 'image/heic'],
    [['mif1', 'mif1'], 'image/heif'],
    [['mif1', 'miaf', 'avif'], undefined],
    [['avif', 'mif1'], undefined],
    [['isom', 'mp41'], undefined],
  ])('%j → %s', (brands, type) => {
    const [major = '', ...compatible] = brands;
    expect(sniffMimeType(ftyp(major, ...compatible))).toBe(type);
  });

  it('names AVIF and MP4 files for what they are (AVIF) or are not', () => {
    expect(describeUnsupported(ftyp('avif', 'mif1'))).toBe('an AVIF image');
    expect(describeUnsupported(ftyp('isom', 'mp41'))).toBe('a file of an unknown type');
  });
});

describe('requireSupportedType', () => {
  it('answers the type of a supported file', () => {
    expect(requireSupportedType(bytes('%PDF-1.7\n'))).toBe('application/pdf');
  });

  it.each([
    ['GIF89a\x01\x00', 'a GIF image'],
    [
      'BM\x36\x00\x0c\x00\x00\x00\x00\x00\x36\x00\x00\x00\x28\x00\x00\x00\x00\x01\x00\x00\x00\x01\x00\x00',
      'a BMP image',
    ],
    ['PK\x03\x04\x14\x00xl/workbook.xml', 'an Excel workbook (XLSX)'],
    ['\x1f\x8b\x08\x00', 'a gzip archive'],
    ['%!PS-Adobe-3.0', 'a PostScript file'],
    ['<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>', 'an SVG image'],
    ['Invoice number: 1\nTotal: 3.50\n', 'a text file'],
    ['', 'an empty file'],
  ])('%j: a 422-002 that says it is %s', (content, what) => {
    let thrown: unknown;
    try {
      requireSupportedType(bytes(content));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ProblemError);
    expect(thrown).toMatchObject({
      code: '422-002',
      message: `The file is ${what} (detected from its content), which is not supported: send a PDF, JPEG, PNG, WebP, TIFF or HEIC/HEIF file.`,
    });
  });

  it('takes a file whose end is a PDF trailer for a damaged PDF', () => {
    expect(() =>
      requireSupportedType(bytes('garbage'), bytes('trailer<</Root 1 0 R>>\nstartxref\n123\n%%EOF\n')),
    ).toThrow(expect.objectContaining({ code: '422-003' }));
  });
});

describe('polyglots: markup before the PDF header', () => {
  const page = '<!doctype html><html><body><script>alert(1)</script></body></html>\n';

  it('does not take an HTML page with "%PDF-" in its first KB for a PDF', () => {
    const polyglot = bytes(`${page}%PDF-1.7\n1 0 obj\n<< >>\nendobj\n`);
    expect(sniffMimeType(polyglot)).toBeUndefined();
    expect(hasMarkup(polyglot)).toBe(true);
    // Refused for what a browser would take it for, not as a damaged PDF.
    expect(() => requireSupportedType(polyglot)).toThrow(
      expect.objectContaining({
        code: '422-002',
        message: expect.stringContaining('an XML or HTML document'),
      }),
    );
    expect(sniffMimeType(bytes(`<script>x()</script>%PDF-1.4`))).toBeUndefined();
    expect(sniffMimeType(bytes(`<svg onload="x()"/>%PDF-1.4`))).toBeUndefined();
  });

  it('still takes a PDF whose header comes first, whatever follows, and junk lines of text before it', () => {
    expect(sniffMimeType(bytes(`%PDF-1.7\n%${page}`))).toBe('application/pdf');
    expect(sniffMimeType(bytes('%broken header info\njunk\n%PDF-1.7\n'))).toBe('application/pdf');
    expect(sniffMimeType(bytes('total < 3 and a > b\n%PDF-1.7\n'))).toBe('application/pdf');
  });
});

describe('declaredTypeFits', () => {
  it.each([
    [null, 'application/pdf', true],
    ['application/octet-stream', 'image/png', true],
    ['application/pdf', 'application/pdf', true],
    ['Application/PDF; name=x', 'application/pdf', true],
    ['image/jpg', 'image/jpeg', true],
    ['image/heif', 'image/heic', true],
    ['text/html', 'application/pdf', false],
    ['image/svg+xml', 'image/png', false],
    ['application/javascript', 'application/pdf', false],
    ['image/svg+xml', 'application/pdf', false],
    ['text/plain', 'application/pdf', false],
    // Another document type: a renamed scan, harmless (its bytes are read, never its name).
    ['image/jpeg', 'image/png', true],
  ])('%s for %s → %s', (declared, sniffed, fits) => {
    expect(declaredTypeFits(declared, sniffed)).toBe(fits);
  });
});
