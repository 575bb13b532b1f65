import { useId } from 'react';
import type { TriState } from './enqueue-request';

interface Props {
  /** The parameter's name in the API: `raw_text`. */
  name: string;
  title: string;
  explanation: string;
  value: TriState;
  onChange: (value: TriState) => void;
}

const CHOICES: { value: TriState; label: string }[] = [
  { value: 'default', label: 'Default' },
  { value: 'on', label: 'On' },
  { value: 'off', label: 'Off' },
];

/**
 * An option that can be left to the model (not sent: the model's default applies), or set on or off
 * for these documents. Three radios, so "not sent" is a visible choice, not an unchecked box.
 */
export function TriStateOption({ name, title, explanation, value, onChange }: Props) {
  const describedBy = useId();
  return (
    <fieldset aria-describedby={describedBy} className="flex flex-col gap-1" data-option={name}>
      <legend className="text-sm font-medium">
        {title} <code className="ml-1 font-mono text-xs font-normal text-slate-600">{name}</code>
      </legend>
      <p id={describedBy} className="text-xs text-slate-600">
        {explanation}
      </p>
      <div className="mt-1 inline-flex w-fit overflow-hidden rounded-md border border-slate-300">
        {CHOICES.map((choice) => (
          <label
            key={choice.value}
            className="cursor-pointer border-r border-slate-300 px-3 py-1 text-sm last:border-r-0 has-checked:bg-blue-800 has-checked:text-white has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-blue-700"
          >
            <input
              type="radio"
              name={`option-${name}`}
              value={choice.value}
              checked={value === choice.value}
              onChange={() => onChange(choice.value)}
              className="sr-only"
            />
            {choice.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
