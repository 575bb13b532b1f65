import { afterEach, describe, expect, it, vi } from 'vitest';
import { documentKind, knownKind, openAhead } from './open-ahead';
import { openedPdf } from './pdf-open';

const pdfjs = vi.hoisted(() => ({ opened: 0 }));
vi.mock('react-pdf', () => ({
  pdfjs: {
    GlobalWorkerOptions: {},
    getDocument: () => {
      pdfjs.opened++;
      return {
        promise: Promise.resolve({
          numPages: 1,
          getPage: async () => ({ getViewport: () => ({ width: 612, height: 792 }) }),
        }),
        destroy: async () => undefined,
      };
    },
  },
}));

afterEach(() => {
  pdfjs.opened = 0;
});

describe('documentKind', () => {
  it('tells a file’s kind once, and then at once', async () => {
    const file = new Blob(['%PDF-1.7'], { type: 'application/octet-stream' });
    expect(knownKind(file, undefined)).toBeUndefined();
    const first = documentKind(file, undefined);
    expect(documentKind(file, undefined)).toBe(first);
    expect(await first).toEqual({ kind: 'pdf' });
    expect(knownKind(file, undefined)).toEqual({ kind: 'pdf' });
  });
});

describe('openAhead', () => {
  it('opens a PDF before the viewer asks for it', async () => {
    const file = new Blob(['%PDF-1.7'], { type: 'application/pdf' });
    const release = openAhead(file, 'application/pdf');
    await vi.waitFor(() => expect(openedPdf(file)).toBeDefined());
    expect(pdfjs.opened).toBe(1);
    release();
  });

  it('opens nothing for a picture', async () => {
    const file = new Blob([new Uint8Array([0xff, 0xd8, 0xff, 0xe0])], { type: 'image/jpeg' });
    const release = openAhead(file, 'image/jpeg');
    expect(await documentKind(file, 'image/jpeg')).toEqual({ kind: 'image', mimeType: 'image/jpeg' });
    expect(pdfjs.opened).toBe(0);
    release();
  });
});
