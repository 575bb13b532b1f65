/**
 * The wordings of issue 13 that the finder used to misread, on hand-placed words: each one through
 * the vocabularies (vocabulary.ts), the identifier rules and the date order from the document.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FieldSchema } from '@extraction-review/contract/v2/field-schema';
import { loadModelCatalog } from '@extraction-review/reference/models/model-catalog';
import { findOnPages, layoutPage as page, simple } from '@extraction-review/test-kit/reference/fields-layout';

let invoice: FieldSchema[];
beforeAll(async () => {
  const catalog = await loadModelCatalog(
    path.join(import.meta.dirname, '..', '..', '..', '..', 'server', 'reference', 'models.json'),
  );
  invoice = catalog.models[0]?.data_schema.fields ?? [];
});

const value = (fields: ReturnType<typeof findOnPages>, name: string) => simple(fields[name]).value;

describe('wordings it was not tuned on', () => {
  it('reads a US bill in dollars from North Carolina month first', () => {
    const fields = findOnPages(
      [
        page(0, [
          ['Blue Ridge Supply', 0.1, 0.05],
          ['Raleigh, NC 27601', 0.1, 0.08],
          ['Date: 11/03/2026', 0.1, 0.2],
          ['Amount due: $1,234.00', 0.1, 0.3],
        ]),
      ],
      invoice,
    );
    expect(value(fields, 'date')).toBe('2026-11-03');
  });

  it('reads a European bill day first, and the text context only when the document shows nothing', () => {
    const eu = findOnPages(
      [
        page(0, [
          ['Datum: 11/03/2026', 0.1, 0.2],
          ['Summe: 1.234,00 €', 0.1, 0.3],
        ]),
      ],
      invoice,
    );
    expect(value(eu, 'date')).toBe('2026-03-11');
    const bare = findOnPages([page(0, [['Date: 11/03/2026', 0.1, 0.2]])], invoice, 'dates are month first');
    expect(value(bare, 'date')).toBe('2026-11-03');
  });

  it('reads "1 200,00 EUR" as an amount under a French label', () => {
    const fields = findOnPages(
      [
        page(0, [
          ['Total TTC : 1 200,00 EUR', 0.1, 0.3],
          ['Montant HT : 1 000,00 EUR', 0.1, 0.25],
        ]),
      ],
      invoice,
    );
    expect(value(fields, 'total_amount')).toBe(1200);
    expect(value(fields, 'total_net')).toBe(1000);
  });

  it('cuts "Invoice INV/26/1187 of 23.06.2026" into the number and the date', () => {
    const fields = findOnPages([page(0, [['Invoice INV/26/1187 of 23.06.2026', 0.1, 0.2]])], invoice);
    expect(value(fields, 'invoice_number')).toBe('INV/26/1187');
    expect(value(fields, 'date')).toBe('2026-06-23');
  });

  it('never takes a title for the invoice number or the supplier', () => {
    const fields = findOnPages(
      [
        page(0, [
          ['INVOICE / FACTURE', 0.4, 0.03],
          ['Atelier Dupont SARL', 0.1, 0.08],
          ['N° de facture : F2026-042', 0.1, 0.2],
        ]),
      ],
      invoice,
    );
    expect(value(fields, 'invoice_number')).toBe('F2026-042');
    expect(value(fields, 'supplier_name')).toBe('Atelier Dupont SARL');
  });

  it('reads German and Spanish labels from the vocabularies', () => {
    const de = findOnPages(
      [
        page(0, [
          ['Rechnungsnummer: 2026-118', 0.1, 0.1],
          ['Fällig am: 5. Juni 2026', 0.1, 0.13],
          ['MwSt. 19%: 190,00', 0.1, 0.3],
        ]),
      ],
      invoice,
    );
    expect([value(de, 'invoice_number'), value(de, 'due_date'), value(de, 'total_tax')]).toEqual([
      '2026-118',
      '2026-06-05',
      190,
    ]);
    const es = findOnPages(
      [
        page(0, [
          ['Nº de factura: A-77', 0.1, 0.1],
          ['Fecha: 23 de junio de 2026', 0.1, 0.13],
          ['Base imponible: 1.000,00 €', 0.1, 0.3],
        ]),
      ],
      invoice,
    );
    expect([value(es, 'invoice_number'), value(es, 'date'), value(es, 'total_net')]).toEqual([
      'A-77',
      '2026-06-23',
      1000,
    ]);
  });
});
