/**
 * The limits' arithmetic: the resolution a page is drawn at (the wanted one, the highest that fits,
 * or a refusal below the floor), pages and pictures over their limits, the settings over the defaults.
 */
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_DOCUMENT_LIMITS,
  documentLimitsFromEnv,
  MIN_RENDER_DPI,
  renderDpiWithin,
  requireImageWithin,
  requirePageCount,
} from './document-limits';

const limits = DEFAULT_DOCUMENT_LIMITS;

describe('document limits', () => {
  it('draws an ordinary page at the wanted resolution', () => {
    expect(renderDpiWithin({ width: 612, height: 792 }, 200, limits)).toBe(200);
  });

  it('draws the 8000 pt page at the highest whole dpi that fits 40 MP (56: 6223² px)', () => {
    const dpi = renderDpiWithin({ width: 8000, height: 8000 }, 200, limits);
    expect(dpi).toBe(56);
    expect(Math.ceil((8000 * dpi) / 72) ** 2).toBeLessThanOrEqual(limits.maxRenderPixels);
    expect(Math.ceil((8000 * (dpi + 1)) / 72) ** 2).toBeGreaterThan(limits.maxRenderPixels);
  });

  it('refuses with 422-012 a page that does not fit even at the floor', () => {
    expect(() => renderDpiWithin({ width: 14_400, height: 14_400 }, 200, limits)).toThrow(
      expect.objectContaining({
        code: '422-012',
        message: `A page of 200 × 200 in is too large to render: even at ${MIN_RENDER_DPI} dpi it would take 51.84 MP, over the 40 MP of DOCUMENT_MAX_RENDER_PIXELS.`,
      }),
    );
    // A long thin page fits at a lower resolution instead.
    expect(renderDpiWithin({ width: 612, height: 14_400 }, 200, limits)).toBeGreaterThanOrEqual(
      MIN_RENDER_DPI,
    );
  });

  it('refuses pages and pictures over their limits, and takes the settings that are set', () => {
    expect(() => requirePageCount(500, limits)).not.toThrow();
    expect(() => requirePageCount(501, limits)).toThrow(expect.objectContaining({ code: '422-012' }));
    expect(() => requireImageWithin({ width: 10_000, height: 10_000 }, limits)).not.toThrow();
    expect(() => requireImageWithin({ width: 10_001, height: 10_000 }, limits, 'Page 2 of the TIFF')).toThrow(
      expect.objectContaining({
        code: '422-012',
        message:
          'Page 2 of the TIFF is 10001 × 10000 pixels (100.01 MP), over the 100 MP of DOCUMENT_MAX_IMAGE_PIXELS.',
      }),
    );
    expect(documentLimitsFromEnv({ DOCUMENT_MAX_PAGES: 3 })).toEqual({
      ...DEFAULT_DOCUMENT_LIMITS,
      maxPages: 3,
    });
  });
});
