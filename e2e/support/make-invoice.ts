/**
 * Test documents made by the tests themselves (pdf-lib), with the exact place of every word we
 * assert on, in page-relative units with the origin at the top-left (the API's frame).
 */
import { PDFDocument, StandardFonts } from 'pdf-lib';

export interface WordBox {
  text: string;
  page: number;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface MadeDocument {
  bytes: Uint8Array;
  words: Record<string, WordBox>;
}

interface Line {
  label: string;
  value: string;
  y: number;
  page?: number;
}

const PAGE = { width: 612, height: 792 };
const SIZE = 12;
const LABEL_X = 72;
const VALUE_X = 220;

export async function makeInvoicePdf(
  lines: Line[] = [
    { label: 'Invoice number:', value: 'INV-2024-0042', y: 680 },
    { label: 'Date:', value: '2024-03-14', y: 656 },
    { label: 'Total:', value: '1,234.56', y: 300 },
  ],
): Promise<MadeDocument> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const pageCount = Math.max(1, ...lines.map((l) => (l.page ?? 0) + 1));
  const pages = Array.from({ length: pageCount }, () => pdf.addPage([PAGE.width, PAGE.height]));
  pages[0]?.drawText('ACME Supplies Ltd', { x: LABEL_X, y: 730, size: 20, font: bold });

  const words: Record<string, WordBox> = {};
  for (const line of lines) {
    const pageIndex = line.page ?? 0;
    const page = pages[pageIndex];
    if (!page) throw new Error(`No page ${pageIndex}`);
    page.drawText(line.label, { x: LABEL_X, y: line.y, size: SIZE, font });
    page.drawText(line.value, { x: VALUE_X, y: line.y, size: SIZE, font });
    const width = font.widthOfTextAtSize(line.value, SIZE);
    // Helvetica's ascent and descent are about 0.72 and 0.21 of the size.
    words[line.value] = {
      text: line.value,
      page: pageIndex,
      x0: VALUE_X / PAGE.width,
      x1: (VALUE_X + width) / PAGE.width,
      y0: (PAGE.height - (line.y + 0.72 * SIZE)) / PAGE.height,
      y1: (PAGE.height - (line.y - 0.21 * SIZE)) / PAGE.height,
    };
  }
  return { bytes: await pdf.save(), words };
}
