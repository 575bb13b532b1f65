import { afterEach, describe, expect, it, vi } from 'vitest';
import { holdPdf, openedPdf } from './pdf-open';

// pdf.js cannot run in jsdom (TOOLCHAIN.md): its getDocument is replaced by a document that
// counts its openings and closings, or fails to open when the file says "broken".
const pdfjs = vi.hoisted(() => ({ opened: 0, destroyed: 0 }));
vi.mock('react-pdf', () => ({
  pdfjs: {
    GlobalWorkerOptions: {},
    getDocument: ({ data }: { data: Uint8Array }) => {
      pdfjs.opened++;
      const broken = new TextDecoder().decode(data).includes('broken');
      return {
        promise: broken
          ? Promise.reject(new Error('Invalid PDF structure.'))
          : Promise.resolve({
              numPages: 3,
              getPage: async () => ({ getViewport: () => ({ width: 612, height: 792 }) }),
            }),
        destroy: async () => void pdfjs.destroyed++,
      };
    },
  },
}));

const pdf = (text = '%PDF-1.7') => new Blob([text], { type: 'application/pdf' });

afterEach(() => {
  vi.useRealTimers();
  pdfjs.opened = 0;
  pdfjs.destroyed = 0;
});

describe('holdPdf', () => {
  it('opens a file once for all its holders, with page 1’s size', async () => {
    const file = pdf();
    const first = holdPdf(file);
    const second = holdPdf(file);
    const [a, b] = await Promise.all([first.opened, second.opened]);
    expect(a).toBe(b);
    expect(a.first).toEqual({ width: 612, height: 792 });
    expect(openedPdf(file)).toBe(a);
    expect(pdfjs.opened).toBe(1);
    first.release();
    second.release();
  });

  it('keeps a released document a while for the next holder, then closes it', async () => {
    vi.useFakeTimers();
    const file = pdf();
    const route = holdPdf(file);
    const opened = await route.opened;
    route.release();
    route.release(); // once only
    const viewer = holdPdf(file);
    expect(await viewer.opened).toBe(opened);
    viewer.release();
    await vi.advanceTimersByTimeAsync(4_000);
    expect(pdfjs.destroyed).toBe(0);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(pdfjs.destroyed).toBe(1);
    expect(openedPdf(file)).toBeUndefined();
    expect(pdfjs.opened).toBe(1);
  });

  it('forgets a file that cannot be opened, so the next holder tries again', async () => {
    const file = pdf('%PDF-1.7 broken');
    await expect(holdPdf(file).opened).rejects.toThrow('Invalid PDF structure.');
    await expect(holdPdf(file).opened).rejects.toThrow('Invalid PDF structure.');
    expect(pdfjs.opened).toBe(2);
  });
});
