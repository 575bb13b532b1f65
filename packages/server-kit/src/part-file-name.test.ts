/** File names of multipart parts: UTF-8 bytes, Latin-1 bytes and RFC 5987 `filename*`, each kept as sent. */
import busboy from 'busboy';
import { describe, expect, it } from 'vitest';
import { PART_PARAM_CHARSET, partFileName } from './part-file-name';

/** The name busboy gives a part whose Content-Disposition is these bytes, then partFileName's. */
function nameOf(disposition: Buffer): Promise<string> {
  const boundary = 'b0undary';
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; `),
    disposition,
    Buffer.from(`\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.7\r\n--${boundary}--\r\n`),
  ]);
  return new Promise((resolve, reject) => {
    const parser = busboy({
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      defParamCharset: PART_PARAM_CHARSET,
    });
    parser.on('file', (_name, stream, info) => {
      stream.resume();
      resolve(partFileName(info.filename ?? ''));
    });
    parser.on('error', reject);
    parser.end(body);
  });
}

describe('partFileName', () => {
  it.each([
    [
      'UTF-8 bytes, as browsers, curl and fetch send them',
      Buffer.from('filename="facture-été-📄.pdf"', 'utf8'),
      'facture-été-📄.pdf',
    ],
    [
      'Latin-1 bytes, as some older clients send them',
      Buffer.from('filename="facture-été.pdf"', 'latin1'),
      'facture-été.pdf',
    ],
    [
      'RFC 5987 filename*',
      Buffer.from("filename*=UTF-8''facture-%C3%A9t%C3%A9-%F0%9F%93%84.pdf"),
      'facture-été-📄.pdf',
    ],
    ['plain ASCII', Buffer.from('filename="invoice 0077.pdf"'), 'invoice 0077.pdf'],
    ['CJK in UTF-8', Buffer.from('filename="請求書.pdf"', 'utf8'), '請求書.pdf'],
  ])('%s', async (_case, disposition, expected) => {
    expect(await nameOf(disposition)).toBe(expected);
  });

  it('keeps a name that is already text beyond Latin-1', () => {
    expect(partFileName('facture-📄.pdf')).toBe('facture-📄.pdf');
  });
});
