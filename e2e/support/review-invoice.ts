/**
 * A two-page invoice made by the tests (pdf-lib), with a table of line items the seeded Invoice model
 * reads (columns Description / Quantity / Unit price / Amount), and a second page of terms. The text
 * layer carries every word, so the reference service reads it without OCR.
 */
import { PDFDocument, StandardFonts } from 'pdf-lib';

export interface InvoiceRow {
  description: string;
  quantity: string;
  unitPrice: string;
  amount: string;
}

export interface ReviewInvoice {
  invoiceNumber: string;
  date: string;
  rows: InvoiceRow[];
  total: string;
  /** A sentence of page 2, for searches. */
  terms: string;
}

export const REVIEW_INVOICE: ReviewInvoice = {
  invoiceNumber: 'INV-2024-0077',
  date: '2024-03-14',
  rows: [
    { description: 'Steel bolts M8', quantity: '100', unitPrice: '0.25', amount: '25.00' },
    { description: 'Hex nuts M8', quantity: '200', unitPrice: '0.10', amount: '20.00' },
    { description: 'Flat washers M8', quantity: '50', unitPrice: '0.05', amount: '2.50' },
  ],
  total: '47.50',
  terms: 'Payment is due within thirty days of the invoice date.',
};

const PAGE = { width: 612, height: 792 };
const COLUMNS = { description: 72, quantity: 280, unitPrice: 370, amount: 470 };

export async function makeReviewInvoicePdf(invoice: ReviewInvoice = REVIEW_INVOICE): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const first = pdf.addPage([PAGE.width, PAGE.height]);
  const text = (t: string, x: number, y: number, f = font, size = 12) =>
    first.drawText(t, { x, y, size, font: f });

  text('ACME Supplies Ltd', 72, 730, bold, 20);
  text('Invoice number:', 72, 680);
  text(invoice.invoiceNumber, 220, 680);
  text('Date:', 72, 656);
  text(invoice.date, 220, 656);

  let y = 580;
  text('Description', COLUMNS.description, y, bold);
  text('Quantity', COLUMNS.quantity, y, bold);
  text('Unit price', COLUMNS.unitPrice, y, bold);
  text('Amount', COLUMNS.amount, y, bold);
  for (const row of invoice.rows) {
    y -= 22;
    text(row.description, COLUMNS.description, y);
    text(row.quantity, COLUMNS.quantity, y);
    text(row.unitPrice, COLUMNS.unitPrice, y);
    text(row.amount, COLUMNS.amount, y);
  }
  text('Total:', 72, y - 80);
  text(invoice.total, 220, y - 80);

  const second = pdf.addPage([PAGE.width, PAGE.height]);
  second.drawText('Terms and conditions', { x: 72, y: 720, size: 16, font: bold });
  second.drawText(invoice.terms, { x: 72, y: 690, size: 12, font });
  return pdf.save();
}
