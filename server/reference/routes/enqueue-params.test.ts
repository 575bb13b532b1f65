import { describe, expect, it } from 'vitest';
import { decodeBase64 } from './enqueue-params';

describe('decodeBase64', () => {
  it('decodes standard and URL-safe base64, with or without padding, whitespace or a data: prefix', () => {
    const bytes = Buffer.from([0xff, 0xfe, 0x25, 0x50, 0x44, 0x46, 0x2d, 0x31]);
    for (const text of [
      bytes.toString('base64'),
      bytes.toString('base64url'),
      bytes.toString('base64').replace(/=+$/, ''),
      `  ${bytes.toString('base64').slice(0, 4)}\n${bytes.toString('base64').slice(4)}  `,
      `data:application/pdf;base64,${bytes.toString('base64')}`,
    ]) {
      expect(decodeBase64(text), text).toEqual(bytes);
    }
  });

  it('refuses what is not base64', () => {
    for (const text of ['not base64!', 'abc=def', 'a', '====', '']) {
      expect(decodeBase64(text), text).toBeUndefined();
    }
  });
});
