import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { darkPaletteCss, tailwindPalette } from './dark-palette';

const palette = tailwindPalette();

function declared(css: string, name: string): [string, string] {
  const match = new RegExp(`--color-${name}: light-dark\\((.+), (.+)\\);`).exec(css);
  if (!match) throw new Error(`no --color-${name} in the dark palette`);
  return [match[1] ?? '', match[2] ?? ''];
}

describe('the dark palette', () => {
  it('is the one in src/theme-palette.css (regenerate it: npx tsx scripts/theme/dark-palette.ts)', () => {
    expect(readFileSync(new URL('../../src/theme-palette.css', import.meta.url), 'utf8')).toBe(
      darkPaletteCss(),
    );
  });

  it('keeps every light colour as Tailwind has it', () => {
    const css = darkPaletteCss();
    for (const [name, value] of palette) {
      if (name === 'black') continue;
      expect(declared(css, name)[0]).toBe(value);
    }
  });

  it('mirrors a hue: a light tint becomes the deep shade, a dark text colour the light one', () => {
    const css = darkPaletteCss();
    expect(declared(css, 'red-50')[1]).toBe(palette.get('red-950'));
    expect(declared(css, 'blue-700')[1]).toBe(palette.get('blue-300'));
    expect(declared(css, 'amber-500')[1]).toBe(palette.get('amber-500'));
  });

  it('mirrors a grey one step darker, so the surfaces keep their order: page, card, raised', () => {
    const css = darkPaletteCss();
    expect(declared(css, 'slate-50')[1]).toBe(palette.get('slate-950'));
    expect(declared(css, 'white')[1]).toBe(palette.get('slate-900'));
    expect(declared(css, 'slate-100')[1]).toBe(palette.get('slate-800'));
    expect(declared(css, 'slate-900')[1]).toBe(palette.get('slate-50'));
    expect(declared(css, 'slate-950')[1]).toBe(palette.get('white'));
  });
});
