/**
 * Word layouts for RAG tests: pages of text lines turned into the `DocumentText` an extractor gives
 * (words with normalised boxes), without a PDF. Each character is 0.01 of the page width; lines are
 * 0.03 apart unless placed.
 */
import type { DocumentText, PageText, Word } from '@extraction-review/document-text/extractor';
import { laidOutPages, type LaidOutPage } from '@extraction-review/reference/rag/document-terms';

export interface LayoutLine {
  text: string;
  /** Left edge, 0..1. Default 0.05. */
  x?: number;
  /** Top edge, 0..1. Default: below the previous line. */
  y?: number;
}

const CHAR_WIDTH = 0.01;
const LINE_HEIGHT = 0.02;
const LINE_STEP = 0.03;

export function layoutPage(index: number, lines: readonly (LayoutLine | string)[]): PageText {
  const words: Word[] = [];
  let nextY = 0.05;
  for (const entry of lines) {
    const line = typeof entry === 'string' ? { text: entry } : entry;
    const y0 = line.y ?? nextY;
    nextY = y0 + LINE_STEP;
    let offset = 0;
    for (const part of line.text.split(/( +)/)) {
      if (part.trim() !== '') {
        const x0 = (line.x ?? 0.05) + offset * CHAR_WIDTH;
        words.push({
          text: part,
          box: { x0, y0, x1: x0 + part.length * CHAR_WIDTH, y1: y0 + LINE_HEIGHT },
          confidence: 1,
        });
      }
      offset += part.length;
    }
  }
  return { index, width: 600, height: 800, words };
}

export function layoutDocument(pages: readonly (readonly (LayoutLine | string)[])[]): DocumentText {
  return { pageCount: pages.length, pages: pages.map((lines, i) => layoutPage(i, lines)) };
}

/** The same, grouped into lines as field finding reads them (`extractResult`'s `pages`). */
export function laidOut(pages: readonly (readonly (LayoutLine | string)[])[]): LaidOutPage[] {
  return laidOutPages(layoutDocument(pages));
}

/** An invoice of ACME's template; `values` change what differs from one invoice to the next. */
export function acmeInvoice(values: {
  number: string;
  date: string;
  customer: string;
  items: [string, string][];
  total: string;
}): (LayoutLine | string)[] {
  return [
    { text: 'ACME Industrial Supplies GmbH', x: 0.05, y: 0.05 },
    { text: 'Hauptstrasse 12, 8001 Zürich', x: 0.05, y: 0.08 },
    { text: `Invoice number: ${values.number}`, x: 0.55, y: 0.05 },
    { text: `Date: ${values.date}`, x: 0.55, y: 0.08 },
    { text: 'Bill to:', x: 0.05, y: 0.15 },
    { text: values.customer, x: 0.05, y: 0.18 },
    { text: 'Description Quantity Unit price Amount', x: 0.05, y: 0.25 },
    ...values.items.map(([description, amount], i) => ({
      text: `${description} ${amount}`,
      x: 0.05,
      y: 0.28 + i * 0.03,
    })),
    { text: `Total: ${values.total}`, x: 0.55, y: 0.7 },
    { text: 'IBAN: CH93 0076 2011 6238 5295 7', x: 0.05, y: 0.85 },
    { text: 'Payment within 30 days. Thank you for your business.', x: 0.05, y: 0.88 },
  ];
}

/** Another supplier's invoice: the same generic labels, nothing else in common with ACME's. */
export function otherSupplierInvoice(): (LayoutLine | string)[] {
  return [
    'Globex Office Furniture Ltd',
    '44 Baker Street, London W1U 7AL',
    'Invoice number: G-7781',
    'Date: 02/05/2025',
    'Customer: Initech Holdings',
    'Description Quantity Unit price Amount',
    'Standing desk oak 2 450.00 900.00',
    'Ergonomic chair 4 210.00 840.00',
    'Total: 1,740.00',
    'Sort code 20-00-00 Account 55779911',
    'Registered in England and Wales',
  ];
}

/** Not an invoice at all. */
export function unrelatedLetter(): (LayoutLine | string)[] {
  return [
    'Dear Ms Keller,',
    'We are pleased to confirm your reservation at the Alpine Lodge',
    'for three nights from the 4th of July. Breakfast is served',
    'between seven and ten in the garden room.',
    'Kind regards, the reception team',
  ];
}
