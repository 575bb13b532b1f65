import { describe, expect, it } from 'vitest';
import { sniffFileType } from './sniff-file';

describe('sniffFileType', () => {
  it('recognises a PDF by its header, not its name', async () => {
    expect(await sniffFileType(new Blob(['%PDF-1.7\n...']))).toBe('application/pdf');
    expect(await sniffFileType(new File(['hello'], 'invoice.pdf'))).toBe('unknown');
  });

  it('accepts a header after leading junk within the first kilobyte', async () => {
    expect(await sniffFileType(new Blob(['\u0000\u0000garbage%PDF-1.4']))).toBe('application/pdf');
  });
});
