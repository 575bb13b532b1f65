import { describe, expect, it } from 'vitest';
import {
  acmeInvoice,
  laidOut,
  otherSupplierInvoice,
  unrelatedLetter,
  type LayoutLine,
} from '@extraction-review/test-kit/reference/rag-layout';
import { normalizeText, termsOf, tokensOf } from './document-terms';
import { DEFAULT_SIMILARITY_THRESHOLD, findSimilarDocument, type RetrievalCandidate } from './retrieval';

const terms = (lines: (LayoutLine | string)[]) => termsOf(laidOut([lines]));
const candidate = (id: string, lines: (LayoutLine | string)[], createdAt = '2026-01-01T00:00:00.000Z') => ({
  id,
  terms: terms(lines),
  createdAt,
});

const validated = acmeInvoice({
  number: 'INV-2025-001',
  date: '14.03.2025',
  customer: 'Initech Holdings AG',
  items: [
    ['Steel bolts M8 x 200', '48.00'],
    ['Hex nuts M8 x 500', '35.50'],
  ],
  total: '83.50',
});
const sameTemplate = acmeInvoice({
  number: 'INV-2025-017',
  date: '02.04.2025',
  customer: 'Umbrella Logistics SA',
  items: [
    ['Copper wire 2.5mm 100m', '120.00'],
    ['Cable ties black x 1000', '18.90'],
    ['Insulation tape red', '6.40'],
    ['Junction boxes IP65', '64.00'],
  ],
  total: '209.30',
});
const longTable = acmeInvoice({
  number: 'INV-2025-044',
  date: '20.05.2025',
  customer: 'Wayne Enterprises',
  items: Array.from({ length: 15 }, (_, i): [string, string] => [
    `Spare part model X${i} deluxe edition`,
    `${i}0.00`,
  ]),
  total: '1050.00',
});

describe('document terms', () => {
  it('normalises case, accents and punctuation', () => {
    expect(normalizeText('Zürich,')).toBe('zurich');
    expect(normalizeText('P-1')).toBe('p1');
    expect(normalizeText('  ÉTÉ  ')).toBe('ete');
  });

  it('leaves out numbers and one-character tokens, which change per document', () => {
    expect(tokensOf('Total: 1,234.50 EUR')).toEqual(['total', 'eur']);
    expect(tokensOf('INV-2025-001 x M8')).toEqual(['inv', 'm8']);
    expect(tokensOf('14.03.2025')).toEqual([]);
  });

  it('counts terms over every page', () => {
    expect(termsOf(laidOut([['Total total'], ['TOTAL: 5']]))).toEqual({ total: 3 });
  });
});

describe('findSimilarDocument', () => {
  it('matches identical text with a score of 1', () => {
    expect(findSimilarDocument(terms(validated), [candidate('a', validated)])).toEqual({ id: 'a', score: 1 });
  });

  it('matches the same template with other values, customer and line items', () => {
    const match = findSimilarDocument(terms(sameTemplate), [candidate('a', validated)]);
    expect(match?.id).toBe('a');
    expect(match?.score).toBeGreaterThan(0.6);
    expect(match?.score).toBeLessThan(0.8);
  });

  it('matches the same template with a long table of line items', () => {
    const match = findSimilarDocument(terms(longTable), [candidate('a', validated)]);
    expect(match?.id).toBe('a');
    expect(match?.score).toBeGreaterThan(DEFAULT_SIMILARITY_THRESHOLD + 0.1);
  });

  it('finds nothing for another supplier’s invoice or an unrelated document', () => {
    const stored = [candidate('a', validated)];
    expect(findSimilarDocument(terms(otherSupplierInvoice()), stored)).toBeNull();
    expect(findSimilarDocument(terms(unrelatedLetter()), stored)).toBeNull();
    // The scores behind those answers, against the documented threshold.
    expect(findSimilarDocument(terms(otherSupplierInvoice()), stored, 0)?.score).toBeLessThan(0.35);
    expect(findSimilarDocument(terms(unrelatedLetter()), stored, 0)?.score).toBeLessThan(0.1);
  });

  it('picks the most similar of the model’s documents', () => {
    const stored = [candidate('other', otherSupplierInvoice()), candidate('acme', validated)];
    expect(findSimilarDocument(terms(sameTemplate), stored)?.id).toBe('acme');
    expect(findSimilarDocument(terms(otherSupplierInvoice()), stored)).toEqual({ id: 'other', score: 1 });
  });

  it('weighs down the labels every stored document shares (IDF)', () => {
    const alone = findSimilarDocument(terms(sameTemplate), [candidate('acme', validated)]);
    const among = findSimilarDocument(terms(sameTemplate), [
      candidate('acme', validated),
      candidate('other', otherSupplierInvoice()),
    ]);
    expect(among?.id).toBe('acme');
    // "invoice", "number", "total"… are shared by both suppliers and now weigh less; ACME's own
    // terms (name, address, IBAN), which the new invoice has, weigh more.
    expect(among?.score).toBeGreaterThan(alone?.score ?? 1);
  });

  it('prefers the most recent of equally similar documents', () => {
    const stored: RetrievalCandidate[] = [
      candidate('old', validated, '2026-01-01T00:00:00.000Z'),
      candidate('new', validated, '2026-02-01T00:00:00.000Z'),
    ];
    expect(findSimilarDocument(terms(validated), stored)?.id).toBe('new');
  });

  it('answers null with no document, or with nothing to compare', () => {
    expect(findSimilarDocument(terms(validated), [])).toBeNull();
    expect(findSimilarDocument({}, [candidate('a', validated)])).toBeNull();
    expect(findSimilarDocument(terms(validated), [{ id: 'empty', terms: {}, createdAt: '' }])).toBeNull();
  });

  it('takes the threshold it is given', () => {
    const stored = [candidate('a', validated)];
    expect(findSimilarDocument(terms(sameTemplate), stored, 0.95)).toBeNull();
    expect(findSimilarDocument(terms(otherSupplierInvoice()), stored, 0.2)?.id).toBe('a');
  });
});
