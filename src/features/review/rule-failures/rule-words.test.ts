import { describe, expect, it } from 'vitest';
import { titleFromPath } from '@extraction-review/review-domain/fields/review-tree';
import { ruleMessageInWords } from './rule-words';

describe('ruleMessageInWords', () => {
  it("names the rule's fields by their titles", () => {
    expect(
      ruleMessageInWords(
        {
          message: 'due_date 2024-01-01 is before invoice_date 2024-02-01',
          fields: ['invoice_date', 'due_date'],
        },
        titleFromPath,
      ),
    ).toBe('Due date 2024-01-01 is before Invoice date 2024-02-01');
  });

  it('leaves quoted values and longer paths as they are', () => {
    expect(
      ruleMessageInWords(
        { message: 'invoice_number "invoice_number-1" does not match ^INV-', fields: ['invoice_number'] },
        titleFromPath,
      ),
    ).toBe('Invoice number "invoice_number-1" does not match ^INV-');
    expect(
      ruleMessageInWords(
        {
          message: 'line_items[0].amount "x" is not a number; line_items[0] is odd; line_items[0].amountx',
          fields: ['line_items[0].amount', 'line_items[0]'],
        },
        (path) => `<${path}>`,
      ),
    ).toBe('<line_items[0].amount> "x" is not a number; <line_items[0]> is odd; line_items[0].amountx');
  });

  it('says a message about no field as it is', () => {
    expect(ruleMessageInWords({ message: 'The pattern ( is not valid', fields: [] }, titleFromPath)).toBe(
      'The pattern ( is not valid',
    );
  });
});
