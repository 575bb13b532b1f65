/**
 * Where a page's words come from: a PDF page with a text layer is read in the browser, through the
 * viewer's open document (held while read, then let go), without asking the source given; a page
 * without one (a scan) and a picture are the source's (the app server's OCR); its key is kept.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { PageWordsSource } from './pick-context';
import { textLayerFirst } from './text-layer-first';

const held = vi.hoisted(() => ({
  pages: [] as { str: string }[][],
  /** Pages (1-based) that paint a picture. */
  pictures: new Set<number>(),
  released: 0,
}));

vi.mock('../viewer/pdf-open', () => ({
  paintsPictures: (page: { n: number }) => Promise.resolve(held.pictures.has(page.n)),
  holdPdf: () => ({
    opened: Promise.resolve({
      first: { width: 600, height: 800 },
      pdf: {
        getPage: (n: number) =>
          Promise.resolve({
            n,
            getTextContent: () =>
              Promise.resolve({
                items: (held.pages[n - 1] ?? []).map(({ str }) => ({
                  str,
                  dir: 'ltr',
                  transform: [10, 0, 0, 10, 100, 400],
                  width: 10 * str.length,
                  height: 10,
                  fontName: 'f1',
                  hasEOL: false,
                })),
                styles: { f1: { fontFamily: 'sans-serif', ascent: 0.8, descent: -0.2, vertical: false } },
              }),
            getViewport: () => ({
              width: 600,
              height: 800,
              convertToViewportPoint: (x: number, y: number) => [x, 800 - y],
            }),
          }),
      },
    }),
    release: () => held.released++,
  }),
}));

const OCR_WORD = {
  text: 'ocr',
  polygon: [
    [0.1, 0.1],
    [0.2, 0.1],
    [0.2, 0.2],
    [0.1, 0.2],
  ] as const,
};

/** A word the server read in a picture of a text page (a logo's). */
const LOGO_WORD = { ...OCR_WORD, text: 'ACME', inPicture: true as const };

function server(): PageWordsSource & { asked: number[] } {
  const asked: number[] = [];
  return {
    key: ['words', 'job-1'],
    asked,
    read: (page) => (asked.push(page), Promise.resolve(page === 2 ? [OCR_WORD, LOGO_WORD] : [OCR_WORD])),
  };
}

const pdf = new Blob(['%PDF-1.7\n…'], { type: 'application/pdf' });
const signal = new AbortController().signal;

beforeEach(() => {
  held.pages = [[{ str: '1,234.56' }], [], [{ str: 'Supplier:' }]];
  held.pictures = new Set([3]);
  held.released = 0;
});

describe('textLayerFirst', () => {
  it('reads a PDF page’s text layer here, and lets the document go', async () => {
    const fallback = server();
    const source = textLayerFirst({ file: pdf, mimeType: 'application/pdf' }, fallback);
    expect(source.key).toEqual(['words', 'job-1']);
    const words = await source.read(0, signal);
    expect(words.map((w) => w.text)).toEqual(['1,234.56']);
    expect(words[0]?.polygon[0]?.[0]).toBeCloseTo(100 / 600, 5);
    expect(fallback.asked).toEqual([]);
    expect(held.released).toBe(1);
  });

  it('adds the words the source read in the pictures of a text page (a logo), and only those', async () => {
    const fallback = server();
    const source = textLayerFirst({ file: pdf, mimeType: 'application/pdf' }, fallback);
    expect((await source.read(2, signal)).map((w) => w.text)).toEqual(['Supplier:', 'ACME']);
    expect(fallback.asked).toEqual([2]);
  });

  it('keeps the text layer when the source cannot read the pictures', async () => {
    const source = textLayerFirst(
      { file: pdf, mimeType: 'application/pdf' },
      { key: ['words', 'job-1'], read: () => Promise.reject(new Error('500-003')) },
    );
    expect((await source.read(2, signal)).map((w) => w.text)).toEqual(['Supplier:']);
  });

  it('asks the source for a page without a text layer (a scan)', async () => {
    const fallback = server();
    const source = textLayerFirst({ file: pdf, mimeType: null }, fallback);
    expect(await source.read(1, signal)).toEqual([OCR_WORD]);
    expect(fallback.asked).toEqual([1]);
  });

  it('asks the source for a picture, whatever type it was said to be', async () => {
    const fallback = server();
    const png = new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0])]);
    const source = textLayerFirst({ file: png, mimeType: 'application/pdf' }, fallback);
    expect(await source.read(0, signal)).toEqual([OCR_WORD]);
    expect(fallback.asked).toEqual([0]);
    expect(held.released).toBe(0);
  });
});
