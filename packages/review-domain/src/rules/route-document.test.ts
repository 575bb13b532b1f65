import { describe, expect, it } from 'vitest';
import {
  BusinessRules,
  RoutingRules,
  type BusinessRuleInput,
} from '@extraction-review/contract/review/model-settings';
import { documentNodes } from './document-nodes';
import { routeDocument } from './route-document';
import {
  generatedInvoice,
  type GeneratedInvoice,
} from '@extraction-review/test-kit/invoices/generated-invoice';

function nodesOf(invoice: GeneratedInvoice) {
  const read = documentNodes({
    apiVersion: 'v2',
    model: 'm',
    upstreamJobId: null,
    result: generatedInvoice(invoice),
  });
  if (!read.ok) throw new Error(read.problem.title);
  return read.nodes;
}

const AUTO = RoutingRules.parse({ autoConfirm: true, minConfidence: null, onRuleFailure: true });
const SUM: BusinessRuleInput = {
  id: 'lines',
  kind: 'sum',
  list: 'line_items',
  item: 'total_price',
  equals: 'total_net',
};
const never = () => 0.999;

function route(
  invoice: GeneratedInvoice,
  routing: Partial<RoutingRules>,
  rules: BusinessRuleInput[] = [],
  random = never,
) {
  return routeDocument(nodesOf(invoice), { ...AUTO, ...routing }, BusinessRules.parse(rules), random);
}

describe('routeDocument', () => {
  it('sends everything to review while automatic confirmation is off (the default)', () => {
    const decision = routeDocument(nodesOf({}), RoutingRules.parse({}), [], never);
    expect(decision).toEqual({
      review: true,
      reasons: ['Automatic confirmation is off for this model'],
      failures: [],
    });
  });

  it('confirms a document nothing sends to review, saying so', () => {
    expect(route({}, {})).toEqual({
      review: false,
      reasons: ['No routing rule sends it to review'],
      failures: [],
    });
  });

  it('sends a value below the confidence level to review, naming it', () => {
    const decision = route(
      { confidenceOf: { total_amount: 'Medium', date: null } },
      { minConfidence: 'High' },
    );
    expect(decision.review).toBe(true);
    expect(decision.reasons).toEqual([
      '2 values below High confidence: date (no confidence), total_amount (Medium)',
    ]);
  });

  it('names five values below the level, and counts the rest', () => {
    const decision = route({ confidence: 'Low' }, { minConfidence: 'Medium' });
    expect(decision.reasons[0]).toMatch(
      /^14 values below Medium confidence: invoice_number \(Low\), .*, and 9 more$/,
    );
  });

  it('confirms values at the level or above; a missing value is not below it', () => {
    const decision = route(
      { confidence: 'High', dueDate: null, confidenceOf: { due_date: 'Low' } },
      { minConfidence: 'High' },
    );
    expect(decision).toMatchObject({ review: false, reasons: ['Every value at High confidence or above'] });
    expect(route({ confidence: 'Certain' }, { minConfidence: 'Certain' }).review).toBe(false);
    expect(route({ confidence: 'High' }, { minConfidence: 'Certain' }).review).toBe(true);
  });

  it('sends a document without a required field to review', () => {
    expect(route({ net: null }, { requiredFields: ['total_net', 'date'] })).toMatchObject({
      review: true,
      reasons: ['No value for total_net'],
    });
    expect(route({}, { requiredFields: ['total_net', 'date'] })).toMatchObject({
      review: false,
      reasons: ['A value for total_net, date'],
    });
    expect(route({ lines: [1, null] }, { requiredFields: ['line_items[*].total_price'] }).reasons).toEqual([
      'No value for line_items[1].total_price',
    ]);
  });

  it('sends a document that fails a business rule to review; one that passes is confirmed', () => {
    const failing = route({ lines: [50, 54], net: 100 }, {}, [SUM]);
    expect(failing.review).toBe(true);
    expect(failing.reasons).toEqual([
      'Rule lines fails: line_items[*].total_price add up to 104.00, not total_net 100.00 (tolerance 0.01)',
    ]);
    expect(failing.failures.map((f) => f.ruleId)).toEqual(['lines']);
    expect(route({}, {}, [SUM])).toMatchObject({ review: false, reasons: ['The business rule passes'] });
  });

  it('lets a failing rule through when the routing does not look at rules (still reporting it)', () => {
    const decision = route({ lines: [50, 54], net: 100 }, { onRuleFailure: false }, [SUM]);
    expect(decision.review).toBe(false);
    expect(decision.failures).toHaveLength(1);
  });

  it('draws the random sample with the caller’s numbers', () => {
    expect(route({}, { samplePercent: 10 }, [], () => 0.05)).toMatchObject({
      review: true,
      reasons: ['Drawn for the 10 % random sample'],
    });
    expect(route({}, { samplePercent: 10 }, [], () => 0.1)).toMatchObject({
      review: false,
      reasons: ['Not drawn for the 10 % random sample'],
    });
    expect(route({}, { samplePercent: 100 }, [], () => 0.9999).review).toBe(true);
    expect(route({}, { samplePercent: 0 }, [], () => 0).review).toBe(false);
  });

  it('samples about the share asked for', () => {
    let seed = 42;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const nodes = nodesOf({});
    const reviewed = Array.from({ length: 2000 }, () =>
      routeDocument(nodes, { ...AUTO, samplePercent: 25 }, [], random),
    ).filter((d) => d.review).length;
    expect(reviewed).toBeGreaterThan(400);
    expect(reviewed).toBeLessThan(600);
  });

  it('gives every reason when several send it to review', () => {
    const decision = route(
      { net: null, confidenceOf: { total_amount: 'Low' }, dueDate: '2000-01-01' },
      { minConfidence: 'High', requiredFields: ['total_net'], samplePercent: 50 },
      [{ id: 'due', kind: 'date_order', earlier: 'date', later: 'due_date' }],
      () => 0,
    );
    expect(decision.reasons).toEqual([
      '1 value below High confidence: total_amount (Low)',
      'No value for total_net',
      'Rule due fails: due_date 2000-01-01 is before date 2024-03-14',
      'Drawn for the 50 % random sample',
    ]);
  });
});
