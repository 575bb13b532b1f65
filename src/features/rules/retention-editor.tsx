import { FormField } from './form-field';
import type { SettingsDraft } from './rules-form';

interface Props {
  draft: SettingsDraft;
  /** The error of an input, by its key (`retention.filesAfterDays`). */
  errorOf: (key: string) => string | undefined;
  onChange: (patch: Partial<SettingsDraft>) => void;
}

/**
 * How long this model's decided documents are kept (issue 22): the file so many days after the
 * decision, the whole document so many days after it (a tombstone without personal data stays).
 * Empty: kept for ever. Saved with the rest of the settings; the background purge applies it to
 * confirmed and rejected documents only.
 */
export function RetentionEditor({ draft, errorOf, onChange }: Props) {
  return (
    <fieldset className="flex flex-col gap-3 rounded-md border border-slate-300 bg-white p-4">
      <legend className="px-1 text-base font-semibold">Retention</legend>
      <p className="text-sm text-slate-700">
        Days are counted from the decision, for confirmed and rejected documents only: waiting, held and
        postponed ones are never removed. Leave a box empty to keep for ever.
      </p>
      <div className="flex flex-wrap gap-4">
        <FormField
          label="Remove the file after (days)"
          type="number"
          className="w-72"
          value={draft.filesAfterDays}
          onChange={(filesAfterDays) => onChange({ filesAfterDays })}
          error={errorOf('retention.filesAfterDays')}
          hint="The values, corrections and history stay; the review says the file was removed."
        />
        <FormField
          label="Delete the document after (days)"
          type="number"
          className="w-72"
          value={draft.documentsAfterDays}
          onChange={(documentsAfterDays) => onChange({ documentsAfterDays })}
          error={errorOf('retention.documentsAfterDays')}
          hint="Everything goes; the audit log keeps that it was deleted, without its name or values."
        />
      </div>
    </fieldset>
  );
}
