import { describe, expect, it } from 'vitest';
import {
  BusinessRules,
  StoredBusinessRules,
  type BusinessRuleInput,
} from '@extraction-review/contract/review/model-settings';
import { documentNodes } from './document-nodes';
import { evaluateRules } from './evaluate-rules';
import { resolve } from './field-values';
import {
  generatedInvoice,
  type GeneratedInvoice,
} from '@extraction-review/test-kit/invoices/generated-invoice';

function nodesOf(invoice: GeneratedInvoice, corrections: Record<string, unknown> = {}) {
  const read = documentNodes({
    apiVersion: 'v2',
    model: 'model-1',
    upstreamJobId: 'job-1',
    result: generatedInvoice(invoice),
    corrections,
  });
  if (!read.ok) throw new Error(read.problem.title);
  return read.nodes;
}

function failures(invoice: GeneratedInvoice, rules: BusinessRuleInput[], corrections = {}) {
  return evaluateRules(nodesOf(invoice, corrections), BusinessRules.parse(rules));
}

const SUM: BusinessRuleInput = {
  id: 'lines',
  kind: 'sum',
  list: 'line_items',
  item: 'total_price',
  equals: 'total_net',
  tolerance: 0.01,
};
const ADD: BusinessRuleInput = {
  id: 'totals',
  kind: 'add',
  terms: ['total_net', 'total_tax'],
  equals: 'total_amount',
  tolerance: 0.01,
};
const ORDER: BusinessRuleInput = { id: 'due', kind: 'date_order', earlier: 'date', later: 'due_date' };

describe('resolve', () => {
  it('finds fields, nested fields, list items and every item', () => {
    const nodes = nodesOf({ lines: [1, 2, 3] });
    expect(resolve(nodes, 'total_net').map((m) => [m.path, m.node?.kind])).toEqual([['total_net', 'simple']]);
    expect(resolve(nodes, 'supplier_address.city').map((m) => m.path)).toEqual(['supplier_address.city']);
    expect(resolve(nodes, 'line_items[1].total_price').map((m) => m.path)).toEqual([
      'line_items[1].total_price',
    ]);
    expect(resolve(nodes, 'line_items[*].total_price').map((m) => m.path)).toEqual([
      'line_items[0].total_price',
      'line_items[1].total_price',
      'line_items[2].total_price',
    ]);
  });

  it('names a field the document does not have, without a node', () => {
    const nodes = nodesOf({});
    expect(resolve(nodes, 'po_number')).toEqual([{ path: 'po_number', node: undefined }]);
    expect(resolve(nodes, 'supplier_address.street')).toEqual([
      { path: 'supplier_address.street', node: undefined },
    ]);
    expect(resolve(nodes, 'missing[*].x')).toEqual([{ path: 'missing[*].x', node: undefined }]);
    expect(resolve(nodes, 'line_items[7].total_price')).toEqual([]);
  });

  it('leaves removed items out and counts added ones', () => {
    const nodes = nodesOf({ lines: [1, 2] }, { '#removed': ['line_items[0]'], '#added': { line_items: 1 } });
    expect(resolve(nodes, 'line_items[*].total_price').map((m) => m.path)).toEqual([
      'line_items[1].total_price',
      'line_items[2].total_price',
    ]);
  });
});

describe('evaluateRules: required', () => {
  const rule: BusinessRuleInput = { id: 'number', kind: 'required', field: 'invoice_number' };

  it('passes a value that is there', () => {
    expect(failures({}, [rule])).toEqual([]);
  });

  it.each([
    ['null', null],
    ['empty', ''],
    ['spaces', '   '],
  ])('fails a %s value', (_, value) => {
    expect(failures({ invoiceNumber: value }, [rule])).toEqual([
      {
        ruleId: 'number',
        kind: 'required',
        message: 'invoice_number has no value',
        fields: ['invoice_number'],
      },
    ]);
  });

  it('fails a field the document does not have', () => {
    expect(failures({}, [{ id: 'po', kind: 'required', field: 'po_number' }])[0]?.message).toBe(
      'po_number has no value',
    );
  });

  it('reads the corrections: a value given by the operator passes, one emptied fails', () => {
    expect(failures({ invoiceNumber: null }, [rule], { invoice_number: 'INV-1' })).toEqual([]);
    expect(failures({}, [rule], { invoice_number: '' })).toHaveLength(1);
    expect(failures({ invoiceNumber: null }, [rule], { invoice_number: { $reverted: true } })).toHaveLength(
      1,
    );
  });

  it('checks every item of a list, naming each one missing', () => {
    const [failure] = failures({ lines: [1, null, null] }, [
      { id: 'prices', kind: 'required', field: 'line_items[*].total_price' },
    ]);
    expect(failure?.fields).toEqual(['line_items[1].total_price', 'line_items[2].total_price']);
    expect(failure?.message).toBe('line_items[1].total_price and line_items[2].total_price have no value');
  });

  it('takes an object with a value inside as present', () => {
    expect(failures({}, [{ id: 'a', kind: 'required', field: 'supplier_address' }])).toEqual([]);
    expect(
      failures({ supplierCity: null }, [{ id: 'a', kind: 'required', field: 'supplier_address' }]),
    ).toHaveLength(1);
  });
});

describe('evaluateRules: pattern', () => {
  const rule: BusinessRuleInput = {
    id: 'fmt',
    kind: 'pattern',
    field: 'invoice_number',
    pattern: '^INV-\\d{4}-\\d+$',
  };

  it('passes a matching value and a missing one', () => {
    expect(failures({}, [rule])).toEqual([]);
    expect(failures({ invoiceNumber: null }, [rule])).toEqual([]);
  });

  it('fails a value that does not match, quoting it', () => {
    expect(failures({ invoiceNumber: 'AB 12' }, [rule])).toEqual([
      {
        ruleId: 'fmt',
        kind: 'pattern',
        message: 'invoice_number "AB 12" does not match ^INV-\\d{4}-\\d+$',
        fields: ['invoice_number'],
      },
    ]);
  });

  it('finds the pattern anywhere unless anchored, and reads numbers as text', () => {
    expect(failures({ invoiceNumber: 'ref INV-7' }, [{ ...rule, pattern: 'INV-\\d' }])).toEqual([]);
    expect(
      failures({ total: 57 }, [{ id: 'p', kind: 'pattern', field: 'total_amount', pattern: '^\\d+$' }]),
    ).toEqual([]);
  });

  it('shortens a long value in the message', () => {
    const [failure] = failures({ invoiceNumber: 'x'.repeat(200) }, [rule]);
    expect(failure?.message.length).toBeLessThan(120);
  });

  it('answers a catastrophic-backtracking pattern on the 29-character value of issue 18 (RE2)', () => {
    const evil = { ...rule, pattern: String.raw`^([A-Za-z]+\s?)+$` };
    const value = `${'A'.repeat(28)}!`;
    const started = performance.now();
    expect(failures({ invoiceNumber: value }, [evil])).toEqual([
      expect.objectContaining({ ruleId: 'fmt', fields: ['invoice_number'] }),
    ]);
    expect(failures({ invoiceNumber: 'Abc Def' }, [evil])).toEqual([]);
    console.log(`[evaluate-rules] backtracking pattern: ${(performance.now() - started).toFixed(1)} ms`);
  });

  it('refuses to save a pattern RE2 cannot run, and fails one stored before, saying why', () => {
    const stored = { ...rule, pattern: String.raw`^(\d)\1$` };
    const saved = BusinessRules.safeParse([stored]);
    expect(saved.success).toBe(false);
    expect(saved.error?.issues[0]?.path).toEqual([0, 'pattern']);
    expect(saved.error?.issues[0]?.message).toMatch(/^Not a regular expression: backreferences/);
    const rules = StoredBusinessRules.parse([stored, { id: 'req', kind: 'required', field: 'date' }]);
    expect(evaluateRules(nodesOf({ invoiceNumber: '11', date: null }), rules)).toEqual([
      {
        ruleId: 'fmt',
        kind: 'pattern',
        message: expect.stringMatching(/^The pattern \^\(\\d\)\\1\$ is not valid: backreferences/) as string,
        fields: [],
      },
      expect.objectContaining({ ruleId: 'req' }),
    ]);
  });
});

describe('evaluateRules: date_range', () => {
  const rule: BusinessRuleInput = {
    id: 'recent',
    kind: 'date_range',
    field: 'date',
    min: '2024-01-01',
    max: '2024-12-31',
  };

  it.each([
    ['2024-01-01', []],
    ['2024-12-31', []],
    ['2024-06-30 10:00:00', []],
    ['2023-12-31', ['date 2023-12-31 is before 2024-01-01']],
    ['2025-01-01', ['date 2025-01-01 is after 2024-12-31']],
    ['14/03/2024', ['date "14/03/2024" is not a date (YYYY-MM-DD)']],
    ['2024-02-30', ['date "2024-02-30" is not a date (YYYY-MM-DD)']],
  ])('%s', (date, messages) => {
    expect(failures({ date }, [rule]).map((f) => f.message)).toEqual(messages);
  });

  it('takes one bound alone', () => {
    expect(
      failures({ date: '2000-01-01' }, [{ id: 'r', kind: 'date_range', field: 'date', max: '2024-01-01' }]),
    ).toEqual([]);
  });
});

describe('evaluateRules: one_of', () => {
  const rule: BusinessRuleInput = { id: 'cur', kind: 'one_of', field: 'currency', values: ['EUR', 'GBP'] };

  it('passes a listed value and a missing one, fails another', () => {
    expect(failures({}, [rule])).toEqual([]);
    expect(failures({ currency: ' GBP ' }, [rule])).toEqual([]);
    expect(failures({ currency: null }, [rule])).toEqual([]);
    expect(failures({ currency: 'USD' }, [rule]).map((f) => f.message)).toEqual([
      'currency "USD" is not one of EUR, GBP',
    ]);
    expect(failures({ currency: 'eur' }, [rule])).toHaveLength(1);
  });
});

describe('evaluateRules: sum', () => {
  it('passes line items that add up to the net total, within the tolerance', () => {
    expect(failures({}, [SUM])).toEqual([]);
    expect(failures({ lines: [0.1, 0.2], net: 0.3 }, [SUM])).toEqual([]);
    expect(failures({ lines: [10, 10], net: 20.01 }, [SUM])).toEqual([]);
  });

  it('fails when they do not, naming the amounts and every field', () => {
    expect(failures({ lines: [50, 54], net: 100 }, [SUM])).toEqual([
      {
        ruleId: 'lines',
        kind: 'sum',
        message: 'line_items[*].total_price add up to 104.00, not total_net 100.00 (tolerance 0.01)',
        fields: ['line_items[0].total_price', 'line_items[1].total_price', 'total_net'],
      },
    ]);
  });

  it('shows the tolerance’s decimals when finer than cents', () => {
    expect(failures({ lines: [1.0005], net: 1 }, [{ ...SUM, tolerance: 0.0001 }])[0]?.message).toBe(
      'line_items[*].total_price add up to 1.0005, not total_net 1.0000 (tolerance 0.0001)',
    );
  });

  it('reads the operator’s corrections: a fixed line makes it pass, a removed one counts no more', () => {
    const wrong = { lines: [25, 20, 3.5] };
    expect(failures(wrong, [SUM])).toHaveLength(1);
    expect(failures(wrong, [SUM], { 'line_items[2].total_price': '2.50' })).toEqual([]);
    expect(failures({ lines: [25, 20, 2.5, 99] }, [SUM], { '#removed': ['line_items[3]'] })).toEqual([]);
  });

  it('fails a line that is not a number, saying which', () => {
    expect(failures({}, [SUM], { 'line_items[1].total_price': '20,00' })).toEqual([
      {
        ruleId: 'lines',
        kind: 'sum',
        message: 'line_items[1].total_price "20,00" is not a number',
        fields: ['line_items[1].total_price'],
      },
    ]);
  });

  it('does not apply without lines or without a net total', () => {
    expect(failures({ lines: [] }, [SUM])).toEqual([]);
    expect(failures({ lines: [null, null] }, [SUM])).toEqual([]);
    expect(failures({ net: null }, [SUM])).toEqual([]);
  });

  it('skips lines without a value', () => {
    expect(failures({ lines: [25, null, 22.5] }, [SUM])).toEqual([]);
  });
});

describe('evaluateRules: add', () => {
  it('passes net plus tax equal to the total', () => {
    expect(failures({}, [ADD])).toEqual([]);
    expect(failures({ net: '47.50', tax: '9.50', total: '57' }, [ADD])).toEqual([]);
  });

  it('fails otherwise, with each term', () => {
    expect(failures({ total: 60 }, [ADD])).toEqual([
      {
        ruleId: 'totals',
        kind: 'add',
        message: 'total_net 47.50 + total_tax 9.50 = 57.00, not total_amount 60.00 (tolerance 0.01)',
        fields: ['total_net', 'total_tax', 'total_amount'],
      },
    ]);
  });

  it('respects a wider tolerance', () => {
    expect(failures({ total: 57.4 }, [{ ...ADD, tolerance: 0.5 }])).toEqual([]);
    expect(failures({ total: 57.6 }, [{ ...ADD, tolerance: 0.5 }])).toHaveLength(1);
  });

  it('does not apply when a term is missing; fails a term that is not a number', () => {
    expect(failures({ tax: null }, [ADD])).toEqual([]);
    expect(failures({ tax: 'n/a' }, [ADD]).map((f) => f.message)).toEqual([
      'total_tax "n/a" is not a number',
    ]);
  });
});

describe('evaluateRules: date_order', () => {
  it('passes a due date after the date, or on it', () => {
    expect(failures({}, [ORDER])).toEqual([]);
    expect(failures({ dueDate: '2024-03-14' }, [ORDER])).toEqual([]);
  });

  it('fails a due date before the date', () => {
    expect(failures({ dueDate: '2024-03-01' }, [ORDER])).toEqual([
      {
        ruleId: 'due',
        kind: 'date_order',
        message: 'due_date 2024-03-01 is before date 2024-03-14',
        fields: ['due_date', 'date'],
      },
    ]);
  });

  it('does not apply without both dates; fails one that is not a date', () => {
    expect(failures({ dueDate: null }, [ORDER])).toEqual([]);
    expect(failures({ dueDate: 'soon' }, [ORDER]).map((f) => f.message)).toEqual([
      'due_date "soon" is not a date (YYYY-MM-DD)',
    ]);
  });
});

describe('evaluateRules: several rules', () => {
  it('reports each failing rule once, in order', () => {
    const result = failures({ lines: [1], total: 1, dueDate: '2000-01-01', invoiceNumber: null }, [
      { id: 'number', kind: 'required', field: 'invoice_number' },
      SUM,
      ADD,
      ORDER,
    ]);
    expect(result.map((f) => f.ruleId)).toEqual(['number', 'lines', 'totals', 'due']);
  });

  it('reads a v1 invoice through the review’s adapter', () => {
    const read = documentNodes({
      apiVersion: 'v1',
      model: 'mindee/invoices/v4',
      upstreamJobId: null,
      result: {
        document: {
          id: 'doc-1',
          name: 'invoice.pdf',
          n_pages: 1,
          inference: {
            is_rotation_applied: true,
            started_at: '2024-03-14T10:00:00Z',
            finished_at: '2024-03-14T10:00:01Z',
            processing_time: 1,
            pages: [],
            prediction: {
              total_net: { value: 100, confidence: 0.99, polygon: [], page_id: 0 },
              total_tax: { value: 20, confidence: 0.99, polygon: [], page_id: 0 },
              total_amount: { value: 130, confidence: 0.5, polygon: [], page_id: 0 },
            },
            extras: {},
          },
        },
      },
    });
    if (!read.ok) throw new Error(JSON.stringify(read.problem));
    const [failure] = evaluateRules(read.nodes, BusinessRules.parse([ADD]));
    expect(failure?.message).toBe(
      'total_net 100.00 + total_tax 20.00 = 120.00, not total_amount 130.00 (tolerance 0.01)',
    );
  });
});
