/**
 * A recorded v1 prediction (financial_document, invoices, expense_receipts) restated in the v2
 * field names of our seeded models, so that `scoreExtraction` can compare our answer for a v1 sample
 * document with what the hosted service read. Only the mapping of names and units is done here:
 * v1 rates are percentages (v2 answers fractions), `tip` is `tips_gratuity`, `category` is
 * `purchase_category`, a line's `total_amount` is `total_price`, a tax's `value` is `amount`, the
 * document types are upper-case phrases (`EXPENSE RECEIPT` → `receipt`).
 */
import type { ExtractionLike } from './accuracy';

type Json = Record<string, unknown>;

const SCALARS: Record<string, string> = {
  date: 'date',
  due_date: 'due_date',
  invoice_number: 'invoice_number',
  receipt_number: 'receipt_number',
  total_amount: 'total_amount',
  total_net: 'total_net',
  total_tax: 'total_tax',
  tip: 'tips_gratuity',
  supplier_name: 'supplier_name',
  customer_name: 'customer_name',
  supplier_phone_number: 'supplier_phone_number',
  category: 'purchase_category',
  subcategory: 'purchase_subcategory',
};

const ADDRESS_PARTS = [
  'street_number',
  'street_name',
  'po_box',
  'address_complement',
  'city',
  'postal_code',
  'state',
  'country',
] as const;

const DOCUMENT_TYPES: Record<string, string> = {
  INVOICE: 'invoice',
  'EXPENSE RECEIPT': 'receipt',
  RECEIPT: 'receipt',
  'CREDIT NOTE': 'credit_note',
};

const asJson = (v: unknown): Json | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : undefined;
const simple = (value: unknown): Json => ({ value: value ?? null });
const percentToFraction = (v: unknown): unknown =>
  typeof v === 'number' ? Math.round((v / 100) * 1e9) / 1e9 : null;

/** `body` is a v1 document response (`{ document: { inference: { prediction } } }`). */
export function v1ToExtraction(body: unknown): ExtractionLike {
  const prediction = asJson(asJson(asJson(asJson(body)?.['document'])?.['inference'])?.['prediction']) ?? {};
  const fields: Json = {};
  for (const [v1, v2] of Object.entries(SCALARS)) {
    if (v1 in prediction) fields[v2] = simple(asJson(prediction[v1])?.['value']);
  }
  const type = asJson(prediction['document_type'])?.['value'];
  if (typeof type === 'string') fields['document_type'] = simple(DOCUMENT_TYPES[type] ?? type.toLowerCase());
  for (const [name, whole] of [
    ['supplier_address', 'complete'],
    ['customer_address', 'value'],
  ] as const) {
    const address = asJson(prediction[name]);
    if (!address) continue;
    const subs: Json = {};
    for (const part of ADDRESS_PARTS) if (part in address) subs[part] = simple(address[part]);
    subs[whole] = simple(address['value']);
    fields[name] = { fields: subs };
  }
  const locale = asJson(prediction['locale']);
  if (locale) {
    fields['locale'] = {
      fields: {
        language: simple(locale['language']),
        country: simple(locale['country']),
        currency: simple(locale['currency']),
      },
    };
  }
  const list = (v: unknown): Json[] => (Array.isArray(v) ? v.map((i) => asJson(i) ?? {}) : []);
  if ('taxes' in prediction) {
    fields['taxes'] = {
      items: list(prediction['taxes']).map((t) => ({
        fields: {
          rate: simple(percentToFraction(t['rate'])),
          base: simple(t['base']),
          amount: simple(t['value']),
        },
      })),
    };
  }
  if ('line_items' in prediction) {
    fields['line_items'] = {
      items: list(prediction['line_items']).map((l) => ({
        fields: {
          description: simple(l['description']),
          product_code: simple(l['product_code']),
          quantity: simple(l['quantity']),
          unit_measure: simple(l['unit_measure']),
          unit_price: simple(l['unit_price']),
          tax_rate: simple(percentToFraction(l['tax_rate'])),
          tax_amount: simple(l['tax_amount']),
          total_price: simple(l['total_amount']),
        },
      })),
    };
  }
  if ('reference_numbers' in prediction) {
    fields['reference_numbers'] = {
      items: list(prediction['reference_numbers']).map((r) => simple(r['value'])),
    };
  }
  return { inference: { result: { fields } } };
}
