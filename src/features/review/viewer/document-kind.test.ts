import { describe, expect, it } from 'vitest';
import { detectDocumentKind, kindFromBytes, kindFromMimeType } from './document-kind';

const bytes = (...parts: (string | number[])[]) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...p].map((c) => c.charCodeAt(0)) : p)));

describe('document kind', () => {
  it('tells each supported kind from its first bytes', () => {
    expect(kindFromBytes(bytes('%PDF-1.7\n'))).toEqual({ kind: 'pdf' });
    expect(kindFromBytes(bytes('junk before the header %PDF-1.4'))).toEqual({ kind: 'pdf' });
    expect(kindFromBytes(bytes([0xff, 0xd8, 0xff, 0xe0]))).toEqual({ kind: 'image', mimeType: 'image/jpeg' });
    expect(kindFromBytes(bytes([0x89], 'PNG\r\n\x1a\n'))).toEqual({ kind: 'image', mimeType: 'image/png' });
    expect(kindFromBytes(bytes('RIFF', [1, 2, 3, 4], 'WEBPVP8 '))).toEqual({
      kind: 'image',
      mimeType: 'image/webp',
    });
    expect(kindFromBytes(bytes('II*\0'))).toEqual({ kind: 'tiff' });
    expect(kindFromBytes(bytes('MM\0*'))).toEqual({ kind: 'tiff' });
  });

  it('names what it cannot draw', () => {
    expect(kindFromBytes(bytes([0, 0, 0, 0x18], 'ftypheic'))).toEqual({
      kind: 'unsupported',
      description: 'a HEIC/HEIF photo',
    });
    expect(kindFromBytes(bytes('GIF89a'))).toMatchObject({ kind: 'unsupported' });
    expect(kindFromBytes(new Uint8Array())).toEqual({ kind: 'unsupported', description: 'an empty file' });
    expect(kindFromBytes(bytes('hello'))).toBeNull();
  });

  it('falls back on the MIME type', () => {
    expect(kindFromMimeType('application/pdf')).toEqual({ kind: 'pdf' });
    expect(kindFromMimeType('image/TIFF')).toEqual({ kind: 'tiff' });
    expect(kindFromMimeType('application/octet-stream')).toBeNull();
    expect(kindFromMimeType(undefined)).toBeNull();
    expect(kindFromMimeType('text/plain')).toEqual({
      kind: 'unsupported',
      description: 'a file of type text/plain',
    });
  });

  it('trusts the bytes over the type it is told', async () => {
    expect(await detectDocumentKind(new Blob([bytes('%PDF-1.7')]), 'image/png')).toEqual({ kind: 'pdf' });
    expect(await detectDocumentKind(new Blob([bytes('????')]), 'image/png')).toEqual({
      kind: 'image',
      mimeType: 'image/png',
    });
    expect(await detectDocumentKind(new Blob([bytes('????')], { type: 'image/webp' }))).toMatchObject({
      mimeType: 'image/webp',
    });
    expect(await detectDocumentKind(new Blob([bytes('????')]))).toMatchObject({ kind: 'unsupported' });
  });
});
