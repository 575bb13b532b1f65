/**
 * A review store made ready for a page-words request before the app server opens it: an operator with
 * a password, and a document whose one-page PDF (a text layer saying "Total: 1,234.56") is kept.
 * Written with the store closed again, so that the app server's process is the only one holding it.
 */
import { Readable } from 'node:stream';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { readEnv } from '@extraction-review/app-server/settings/config';
import { hashPassword } from '@extraction-review/app-server/review/auth/passwords';
import { openReview, reviewSettingsFromEnv } from '@extraction-review/app-server/review/open-review';

export const KEPT_OPERATOR = { name: 'Alice', password: 'correct horse battery staple' };

export async function seedKeptDocument(appDataDir: string): Promise<{ documentId: string }> {
  const review = await openReview(reviewSettingsFromEnv(readEnv({ APP_DATA_DIR: appDataDir })));
  try {
    const now = Date.UTC(2026, 10, 28, 9, 0, 0);
    await review.operators.create(
      {
        name: KEPT_OPERATOR.name,
        role: 'operator',
        passwordHash: await hashPassword(KEPT_OPERATOR.password),
      },
      now,
    );
    const documentId = crypto.randomUUID();
    await review.files?.save(documentId, Readable.from([await onePagePdf()]));
    await review.queue.addDocument(
      {
        id: documentId,
        apiVersion: 'v2',
        modelKey: 'model-a',
        fileName: 'invoice.pdf',
        mimeType: 'application/pdf',
        fileKey: documentId,
        upstreamJobId: null,
      },
      now,
    );
    return { documentId };
  } finally {
    await review.close();
  }
}

/** The session cookie of KEPT_OPERATOR on the app server at `url`. */
export async function signIn(url: string): Promise<string> {
  const response = await fetch(`${url}/api/session`, {
    method: 'POST',
    headers: { Origin: url, 'Sec-Fetch-Site': 'same-origin', 'Content-Type': 'application/json' },
    body: JSON.stringify(KEPT_OPERATOR),
  });
  if (response.status !== 200)
    throw new Error(`sign-in answered ${response.status}: ${await response.text()}`);
  return (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
}

async function onePagePdf(): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([612, 792]);
  page.drawText('Total:', { x: 72, y: 300, size: 24, font });
  page.drawText('1,234.56', { x: 220, y: 300, size: 24, font });
  return Buffer.from(await pdf.save());
}
