import fs from 'node:fs';
import path from 'node:path';
import { fixturesDir } from '@extraction-review/test-kit/fixtures-dir';
import { describe, expect, it } from 'vitest';
import { checkDocument, formatBytes } from './check-document';
import { PDF_SCAN_BYTES, hasEncryptEntry, isEncryptedPdf } from './pdf-encryption';
import { sniffBytes, sniffFileType } from './sniff-file';

const bytes = (...parts: (string | number[])[]): Uint8Array<ArrayBuffer> => {
  const chunks = parts.map((p) =>
    typeof p === 'string' ? Uint8Array.from(p, (c) => c.charCodeAt(0)) : Uint8Array.from(p),
  );
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
};
const file = (content: Uint8Array<ArrayBuffer> | string, name = 'document') => new File([content], name);

const SAMPLES = {
  pdf: bytes('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n'),
  jpeg: bytes([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10], 'JFIF\0'),
  png: bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13], 'IHDR'),
  webp: bytes('RIFF', [0x24, 0, 0, 0], 'WEBPVP8 '),
  tiffLittle: bytes([0x49, 0x49, 0x2a, 0x00, 8, 0, 0, 0]),
  tiffBig: bytes([0x4d, 0x4d, 0x00, 0x2a, 0, 0, 0, 8]),
  heic: bytes([0, 0, 0, 0x18], 'ftypheic', [0, 0, 0, 0], 'mif1heic'),
};

describe('type from the bytes', () => {
  it('recognises the five accepted types, whatever the name says', () => {
    expect(sniffBytes(SAMPLES.pdf)).toBe('application/pdf');
    expect(sniffBytes(SAMPLES.jpeg)).toBe('image/jpeg');
    expect(sniffBytes(SAMPLES.png)).toBe('image/png');
    expect(sniffBytes(SAMPLES.webp)).toBe('image/webp');
    expect(sniffBytes(SAMPLES.tiffLittle)).toBe('image/tiff');
    expect(sniffBytes(SAMPLES.tiffBig)).toBe('image/tiff');
    expect(sniffBytes(SAMPLES.heic)).toBe('image/heic');
  });

  it('takes a PDF header after leading junk within the first kilobyte, not beyond', async () => {
    expect(await sniffFileType(file('\u0000\u0000garbage%PDF-1.4'))).toBe('application/pdf');
    expect(await sniffFileType(file(`${' '.repeat(1100)}%PDF-1.4`))).toBe('unknown');
  });

  it('does not trust a name or a near miss', async () => {
    expect(await sniffFileType(file('hello', 'invoice.pdf'))).toBe('unknown');
    expect(sniffBytes(bytes('RIFF', [0, 0, 0, 0], 'WAVEfmt '))).toBe('unknown');
    expect(sniffBytes(bytes('GIF89a'))).toBe('unknown');
    expect(sniffBytes(bytes([0x89, 0x50, 0x4e, 0x47]))).toBe('unknown');
  });

  it('takes a PDF that starts right with its body, as viewers and the service do', () => {
    expect(sniffBytes(bytes('%\xe2\xe3\xcf\xd3\n3 0 obj\n<<>>'))).toBe('application/pdf');
    expect(sniffBytes(bytes('1 0 obj\n<< /Type /Catalog >>'))).toBe('application/pdf');
  });
});

/** A small PDF: header, one object, classic cross-reference table and trailer. */
const classicPdf = (trailer: string) =>
  `%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\nxref\n0 2\n0000000000 65535 f \n0000000009 00000 n \ntrailer\n${trailer}\nstartxref\n45\n%%EOF\n`;

describe('encrypted PDFs', () => {
  it('finds /Encrypt in a classic trailer, by reference or as a direct dictionary', async () => {
    expect(await isEncryptedPdf(file(classicPdf('<< /Size 2 /Root 1 0 R /Encrypt 5 0 R >>')))).toBe(true);
    expect(await isEncryptedPdf(file(classicPdf('<</Size 2/Root 1 0 R/Encrypt<</Filter/Standard>>>>')))).toBe(
      true,
    );
    expect(await isEncryptedPdf(file(classicPdf('<< /Size 2 /Root 1 0 R >>')))).toBe(false);
  });

  it('is not fooled by /EncryptMetadata or by the word in text', () => {
    expect(hasEncryptEntry('<< /EncryptMetadata false >>')).toBe(false);
    expect(hasEncryptEntry('BT (the /Encrypt key) Tj ET')).toBe(false);
  });

  it('finds /Encrypt in a cross-reference stream far from the end of the file', async () => {
    const padding = 'x'.repeat(PDF_SCAN_BYTES + 10);
    const head = `%PDF-1.7\n${padding}\n`;
    const dictionary =
      '9 0 obj\n<< /Type /XRef /Size 10 /W [1 2 1] /Root 1 0 R /Encrypt 8 0 R /Length 70000 >>\n';
    const data = '\u0000'.repeat(70_000);
    const content = `${head}${dictionary}stream\n${data}\nendstream\nendobj\nstartxref\n${head.length}\n%%EOF\n`;
    const encrypted = file(bytes(content));
    expect(encrypted.size).toBeGreaterThan(2 * PDF_SCAN_BYTES);
    expect(await isEncryptedPdf(encrypted)).toBe(true);
    const plain = file(bytes(content.replace('/Encrypt 8 0 R', '/Info 7 0 R  ')));
    expect(await isEncryptedPdf(plain)).toBe(false);
  });

  it("finds it in a linearised PDF's first-page trailer, when the last one holds only /Size", async () => {
    const first =
      '%PDF-1.7\n1 0 obj <</Linearized 1>> endobj\nxref\n0 1\ntrailer\n<</Size 9/Root 2 0 R/Encrypt 3 0 R/Prev 9000>>\n';
    const middle = 'y'.repeat(PDF_SCAN_BYTES * 2);
    const last = 'xref\n0 1\ntrailer\n<</Size 9>>\nstartxref\n120\n%%EOF\n';
    expect(await isEncryptedPdf(file(bytes(first + middle + last)))).toBe(true);
  });
});

describe('checkDocument', () => {
  it('passes the five types and gives the detected type', async () => {
    for (const [sample, type] of [
      [SAMPLES.pdf, 'application/pdf'],
      [SAMPLES.jpeg, 'image/jpeg'],
      [SAMPLES.png, 'image/png'],
      [SAMPLES.webp, 'image/webp'],
      [SAMPLES.tiffLittle, 'image/tiff'],
    ] as const) {
      expect(await checkDocument(file(sample, 'no-extension'))).toEqual({ mimeType: type, problem: null });
    }
  });

  it('refuses an empty file, a file over the limit, and an unsupported type, saying what to do', async () => {
    expect((await checkDocument(file(''))).problem).toMatchObject({ kind: 'empty', overridable: false });
    const big = await checkDocument(file(SAMPLES.pdf), 10);
    expect(big.problem).toMatchObject({ kind: 'too-large', overridable: false });
    expect(big.problem?.message).toContain('up to 10 B');
    const renamed = await checkDocument(file('plain text', 'invoice.pdf'));
    expect(renamed.problem?.kind).toBe('unsupported');
    expect(renamed.problem?.message).toMatch(/does not start like a PDF/);
    const other = await checkDocument(file('plain text', 'notes.txt'));
    expect(other.problem?.message).toMatch(/not a PDF, JPEG, PNG, WebP or TIFF document/);
    expect((await checkDocument(file(SAMPLES.heic))).problem?.kind).toBe('heic');
  });

  it('flags an encrypted PDF, which the operator may still send', async () => {
    const check = await checkDocument(file(classicPdf('<< /Size 2 /Root 1 0 R /Encrypt 5 0 R >>')));
    expect(check.mimeType).toBe('application/pdf');
    expect(check.problem).toMatchObject({ kind: 'encrypted', overridable: true });
  });

  it('writes sizes for people', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(100 * 1024 * 1024)).toBe('100.0 MB');
  });
});

// The recorded corpus, when it is there (../shared/fixtures/mindee-test-data): real files of each type.
const corpus = path.join(fixturesDir, 'file_types');
describe.skipIf(!fs.existsSync(corpus))('the recorded corpus', () => {
  const read = (name: string) => new File([fs.readFileSync(path.join(corpus, name))], path.basename(name));

  it('reads the type of every sample from its bytes', async () => {
    expect((await checkDocument(read('receipt.jpg'))).mimeType).toBe('image/jpeg');
    expect((await checkDocument(read('receipt.png'))).mimeType).toBe('image/png');
    expect((await checkDocument(read('receipt.webp'))).mimeType).toBe('image/webp');
    expect((await checkDocument(read('receipt.tif'))).mimeType).toBe('image/tiff');
    expect((await checkDocument(read('receipt.heic'))).problem?.kind).toBe('heic');
    expect((await checkDocument(read('receipt.txt'))).problem?.kind).toBe('unsupported');
  });

  it('finds exactly the encrypted PDFs', async () => {
    const encrypted = ['XfaForm.pdf', 'XfaForm_15p_encrypted.pdf'];
    for (const name of fs.readdirSync(path.join(corpus, 'pdf'))) {
      const check = await checkDocument(read(`pdf/${name}`));
      if (name.startsWith('broken_')) continue;
      expect(check.mimeType, name).toBe('application/pdf');
      expect(check.problem?.kind === 'encrypted', name).toBe(encrypted.includes(name));
    }
  });
});
