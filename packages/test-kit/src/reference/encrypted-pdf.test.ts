/**
 * The hand-written encrypted PDF is a real one: pdf.js refuses it without a password, and with either
 * password decrypts its page to the text that was written.
 */
import { describe, expect, it } from 'vitest';
import { loadPdfJs } from '@extraction-review/document-text/pdfjs';
import { encryptedPdf } from './encrypted-pdf';

const options = { text: 'Secret (invoice) 42', userPassword: 'user-secret', ownerPassword: 'owner-secret' };

async function pageText(data: Uint8Array, password?: string): Promise<string> {
  const pdfjs = await loadPdfJs();
  const task = pdfjs.getDocument({ data, password, verbosity: 0 });
  try {
    const page = await (await task.promise).getPage(1);
    const content = await page.getTextContent();
    return content.items.map((item) => ('str' in item ? item.str : '')).join('');
  } finally {
    await task.destroy();
  }
}

describe('encryptedPdf (AES-256, revision 6)', () => {
  it('needs a password: pdf.js asks for one, and the text is not in the file', async () => {
    const pdf = encryptedPdf(options);
    expect(Buffer.from(pdf).toString('latin1')).not.toContain('Secret');
    await expect(pageText(pdf)).rejects.toMatchObject({
      name: 'PasswordException',
      code: 1, // PasswordResponses.NEED_PASSWORD
    });
  });

  it('refuses a wrong password', async () => {
    await expect(pageText(encryptedPdf(options), 'guess')).rejects.toMatchObject({
      name: 'PasswordException',
      code: 2, // PasswordResponses.INCORRECT_PASSWORD
    });
  });

  it.each([['user-secret'], ['owner-secret']])('opens with %s and decrypts the page', async (password) => {
    expect(await pageText(encryptedPdf(options), password)).toBe('Secret (invoice) 42');
  });
});
