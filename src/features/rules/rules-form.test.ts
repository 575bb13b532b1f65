import { describe, expect, it } from 'vitest';
import { ModelSettings } from '@extraction-review/contract/review/model-settings';
import {
  checkDraft,
  draftFromSettings,
  keyOfPointer,
  newRule,
  reasonDraft,
  type SettingsDraft,
} from './rules-form';

const settings = ModelSettings.parse({
  apiVersion: 'v2',
  model: 'm',
  version: 3,
  routing: {
    autoConfirm: true,
    minConfidence: 'Medium',
    requiredFields: ['total_net', 'date'],
    samplePercent: 5,
  },
  rules: [
    { id: 'a', kind: 'required', field: 'total_net' },
    { id: 'b', kind: 'pattern', field: 'invoice_number', pattern: '^INV' },
    { id: 'c', kind: 'date_range', field: 'date', max: '2030-01-01' },
    { id: 'd', kind: 'one_of', field: 'currency', values: ['EUR', 'GBP'] },
    { id: 'e', kind: 'sum', list: 'line_items', item: 'total_price', equals: 'total_net', tolerance: 0.05 },
    { id: 'f', kind: 'add', terms: ['total_net', 'total_tax'], equals: 'total_amount' },
    { id: 'g', kind: 'date_order', earlier: 'date', later: 'due_date' },
  ],
  feedbackEnabled: false,
  reasons: {
    reject: ['Unreadable', 'Duplicate'],
    postpone: [],
    override: ['Checked against the paper original'],
  },
  updatedAt: null,
  updatedBy: null,
});

describe('the rules form', () => {
  it('gives back the settings it was filled with', () => {
    const checked = checkDraft(draftFromSettings(settings), 3);
    expect(checked).toEqual({
      ok: true,
      request: {
        version: 3,
        routing: settings.routing,
        rules: settings.rules,
        feedbackEnabled: false,
        reasons: settings.reasons,
        retention: { filesAfterDays: null, documentsAfterDays: null },
      },
    });
  });

  it('says what is wrong, input by input, as typed', () => {
    const draft: SettingsDraft = draftFromSettings(settings);
    const [a, b, c, d, e] = draft.rules;
    if (!a || !b || !c || !d || !e) throw new Error('rules');
    const checked = checkDraft(
      {
        ...draft,
        samplePercent: '120',
        requiredFields: 'total_net\nline items',
        rules: [
          { ...a, field: '' },
          { ...b, pattern: '(INV' },
          { ...c, min: '2031-01-01' },
          { ...d, id: 'a', values: '' },
          { ...e, tolerance: 'x' },
        ],
      },
      3,
    );
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(Object.fromEntries(checked.errors)).toEqual({
      'routing.samplePercent': 'From 0 to 100',
      'routing.requiredFields': expect.stringMatching(/^A field path/),
      'rules.0.field': 'Name a field',
      'rules.1.pattern': expect.stringMatching(/^Not a regular expression: /),
      'rules.2.max': 'The last date comes before the first',
      'rules.3.values': 'Give at least one allowed value',
      'rules.3.id': 'Another rule is called a',
      'rules.4.tolerance': 'A tolerance is a number',
    });
  });

  it('says which reason is empty, too long or offered twice, by its place', () => {
    const draft = draftFromSettings(settings);
    const [unreadable, duplicate] = draft.reasons.reject;
    const [paper] = draft.reasons.override;
    if (!unreadable || !duplicate || !paper) throw new Error('reasons');
    const checked = checkDraft(
      {
        ...draft,
        reasons: {
          reject: [unreadable, { ...duplicate, text: ' UNREADABLE ' }],
          postpone: [reasonDraft('   ')],
          override: [{ ...paper, text: 'x'.repeat(201) }],
        },
      },
      3,
    );
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(Object.fromEntries(checked.errors)).toEqual({
      'reasons.reject.1': 'The same reason is offered above',
      'reasons.postpone.0': 'A reason cannot be empty',
      'reasons.override.0': 'At most 200 characters',
    });
    expect(keyOfPointer('#/reasons/postpone/0')).toBe('reasons.postpone.0');
  });

  it('makes new rules with free ids and the usual invoice fields', () => {
    const sum = newRule('sum', ['sum-1']);
    expect(sum).toMatchObject({ id: 'sum-2', list: 'line_items', item: 'total_price', equals: 'total_net' });
    expect(newRule('date_range', []).id).toBe('date-range-1');
    const draft = { ...draftFromSettings(settings), rules: [newRule('add', []), newRule('date_order', [])] };
    expect(checkDraft(draft, 3).ok).toBe(true);
  });

  it('puts a server’s pointer under the form’s key', () => {
    expect(keyOfPointer('#/rules/2/pattern')).toBe('rules.2.pattern');
    expect(keyOfPointer('#/routing/requiredFields/1')).toBe('routing.requiredFields');
    expect(keyOfPointer(null)).toBeNull();
  });
});
