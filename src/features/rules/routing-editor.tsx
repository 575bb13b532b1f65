import { useId } from 'react';
import type { FieldConfidence } from '@extraction-review/contract/v2/schemas';
import { FormField } from './form-field';
import type { SettingsDraft } from './rules-form';

interface Props {
  draft: SettingsDraft;
  apiVersion: 'v2' | 'v1';
  errorOf: (key: string) => string | undefined;
  onChange: (patch: Partial<SettingsDraft>) => void;
}

const LEVELS: FieldConfidence[] = ['Certain', 'High', 'Medium', 'Low'];

/** When a document sent by an integration goes to an operator rather than being confirmed on its own. */
export function RoutingEditor({ draft, apiVersion, errorOf, onChange }: Props) {
  const id = useId();
  const off = !draft.autoConfirm;
  return (
    <fieldset className="flex flex-col gap-3 rounded-md border border-slate-300 bg-white p-4">
      <legend className="px-1 text-base font-semibold">Routing</legend>
      <p className="text-sm text-slate-700">
        For documents sent by an integration (the app’s own uploads always go to an operator).
      </p>
      <Check
        id={`${id}-auto`}
        checked={draft.autoConfirm}
        onChange={(autoConfirm) => onChange({ autoConfirm })}
        label="Confirm documents automatically when no rule below sends them to review"
      />
      {off && <p className="text-sm text-slate-700">Off: every document goes to an operator.</p>}
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-level`} className="text-xs font-medium text-slate-800">
            Review a document when a value is below
          </label>
          <select
            id={`${id}-level`}
            value={draft.minConfidence}
            disabled={off}
            onChange={(e) => onChange({ minConfidence: e.target.value as FieldConfidence | '' })}
            className="rounded-md border border-slate-300 bg-white px-2 py-1 text-sm disabled:bg-slate-100"
          >
            <option value="">(any confidence)</option>
            {LEVELS.map((level) => (
              <option key={level} value={level}>
                {level}
              </option>
            ))}
          </select>
          <p className="text-xs text-slate-600">
            {apiVersion === 'v1' ? 'v1 scores are graded into these levels. ' : ''}A value with no confidence
            counts as below.
          </p>
        </div>
        <FormField
          label="Random sample (%)"
          type="number"
          value={draft.samplePercent}
          onChange={(samplePercent) => onChange({ samplePercent })}
          error={errorOf('routing.samplePercent')}
          hint="This share of documents goes to an operator anyway."
        />
        <FormField
          label="Required fields, one per line"
          multiline
          mono
          value={draft.requiredFields}
          onChange={(requiredFields) => onChange({ requiredFields })}
          error={errorOf('routing.requiredFields')}
          hint="A document without a value for one goes to an operator: total_net, line_items[*].description"
        />
        <div className="flex flex-col gap-2">
          <Check
            id={`${id}-rules`}
            checked={draft.onRuleFailure}
            onChange={(onRuleFailure) => onChange({ onRuleFailure })}
            label="Review a document whose business rule fails"
          />
          {apiVersion === 'v1' && (
            <Check
              id={`${id}-feedback`}
              checked={draft.feedbackEnabled}
              onChange={(feedbackEnabled) => onChange({ feedbackEnabled })}
              label="Send the corrections to the service as feedback when a document is confirmed"
            />
          )}
        </div>
      </div>
    </fieldset>
  );
}

function Check(props: { id: string; checked: boolean; onChange: (on: boolean) => void; label: string }) {
  return (
    <span className="flex items-start gap-2 text-sm">
      <input
        id={props.id}
        type="checkbox"
        checked={props.checked}
        onChange={(e) => props.onChange(e.target.checked)}
        className="mt-0.5 size-4 accent-blue-800"
      />
      <label htmlFor={props.id}>{props.label}</label>
    </span>
  );
}
