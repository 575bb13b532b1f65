import { describe, expect, it } from 'vitest';
import type { TimelineEntry } from '@extraction-review/contract/review/schemas';
import { describeEvent } from './describe-event';

const at = '2026-01-05T10:42:00.000Z';
const ada = { id: 'op-ada', name: 'Ada' };
const entry = (
  kind: string,
  data: TimelineEntry['data'] = null,
  actor: TimelineEntry['actor'] = ada,
): TimelineEntry => ({
  kind,
  at,
  actor,
  data,
});

describe('describeEvent', () => {
  it('tells an assignment: assigned to X by Y, unassigned, and a decision that ends it', () => {
    expect(
      describeEvent(entry('assigned', { to: 'op-alice', toName: 'Alice', from: null, bulk: true })),
    ).toEqual({
      who: 'Ada',
      what: 'Assigned it to Alice',
    });
    expect(describeEvent(entry('assigned', { to: 'op-bob', toName: 'Bob', fromName: 'Alice' })).what).toBe(
      'Assigned it to Bob (was Alice)',
    );
    expect(describeEvent(entry('unassigned', { from: 'op-bob', fromName: 'Bob' })).what).toBe(
      'Unassigned it from Bob: back to the team',
    );
    expect(describeEvent(entry('unassigned', { fromName: 'Dan', why: 'operator_left' })).what).toBe(
      'Unassigned it from Dan, who left the team: back to the team',
    );
    expect(describeEvent(entry('confirmed', { assignedTo: 'op-alice', assignedToName: 'Alice' })).what).toBe(
      'Confirmed it (assigned to Alice: the assignment ends)',
    );
  });

  it('tells a correction as field: before → after, reverts and list edits included', () => {
    // The field by its title (the path made human outside a review), its path kept for the hover.
    expect(describeEvent(entry('corrected', { field: 'total', before: null, after: 12.5 }))).toEqual({
      who: 'Ada',
      what: 'Total: (as extracted) → 12.5',
      path: 'total',
    });
    expect(
      describeEvent(entry('corrected', { field: 'total', before: 12.5, after: { $reverted: true } })).what,
    ).toBe('Total: 12.5 → (as extracted)');
    expect(describeEvent(entry('corrected', { field: 'note', before: 'x', after: null })).what).toBe(
      'Note: x → (no value)',
    );
    expect(
      describeEvent(entry('corrected', { field: '#removed', before: null, after: ['line_items[1]'] })).what,
    ).toBe('Items removed: (none) → Line item 2');
    expect(
      describeEvent(entry('corrected', { field: '#added', before: { l: 1 }, after: { l: 2 } })).what,
    ).toBe('Items added: L: 1 → L: 2');
  });

  it("names the fields by the review's titles (the data schema's) when given", () => {
    const titleOf = (path: string) => ({ total: 'Total Amount', 'line_items[1]': 'Line 2' })[path] ?? path;
    expect(
      describeEvent(entry('corrected', { field: 'total', before: null, after: 12.5 }), titleOf).what,
    ).toBe('Total Amount: (as extracted) → 12.5');
    expect(
      describeEvent(
        entry('corrected', { field: '#removed', before: null, after: ['line_items[1]'] }),
        titleOf,
      ).what,
    ).toBe('Items removed: (none) → Line 2');
    expect(
      describeEvent(
        entry('corrected', {
          field: '#locations',
          before: null,
          after: { total: [{ page: 0, polygon: [] }] },
        }),
        titleOf,
      ).what,
    ).toBe('Picked on the page: (none) → Total Amount (p. 1)');
  });

  it('names decisions with their reason, and who did it', () => {
    expect(describeEvent(entry('rejected', { reason: 'Not an invoice' }))).toEqual({
      who: 'Ada',
      what: 'Rejected it: Not an invoice',
    });
    expect(describeEvent(entry('postponed')).what).toBe('Postponed it');
    expect(describeEvent(entry('extracted', null, null)).who).toBe('The app server');
    expect(describeEvent(entry('some_new_kind')).what).toBe('some new kind');
  });
});

describe('what is sent back', () => {
  it('names the fields of feedback and RAG sends, and imports', () => {
    const at = '2026-11-24T09:00:00.000Z';
    const actor = { id: 'a', name: 'Ada' };
    expect(
      describeEvent({
        kind: 'feedback_sent',
        at,
        actor,
        data: { method: 'PATCH', fields: ['total', 'date'] },
      }),
    ).toEqual({ who: 'Ada', what: 'Sent feedback to the service (Total, Date)' });
    expect(describeEvent({ kind: 'sent_to_rag', at, actor, data: { fields: [] } })).toEqual({
      who: 'Ada',
      what: 'Sent the corrected values to RAG',
    });
    expect(describeEvent({ kind: 'imported', at, actor, data: null }).what).toMatch(/Imported/);
    expect(describeEvent({ kind: 'prioritised', at, actor, data: { from: 0, to: 5 } }).what).toBe(
      'Set its priority from 0 to 5',
    );
  });
});

describe('describeEvent: routing and business rules', () => {
  it('tells an automatic confirmation with what it passed, by the app server', () => {
    expect(
      describeEvent(
        entry(
          'auto_confirmed',
          { reasons: ['Every value at High confidence or above', 'The business rule passes'] },
          null,
        ),
      ),
    ).toEqual({
      who: 'The app server',
      what: 'Confirmed automatically by the routing rules: Every value at High confidence or above; The business rule passes',
    });
  });

  it('tells why a document was sent to review', () => {
    expect(
      describeEvent(entry('routed_to_review', { reasons: ['Drawn for the 5 % random sample'] }, null)).what,
    ).toBe('Sent to review: Drawn for the 5 % random sample');
    expect(describeEvent(entry('routed_to_review', { reasons: 'not a list' }, null)).what).toBe(
      'Sent to review',
    );
  });

  it('tells a confirmation over failing rules with its reason and the rules', () => {
    expect(
      describeEvent(
        entry('confirmed', {
          override: 'The supplier rounds each line',
          failing: [
            { ruleId: 'lines', message: 'line_items[*].total_price add up to 104.00, not total_net 100.00' },
          ],
        }),
      ),
    ).toEqual({
      who: 'Ada',
      what: 'Confirmed it although a business rule fails. Reason: The supplier rounds each line (lines: line_items[*].total_price add up to 104.00, not total_net 100.00)',
    });
    // The fields a kept failure names, by their titles.
    expect(
      describeEvent(
        entry('confirmed', {
          override: 'Old numbering',
          failing: [
            {
              ruleId: 'fmt',
              message: 'invoice_number "A-1" does not match ^INV-',
              fields: ['invoice_number'],
            },
          ],
        }),
      ).what,
    ).toBe(
      'Confirmed it although a business rule fails. Reason: Old numbering (fmt: Invoice number "A-1" does not match ^INV-)',
    );
    expect(describeEvent(entry('confirmed', { override: 'ok', failing: [{}, 'x'] })).what).toBe(
      'Confirmed it although business rules fail. Reason: ok',
    );
  });

  it('tells the unchecked values a confirmation kept, and whether the operator was asked', () => {
    expect(describeEvent(entry('confirmed', { unchecked: 3, uncheckedConfirmed: 3 })).what).toBe(
      'Confirmed it, with 3 values not checked (asked, and confirmed anyway)',
    );
    expect(describeEvent(entry('confirmed', { unchecked: 1 })).what).toBe(
      'Confirmed it, with 1 value not checked',
    );
    expect(describeEvent(entry('confirmed', { unchecked: 0 })).what).toBe('Confirmed it');
    expect(
      describeEvent(entry('confirmed', { override: 'ok', failing: [], unchecked: 2, uncheckedConfirmed: 2 }))
        .what,
    ).toBe(
      'Confirmed it although business rules fail. Reason: ok, with 2 values not checked (asked, and confirmed anyway)',
    );
  });
});
