/**
 * Where the data-schema editor starts: the model's own schema when the app server can give it, else
 * this invoice schema, a small and sensible one to edit rather than a blank page. Titles, descriptions
 * and quoted labels in the guidelines steer the extraction (docs/reference-fields.md).
 */
import type { ModelSchemaField, ModelSchemaSubField } from '../../api/v2/model-schema';
import type { FieldSchema, SubFieldSchema } from '@extraction-review/contract/v2/request-schemas';

export const INVOICE_TEMPLATE: FieldSchema[] = [
  {
    name: 'invoice_number',
    title: 'Invoice Number',
    type: 'string',
    is_array: false,
    description: 'The identifier of the invoice, as printed by the supplier.',
    guidelines: 'Labelled "Invoice number", "Invoice No." or "Invoice #".',
  },
  {
    name: 'date',
    title: 'Date',
    type: 'date',
    is_array: false,
    description: 'The date the invoice was issued.',
    guidelines: 'Labelled "Date", "Invoice date" or "Issue date". Answer YYYY-MM-DD.',
  },
  {
    name: 'due_date',
    title: 'Due Date',
    type: 'date',
    is_array: false,
    description: 'The date by which the invoice must be paid.',
    guidelines: 'Labelled "Due date", "Payment due" or "Pay by". Answer YYYY-MM-DD.',
  },
  {
    name: 'supplier_name',
    title: 'Supplier Name',
    type: 'string',
    is_array: false,
    description: 'The company that issued the invoice.',
    guidelines: 'Labelled "Supplier", "Vendor" or "From"; otherwise the name at the top of the document.',
  },
  {
    name: 'customer_name',
    title: 'Customer Name',
    type: 'string',
    is_array: false,
    description: 'The customer billed.',
    guidelines: 'Labelled "Customer", "Bill to" or "Billed to".',
  },
  {
    name: 'total_amount',
    title: 'Total Amount',
    type: 'number',
    is_array: false,
    description: 'The total to pay, taxes included.',
    guidelines: 'Labelled "Total", "Total due", "Amount due" or "Grand total".',
  },
  {
    name: 'total_tax',
    title: 'Total Tax',
    type: 'number',
    is_array: false,
    description: 'The total of the taxes.',
    guidelines: 'Labelled "Tax", "Total tax", "VAT" or "Sales tax".',
  },
  {
    name: 'line_items',
    title: 'Line Items',
    type: 'nested_object',
    is_array: true,
    description: 'The items billed, one per row of the items table.',
    nested_fields: [
      {
        name: 'description',
        title: 'Description',
        type: 'string',
        is_array: false,
        description: 'What the item is.',
      },
      {
        name: 'quantity',
        title: 'Quantity',
        type: 'number',
        is_array: false,
        description: 'How many units.',
      },
      {
        name: 'unit_price',
        title: 'Unit Price',
        type: 'number',
        is_array: false,
        description: 'The price of one unit.',
      },
      {
        name: 'total_price',
        title: 'Total Price',
        type: 'number',
        is_array: false,
        description: 'The total of the row.',
      },
    ],
  },
];

/** The editor's text for a list of fields: the `data_schema` parameter, indented for reading. */
export function schemaText(fields: readonly FieldSchema[]): string {
  return JSON.stringify({ replace: { fields } }, null, 2);
}

function toSubField(field: ModelSchemaSubField): SubFieldSchema {
  return {
    name: field.name,
    title: field.title,
    // Checked by the editor: a type this app does not know is pointed out there.
    type: field.type as SubFieldSchema['type'],
    is_array: field.is_array,
    ...(field.unique_values ? { unique_values: true } : {}),
    description: field.description,
    ...(field.guidelines !== null ? { guidelines: field.guidelines } : {}),
    ...(field.classification_values.length > 0 ? { classification_values: field.classification_values } : {}),
  };
}

/** A model's schema as the service reports it (model-schema.ts), in the request's strict shape. */
export function fromModelSchema(fields: readonly ModelSchemaField[]): FieldSchema[] {
  return fields.map((field) => ({
    ...toSubField(field),
    type: field.type as FieldSchema['type'],
    ...(field.nested_fields.length > 0 ? { nested_fields: field.nested_fields.map(toSubField) } : {}),
  }));
}
