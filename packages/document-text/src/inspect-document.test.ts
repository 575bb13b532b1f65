/**
 * Enqueue-time inspection on every file of the corpus's `file_types/`, and on generated edge cases:
 * the type from the bytes, the real page count, or the right problem with a detail that says what is
 * wrong. In-process (`readDocumentInfo`) and through the inspection threads (`inspectDocument`).
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixturesDir } from '@extraction-review/test-kit/fixtures-dir';
import { ProblemError } from '@extraction-review/contract/problem';
import {
  drawTextPicture,
  multiPageTiff,
  passwordProtectedPdf,
} from '@extraction-review/test-kit/reference/documents-images';
import { readDocumentInfo } from './document-info';
import { inspectDocument, warmUpDocumentInspection } from './inspect-document';

const fileTypes = path.join(fixturesDir, 'file_types');

type Expected = { mimeType: string; pageCount: number } | { code: '422-002' | '422-003'; detail: RegExp };

/** Every file of `file_types/`: a new file there fails the completeness test until it is listed. */
const CORPUS: Record<string, Expected> = {
  'receipt.jpg': { mimeType: 'image/jpeg', pageCount: 1 },
  // A JPEG with an odd extension: the name does not matter.
  'receipt.jpga': { mimeType: 'image/jpeg', pageCount: 1 },
  'receipt.png': { mimeType: 'image/png', pageCount: 1 },
  'receipt.webp': { mimeType: 'image/webp', pageCount: 1 },
  'receipt.tif': { mimeType: 'image/tiff', pageCount: 1 },
  'receipt.tiff': { mimeType: 'image/tiff', pageCount: 1 },
  'receipt.heic': { mimeType: 'image/heic', pageCount: 1 },
  // The JPEG's base64 text, renamed: a text file.
  'receipt.txt': { code: '422-002', detail: /^The file is a text file \(detected from its content\)/ },
  'pdf/XfaForm.pdf': { mimeType: 'application/pdf', pageCount: 1 },
  // Encrypted with an empty user password: it opens without one (the official clients open it too).
  'pdf/XfaForm_15p_encrypted.pdf': { mimeType: 'application/pdf', pageCount: 15 },
  'pdf/blank.pdf': { mimeType: 'application/pdf', pageCount: 10 },
  'pdf/blank_1.pdf': { mimeType: 'application/pdf', pageCount: 1 },
  'pdf/blank_with_name_tree_leaf.pdf': { mimeType: 'application/pdf', pageCount: 1 },
  // Junk before the header: repaired.
  'pdf/broken_fixable.pdf': { mimeType: 'application/pdf', pageCount: 1 },
  'pdf/broken_invoice.pdf': { mimeType: 'application/pdf', pageCount: 2 },
  // A line of text where the header should be, no "%PDF-" anywhere.
  'pdf/broken_unfixable.pdf': {
    code: '422-003',
    detail: /^The PDF is damaged and cannot be repaired: it has no "%PDF-" header/,
  },
  'pdf/multipage.pdf': { mimeType: 'application/pdf', pageCount: 12 },
  'pdf/multipage_cut-1.pdf': { mimeType: 'application/pdf', pageCount: 1 },
  'pdf/multipage_cut-2.pdf': { mimeType: 'application/pdf', pageCount: 2 },
  'pdf/multipage_cut-3.pdf': { mimeType: 'application/pdf', pageCount: 3 },
  'pdf/not_blank_image_only.pdf': { mimeType: 'application/pdf', pageCount: 1 },
  // No header line, but it starts with the binary-marker comment and is otherwise whole.
  'pdf/valid_exported.pdf': { mimeType: 'application/pdf', pageCount: 1 },
};

async function outcome(run: Promise<unknown>): Promise<unknown> {
  try {
    return await run;
  } catch (error) {
    if (error instanceof ProblemError) return { code: error.code, detail: error.message };
    throw error;
  }
}

function expected(value: Expected): unknown {
  return 'code' in value ? { code: value.code, detail: expect.stringMatching(value.detail) } : value;
}

describe('readDocumentInfo on every file of file_types/', () => {
  it('lists every file of the corpus', async () => {
    const files = (await readdir(fileTypes, { recursive: true, withFileTypes: true }))
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(fileTypes, path.join(entry.parentPath, entry.name)));
    expect(files.sort()).toEqual(Object.keys(CORPUS).sort());
  });

  it.each(Object.entries(CORPUS))('%s', async (file, value) => {
    expect(await outcome(readDocumentInfo(path.join(fileTypes, file)))).toEqual(expected(value));
  });
});

describe('readDocumentInfo on generated edge cases', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'reference-inspect-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function inspectBytes(name: string, bytes: Uint8Array | string): Promise<unknown> {
    const file = path.join(dir, name);
    await writeFile(file, bytes);
    return outcome(readDocumentInfo(file));
  }

  it('a zero-byte file is empty', async () => {
    expect(await inspectBytes('empty.pdf', '')).toEqual({
      code: '422-003',
      detail: 'The file is empty (0 bytes).',
    });
  });

  it('a PDF without pages', async () => {
    // pdf-lib always writes a page; this page tree is empty.
    const bytes =
      '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\n' +
      'trailer<</Root 1 0 R>>\n%%EOF\n';
    expect(await inspectBytes('no-pages.pdf', bytes)).toEqual({
      code: '422-003',
      detail: 'The PDF has no pages.',
    });
  });

  it('a password-protected PDF', async () => {
    expect(await inspectBytes('secret.pdf', passwordProtectedPdf())).toEqual({
      code: '422-003',
      detail: 'The PDF is encrypted (password-protected): send it without its password.',
    });
  });

  it('a PDF header followed by nothing readable', async () => {
    expect(await inspectBytes('junk.pdf', '%PDF-1.7\nnot really a PDF\n')).toEqual({
      code: '422-003',
      detail: expect.stringMatching(/^The PDF (is damaged and cannot be repaired \(.+\)|has no pages)\.$/),
    });
  });

  it('a truncated JPEG cannot be decoded', async () => {
    const bytes = (await readFile(path.join(fileTypes, 'receipt.jpg'))).subarray(0, 30_000);
    expect(await inspectBytes('cut.jpg', bytes)).toEqual({
      code: '422-003',
      detail: expect.stringMatching(/^The image cannot be decoded: .*premature end of JPEG/),
    });
  });

  it('a cut HEIC cannot be decoded (libheif notices only when decoding)', async () => {
    const bytes = (await readFile(path.join(fileTypes, 'receipt.heic'))).subarray(0, 2_000);
    expect(await inspectBytes('cut.heic', bytes)).toEqual({
      code: '422-003',
      detail: expect.stringMatching(/^The image cannot be decoded: /),
    });
  });

  it('a PNG with a damaged header cannot be decoded', async () => {
    const bytes = Buffer.from(await readFile(path.join(fileTypes, 'receipt.png')));
    bytes.fill(0, 16, 33); // the IHDR chunk's fields and checksum
    expect(await inspectBytes('bad.png', bytes)).toEqual({
      code: '422-003',
      detail: expect.stringMatching(/^The image cannot be decoded: /),
    });
  });

  it('a two-page TIFF has two pages', async () => {
    const page = { width: 300, height: 200, lines: [{ text: 'Page', x: 40, y: 100, size: 30 }] };
    const picture = (await drawTextPicture(page, 72)).image;
    expect(await inspectBytes('two.tiff', await multiPageTiff([picture, picture]))).toEqual({
      mimeType: 'image/tiff',
      pageCount: 2,
    });
  });

  it.each([
    [
      'GIF',
      'GIF89a\x01\x00\x01\x00\x80\x00\x00',
      /^The file is a GIF image \(detected from its content\), which is not supported: send a PDF, JPEG, PNG, WebP, TIFF or HEIC\/HEIF file\.$/,
    ],
    ['ZIP', 'PK\x03\x04\x14\x00\x00\x00\x08\x00', /^The file is a ZIP archive/],
    [
      'DOCX',
      'PK\x03\x04\x14\x00\x06\x00\x08\x00\x00\x00!\x00word/document.xml',
      /^The file is a Word document \(DOCX\)/,
    ],
    ['HTML', '<!DOCTYPE html><html><body>Invoice</body></html>', /^The file is an XML or HTML document/],
    ['binary', '\x00\x01\x02\x03\x04\x05\x06\x07', /^The file is a file of an unknown type/],
  ])('%s is refused as an unsupported type, saying what it looks like', async (name, content, detail) => {
    expect(await inspectBytes(`file.${name}`, Buffer.from(content, 'latin1'))).toEqual({
      code: '422-002',
      detail: expect.stringMatching(detail),
    });
  });
});

describe('inspectDocument (in the inspection threads)', () => {
  /** Threads started by this test file (Node's process 'worker' event). */
  let threadsStarted = 0;
  const onThread = (): void => void (threadsStarted += 1);

  beforeAll(async () => {
    process.on('worker', onThread);
    await warmUpDocumentInspection();
  });
  afterAll(() => {
    process.off('worker', onThread);
  });

  it('answers the type and page count', async () => {
    // Warm-up started both inspection threads (and loaded pdf.js in each).
    expect(threadsStarted).toBe(2);
    await expect(inspectDocument({ path: path.join(fileTypes, 'pdf/multipage.pdf') })).resolves.toEqual({
      mimeType: 'application/pdf',
      pageCount: 12,
    });
    await expect(inspectDocument({ path: path.join(fileTypes, 'receipt.jpg') })).resolves.toEqual({
      mimeType: 'image/jpeg',
      pageCount: 1,
    });
    // Warm: answered by the threads the warm-up started, no new thread (~0.3 s to start, ~1 s more
    // to load pdf.js for its first PDF). A count, not a duration.
    expect(threadsStarted).toBe(2);
  });

  it('passes problems through as problems', async () => {
    const failure = await inspectDocument({ path: path.join(fileTypes, 'pdf/broken_unfixable.pdf') }).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(ProblemError);
    expect(failure).toMatchObject({ code: '422-003', status: 422, title: 'Unreadable document' });
  });

  it('stops on abort with the signal reason', async () => {
    const controller = new AbortController();
    const reason = new Error('enqueue gave up');
    controller.abort(reason);
    await expect(
      inspectDocument({ path: path.join(fileTypes, 'pdf/blank.pdf') }, controller.signal),
    ).rejects.toBe(reason);
  });
});
