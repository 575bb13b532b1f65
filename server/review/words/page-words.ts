/**
 * The words of a kept document's page, for picking values on it (docs/review-app.md, "Pick from the
 * page"): from the PDF's text layer where the page has one, else from OCR of the page as displayed,
 * read once and kept beside the store's files (`APP_DATA_DIR/words/<document id>/<page>.json`), so
 * that the second click on a photo costs a file read. Works the same whether the result came from
 * the embedded reference service or a hosted upstream (which returns no word boxes): only the kept
 * file is read, offline, by the reference service's own readers (server/reference/extract/).
 *
 * Boxes are normalised to the page as displayed (PDF `/Rotate` and CropBox applied, photos turned by
 * their EXIF orientation), origin top-left: the frame of a v2 polygon, which the review's geometry
 * module turns further for v1 pages stored turned.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { PageWordsResponse } from '../../../src/api/review/page-words';
import type { PageText, Word } from '../../reference/extract/extractor';
import { readImagePages } from '../../reference/extract/image-pages';
import { sharedOcr } from '../../reference/extract/ocr/tesseract-ocr';
import { OCR_RENDER_DPI, openPdf } from '../../reference/extract/pdf-document';
import { readPdfText } from '../../reference/extract/pdf-text-extractor';
import { ProblemError } from '../../shared/problem';
import type { FileStorage } from '../files/file-storage';

export interface KeptDocument {
  id: string;
  fileKey: string;
  mimeType: string;
}

/** Bumped when what is kept changes shape: older files are then read again. */
const CACHE_VERSION = 1;

export class PageWordsReader {
  /** Pages being read now, so that two clicks at once read a page once. */
  private readonly reading = new Map<string, Promise<PageWordsResponse>>();

  constructor(
    private readonly dir: string,
    private readonly files: FileStorage,
  ) {}

  /** The page's words (0-based `page`), read once; a `404-010` for a page the document does not have. */
  async words(doc: KeptDocument, page: number): Promise<PageWordsResponse> {
    const key = `${doc.id}/${page}`;
    const cached = await this.cached(doc.id, page);
    if (cached) return cached;
    let run = this.reading.get(key);
    if (!run) {
      run = this.read(doc, page).finally(() => this.reading.delete(key));
      this.reading.set(key, run);
    }
    return run;
  }

  private fileOf(id: string, page: number): string {
    if (!/^[0-9a-f-]{36}$/i.test(id)) throw new Error(`not a document id: ${id}`);
    return path.join(this.dir, id, `${page}.json`);
  }

  private async cached(id: string, page: number): Promise<PageWordsResponse | undefined> {
    try {
      const kept = JSON.parse(await readFile(this.fileOf(id, page), 'utf8')) as PageWordsResponse & {
        version?: number;
      };
      if (kept.version !== CACHE_VERSION) return undefined;
      const { version: _version, ...words } = kept;
      return words;
    } catch {
      return undefined;
    }
  }

  private async keep(id: string, answer: PageWordsResponse): Promise<void> {
    const file = this.fileOf(id, answer.page);
    await mkdir(path.dirname(file), { recursive: true });
    const part = `${file}.${randomUUID()}.part`;
    await writeFile(part, JSON.stringify({ version: CACHE_VERSION, ...answer }));
    await rename(part, file);
  }

  private async read(doc: KeptDocument, page: number): Promise<PageWordsResponse> {
    const opened = await this.files.open(doc.fileKey);
    if (!opened) throw new ProblemError('404-010', 'This document has no kept file to read words from.');
    const data = await bytesOf(opened.stream);
    if (doc.mimeType === 'application/pdf') return this.readPdfPage(doc.id, data, page);
    return this.readPicturePage(doc, data, page);
  }

  private async readPdfPage(id: string, data: Uint8Array, page: number): Promise<PageWordsResponse> {
    // pdf.js takes ownership of its buffer: the OCR path still needs ours.
    const text = await readPdfText(data.slice());
    const wanted = text.pages[page];
    if (!wanted) throw noSuchPage(page, text.pageCount);
    // One pass over the text layer gives every page: keep those that have text.
    for (const p of text.pages) if (p.words.length > 0) await this.keep(id, answerOf(p, 'text-layer'));
    if (wanted.words.length > 0) return answerOf(wanted, 'text-layer');
    const pdf = await openPdf(data);
    try {
      const image = await pdf.renderPage(page, OCR_RENDER_DPI);
      const words = await sharedOcr().recognize(image, { dpi: OCR_RENDER_DPI });
      const answer = answerOf({ ...wanted, words }, 'ocr');
      await this.keep(id, answer);
      return answer;
    } finally {
      await pdf.close();
    }
  }

  private async readPicturePage(
    doc: KeptDocument,
    data: Uint8Array,
    page: number,
  ): Promise<PageWordsResponse> {
    // The picture readers take a path (sharp, libheif): a copy beside the cache, removed after.
    await mkdir(this.dir, { recursive: true });
    const copy = path.join(this.dir, `${doc.id}.${randomUUID()}.source`);
    await writeFile(copy, data);
    try {
      let index = 0;
      for await (const image of readImagePages(copy, doc.mimeType)) {
        if (index === page) {
          const words = await sharedOcr().recognize(image);
          const answer = answerOf({ index, width: image.width, height: image.height, words }, 'ocr');
          await this.keep(doc.id, answer);
          return answer;
        }
        index++;
      }
      throw noSuchPage(page, index);
    } finally {
      await rm(copy, { force: true });
    }
  }
}

function answerOf(page: PageText, source: 'text-layer' | 'ocr'): PageWordsResponse {
  return {
    page: page.index,
    width: page.width,
    height: page.height,
    source,
    words: page.words.map(toWord),
  };
}

function toWord({ text, box, confidence }: Word): PageWordsResponse['words'][number] {
  const r = (n: number): number => Math.round(Math.min(1, Math.max(0, n)) * 1e5) / 1e5;
  return {
    text,
    polygon: [
      [r(box.x0), r(box.y0)],
      [r(box.x1), r(box.y0)],
      [r(box.x1), r(box.y1)],
      [r(box.x0), r(box.y1)],
    ],
    confidence: Math.round(confidence * 100) / 100,
  };
}

function noSuchPage(page: number, count: number): ProblemError {
  return new ProblemError('404-010', `This document has ${count} page(s): there is no page ${page + 1}.`);
}

async function bytesOf(stream: Readable): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return new Uint8Array(Buffer.concat(chunks));
}
