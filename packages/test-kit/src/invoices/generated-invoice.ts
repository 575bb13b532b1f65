/**
 * Invoices made up for the rules' tests (unit, store, API): a v2 extraction result with the fields
 * the rules are written for (`total_net`, `total_tax`, `total_amount`, `date`, `due_date`,
 * `line_items[*].total_price`, …), every value at the confidence asked for.
 */
import type { FieldConfidence, FieldResult } from '@extraction-review/contract/v2/schemas';

export interface GeneratedInvoice {
  invoiceNumber?: string | null;
  date?: string | null;
  dueDate?: string | null;
  currency?: string | null;
  /** Each line's total price (a string stays a string: a value as the operator typed it). */
  lines?: (number | string | null)[];
  net?: number | string | null;
  tax?: number | string | null;
  total?: number | string | null;
  supplierCity?: string | null;
  confidence?: FieldConfidence | null;
  /** Per field path, another confidence (`total_amount`, `line_items[1].total_price`). */
  confidenceOf?: Record<string, FieldConfidence | null>;
}

export const BALANCED: Required<Omit<GeneratedInvoice, 'confidenceOf'>> = {
  invoiceNumber: 'INV-2024-0077',
  date: '2024-03-14',
  dueDate: '2024-04-13',
  currency: 'EUR',
  lines: [25, 20, 2.5],
  net: 47.5,
  tax: 9.5,
  total: 57,
  supplierCity: 'Lyon',
  confidence: 'Certain',
};

/** `{ inference: … }`, the body of `GET /v2/inferences/{id}`, as the review store keeps it. */
export function generatedInvoice(input: GeneratedInvoice = {}): {
  inference: Record<string, unknown>;
} {
  const i = { ...BALANCED, ...input };
  const confidence = (path: string) =>
    input.confidenceOf && Object.hasOwn(input.confidenceOf, path)
      ? (input.confidenceOf[path] ?? null)
      : i.confidence;
  const simple = (path: string, value: string | number | null): FieldResult => ({
    value,
    confidence: confidence(path),
    locations: [],
  });
  return {
    inference: {
      id: 'inference-1',
      job: { id: 'job-1' },
      model: { id: 'model-1' },
      file: { name: 'invoice.pdf', alias: null, page_count: 1, mime_type: 'application/pdf' },
      result: {
        fields: {
          invoice_number: simple('invoice_number', i.invoiceNumber),
          date: simple('date', i.date),
          due_date: simple('due_date', i.dueDate),
          currency: simple('currency', i.currency),
          supplier_address: {
            fields: { city: simple('supplier_address.city', i.supplierCity) },
            confidence: confidence('supplier_address'),
            locations: [],
          },
          line_items: {
            items: i.lines.map((price, n) => ({
              fields: {
                description: simple(`line_items[${String(n)}].description`, `Line ${String(n + 1)}`),
                total_price: simple(`line_items[${String(n)}].total_price`, price),
              },
              confidence: null,
              locations: [],
            })),
            confidence: null,
          },
          total_net: simple('total_net', i.net),
          total_tax: simple('total_tax', i.tax),
          total_amount: simple('total_amount', i.total),
        },
        raw_text: null,
        rag: null,
      },
      active_options: {
        raw_text: false,
        polygon: true,
        confidence: true,
        rag: false,
        multipage_context: false,
        text_context: false,
        data_schema: { replace: false },
      },
    },
  };
}
