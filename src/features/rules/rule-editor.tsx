import { useId } from 'react';
import type { RuleKind } from '@extraction-review/contract/review/model-settings';
import { Button } from '../../components/ui/button';
import { FormField } from './form-field';
import { KIND_LABELS, type RuleDraft } from './rules-form';

interface Props {
  rule: RuleDraft;
  index: number;
  /** The error of an input, by its key under this rule (`pattern`), when it is to be shown. */
  errorOf: (name: string) => string | undefined;
  onChange: (rule: RuleDraft) => void;
  onRemove: () => void;
  /** The `<datalist>`s of the model's field paths and of its lists' item fields, to offer as typed. */
  suggestions?: { paths: string; itemFields: string } | undefined;
}

const PATH_HINT = 'A field path: total_amount, supplier_address.city, line_items[*].description';

/** One business rule: its kind, its id, and the inputs its kind takes, each with its message. */
export function RuleEditor({ rule, index, errorOf, onChange, onRemove, suggestions }: Props) {
  const paths = { suggestions: suggestions?.paths };
  const kindId = useId();
  const set = (patch: Partial<RuleDraft>) => onChange({ ...rule, ...patch });
  const field = (
    name: keyof RuleDraft,
    label: string,
    extra: Partial<Parameters<typeof FormField>[0]> = {},
  ) => (
    <FormField
      label={label}
      value={rule[name]}
      onChange={(value) => set({ [name]: value })}
      error={errorOf(name)}
      mono
      {...extra}
    />
  );
  return (
    <fieldset className="flex flex-col gap-3 rounded-md border border-slate-300 bg-white p-3">
      <legend className="px-1 text-sm font-semibold">
        Rule {index + 1}: {KIND_LABELS[rule.kind]}
      </legend>
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        <div className="flex flex-col gap-1">
          <label htmlFor={kindId} className="text-xs font-medium text-slate-800">
            Kind
          </label>
          <select
            id={kindId}
            value={rule.kind}
            onChange={(e) => set({ kind: e.target.value as RuleKind })}
            className="rounded-md border border-slate-300 bg-white px-2 py-1 text-sm"
          >
            {Object.entries(KIND_LABELS).map(([kind, label]) => (
              <option key={kind} value={kind}>
                {label}
              </option>
            ))}
          </select>
        </div>
        {field('id', 'Rule id', { hint: 'Named in the review and the history.' })}
      </div>
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        {(rule.kind === 'required' ||
          rule.kind === 'pattern' ||
          rule.kind === 'date_range' ||
          rule.kind === 'one_of') &&
          field('field', 'Field', { hint: PATH_HINT, ...paths })}
        {rule.kind === 'pattern' &&
          field('pattern', 'Regular expression', {
            hint: 'JavaScript syntax; found anywhere in the value unless anchored: ^INV-\\d+$',
          })}
        {rule.kind === 'date_range' && (
          <>
            {field('min', 'First date (optional)', { type: 'date' })}
            {field('max', 'Last date (optional)', { type: 'date' })}
          </>
        )}
        {rule.kind === 'one_of' && field('values', 'Allowed values, one per line', { multiline: true })}
        {rule.kind === 'sum' && (
          <>
            {field('list', 'List', { hint: 'line_items', ...paths })}
            {field('item', 'Field of each item', {
              hint: 'total_price',
              suggestions: suggestions?.itemFields,
            })}
          </>
        )}
        {rule.kind === 'add' && field('terms', 'Fields to add', { hint: 'total_net + total_tax' })}
        {(rule.kind === 'sum' || rule.kind === 'add') && (
          <>
            {field('equals', 'Must equal', {
              hint: rule.kind === 'sum' ? 'total_net' : 'total_amount',
              ...paths,
            })}
            {field('tolerance', 'Tolerance', { type: 'number', hint: 'How far apart they may be: 0.01' })}
          </>
        )}
        {rule.kind === 'date_order' && (
          <>
            {field('earlier', 'Earlier date', { hint: 'date', ...paths })}
            {field('later', 'Not before it', { hint: 'due_date', ...paths })}
          </>
        )}
      </div>
      {errorOf('') !== undefined && <p className="text-xs font-medium text-red-800">{errorOf('')}</p>}
      <Button
        variant="ghost"
        className="self-start"
        onClick={onRemove}
        aria-label={`Remove rule ${rule.id || String(index + 1)}`}
      >
        Remove this rule
      </Button>
    </fieldset>
  );
}
