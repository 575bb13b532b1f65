import { describe, expect, it } from 'vitest';
import { v1ProductName } from './model-name';

describe('v1 product names', () => {
  it('reads a product as words and its version, the account only when it is not mindee', () => {
    expect(v1ProductName('mindee/expense_receipts/v5')).toBe('Expense receipts v5');
    expect(v1ProductName('acme/purchase_orders/v2')).toBe('Purchase orders v2 (acme)');
    expect(v1ProductName('odd')).toBe('odd');
  });
});
