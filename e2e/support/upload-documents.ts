/**
 * Documents made by the upload and jobs journeys themselves: invoices drawn with pdf-lib (a text layer
 * the reference service reads directly), the same page rasterised to a PNG (pdf.js, then sharp) that it
 * must OCR, and files that fail a check before sending or at the service.
 */
import { randomBytes } from 'node:crypto';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { rawSharp } from '@extraction-review/document-text/ocr/grey-image';
import { openPdf } from '@extraction-review/document-text/pdf-document';

export interface FilePayload {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

export interface InvoiceText {
  invoiceNumber: string;
  date?: string;
  total?: string;
}

/**
 * A one-page invoice. `padBytes` adds an unreferenced stream of random bytes, so the file is big enough
 * for its upload progress to be seen on a throttled link; readers ignore it.
 */
export async function invoicePdf(invoice: InvoiceText, padBytes = 0): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const page = pdf.addPage([612, 792]);
  page.drawText('ACME Supplies Ltd', { x: 72, y: 730, size: 20, font: bold });
  const lines: [string, string, number][] = [
    ['Invoice number:', invoice.invoiceNumber, 680],
    ['Date:', invoice.date ?? '2024-03-14', 656],
    ['Total:', invoice.total ?? '1,234.56', 300],
  ];
  for (const [label, value, y] of lines) {
    page.drawText(label, { x: 72, y, size: 12, font });
    page.drawText(value, { x: 220, y, size: 12, font });
  }
  if (padBytes > 0) pdf.context.register(pdf.context.stream(randomBytes(padBytes)));
  return pdf.save({ useObjectStreams: false });
}

export async function invoicePdfFile(name: string, invoice: InvoiceText, padBytes = 0): Promise<FilePayload> {
  return { name, mimeType: 'application/pdf', buffer: Buffer.from(await invoicePdf(invoice, padBytes)) };
}

/** The invoice as a scanned picture: PNG, 150 dpi, no text layer (the service OCRs it). */
export async function invoicePngFile(name: string, invoice: InvoiceText): Promise<FilePayload> {
  // Rendered in grey the way the service renders a scanned page for OCR.
  const document = await openPdf(await invoicePdf(invoice));
  try {
    const png = await rawSharp(await document.renderPage(0, 150))
      .png()
      .toBuffer();
    return { name, mimeType: 'image/png', buffer: png };
  } finally {
    await document.close();
  }
}

/** A file that starts like a PDF (so it passes the checks before sending) but is not one. */
export function brokenPdfFile(name: string): FilePayload {
  const body = `%PDF-1.7\n${'This is not a PDF body, only its first line. '.repeat(20)}\n`;
  return { name, mimeType: 'application/pdf', buffer: Buffer.from(body, 'latin1') };
}

/** A PDF whose trailer names an encryption dictionary: flagged before sending. */
export async function encryptedLookingPdfFile(name: string): Promise<FilePayload> {
  const text = Buffer.from(await invoicePdf({ invoiceNumber: 'INV-ENC-1' })).toString('latin1');
  const flagged = text.replace(
    /trailer\s*<<([\s\S]*?)>>\s*startxref/,
    'trailer\n<<$1 /Encrypt 99 0 R >>\nstartxref',
  );
  if (flagged === text) throw new Error('No trailer found in the generated PDF');
  return { name, mimeType: 'application/pdf', buffer: Buffer.from(flagged, 'latin1') };
}

/** A text file with a PDF's name. */
export function renamedTextFile(name: string): FilePayload {
  return { name, mimeType: 'application/pdf', buffer: Buffer.from('Just some notes, not a document.\n') };
}
