import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixturesDir } from '../../../src/api/testing/fixtures-dir';
import { SNIFF_BYTES, sniffMimeType } from './sniff-mime-type';

const head = async (file: string) =>
  new Uint8Array((await readFile(path.join(fixturesDir, 'file_types', file))).subarray(0, SNIFF_BYTES));

describe('sniffMimeType, on the real sample files', () => {
  it.each([
    ['receipt.jpg', 'image/jpeg'],
    ['receipt.jpga', 'image/jpeg'],
    ['receipt.png', 'image/png'],
    ['receipt.webp', 'image/webp'],
    ['receipt.tif', 'image/tiff'],
    ['receipt.heic', 'image/heic'],
    ['pdf/multipage.pdf', 'application/pdf'],
    ['pdf/blank.pdf', 'application/pdf'],
  ])('%s → %s', async (file, type) => {
    expect(sniffMimeType(await head(file))).toBe(type);
  });

  it('does not take a text file for anything, whatever its name', async () => {
    expect(sniffMimeType(await head('receipt.txt'))).toBeUndefined();
    expect(sniffMimeType(new TextEncoder().encode('Invoice number: 1'))).toBeUndefined();
  });
});
