import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { ProblemDetailsError } from '../../api/errors';
import { reviewKeys } from '../../api/keys';
import type { ModelSettings, RuleKind } from '@extraction-review/contract/review/model-settings';
import { putModelSettings } from '../../api/review/model-settings-endpoints';
import { ProblemAlert } from '../../components/problem-alert';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { ReasonsEditor } from './reasons-editor';
import { RetentionEditor } from './retention-editor';
import { RoutingEditor } from './routing-editor';
import { RuleEditor } from './rule-editor';
import {
  checkDraft,
  draftFromSettings,
  KIND_LABELS,
  keyOfPointer,
  newRule,
  type SettingsDraft,
} from './rules-form';
import { itemFieldNames, modelFieldsQueryOptions } from './model-fields';

interface Props {
  settings: ModelSettings;
  onSaved: (saved: ModelSettings) => void;
  /** Another admin saved first: read the settings again (this form starts over from them). */
  onReload: () => void;
}

/**
 * A model's routing, business rules and the reasons its review offers, checked as they are typed (the server's own schema, a message
 * beside each input), saved on the version read. A save refused because another admin saved first
 * shows the server's problem and offers their settings.
 */
export function SettingsForm({ settings, onSaved, onReload }: Props) {
  const queryClient = useQueryClient();
  const form = useRef<HTMLFormElement>(null);
  const [draft, setDraft] = useState<SettingsDraft>(() => draftFromSettings(settings));
  const [blocked, setBlocked] = useState(false);
  const [adding, setAdding] = useState<RuleKind>('required');
  const checked = useMemo(() => checkDraft(draft, settings.version), [draft, settings.version]);
  const fields = useQuery(modelFieldsQueryOptions(settings.apiVersion, settings.model));
  const listIds = { paths: useId(), itemFields: useId() };

  const save = useMutation({
    mutationFn: () => {
      if (!checked.ok) throw new Error('not valid');
      return putModelSettings(settings.apiVersion, settings.model, checked.request);
    },
    onSuccess: (saved) => {
      queryClient.setQueryData(reviewKeys.modelSettings(saved.apiVersion, saved.model), saved);
      void queryClient.invalidateQueries({ queryKey: reviewKeys.models(), exact: true });
      onSaved(saved);
    },
  });
  const stale = save.error instanceof ProblemDetailsError && save.error.code === '409-001';
  // The server's word on an input (an unknown field, 422-015), beside it until the draft changes.
  const serverErrors = useMemo(() => {
    const found = new Map<string, string>();
    if (save.error instanceof ProblemDetailsError)
      for (const item of save.error.errors) {
        const key = keyOfPointer(item.pointer);
        if (key !== null && !found.has(key)) found.set(key, item.detail);
      }
    return found;
  }, [save.error]);
  const errorOf = (key: string) =>
    (checked.ok ? undefined : checked.errors.get(key)) ?? serverErrors.get(key);
  const change = (patch: Partial<SettingsDraft>) => {
    setBlocked(false);
    save.reset();
    setDraft((d) => ({ ...d, ...patch }));
  };
  const known = fields.data?.fields ?? [];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!checked.ok) {
      setBlocked(true);
      form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
      return;
    }
    save.mutate();
  };

  return (
    <form ref={form} onSubmit={submit} noValidate className="flex flex-col gap-4">
      {/* The model's fields, offered by the path inputs as they are typed. */}
      <datalist id={listIds.paths}>
        {known.map((field) => (
          <option key={field.path} value={field.path}>
            {field.title}
          </option>
        ))}
      </datalist>
      <datalist id={listIds.itemFields}>
        {itemFieldNames(known.map((field) => field.path)).map((name) => (
          <option key={name} value={name} />
        ))}
      </datalist>
      <RoutingEditor draft={draft} apiVersion={settings.apiVersion} errorOf={errorOf} onChange={change} />
      <section aria-labelledby="rules-heading" className="flex flex-col gap-3">
        <h2 id="rules-heading" className="text-base font-semibold">
          Business rules
        </h2>
        <p className="text-sm text-slate-700">
          Checked when a document arrives and in its review: a failing rule marks its fields, and confirming
          asks for a reason.
        </p>
        {fields.data !== undefined && (
          <p className="text-sm text-slate-700">
            {fields.data.documentsRead === 0 && !fields.data.dataSchema
              ? 'No document of this model yet: its fields will be offered, and checked, once one arrives.'
              : `The field inputs offer the ${String(known.length)} fields ${
                  !fields.data.dataSchema
                    ? 'seen in this model’s documents'
                    : fields.data.documentsRead === 0
                      ? 'of this model’s data schema'
                      : 'of this model’s data schema and documents'
                }; a field they do not have is refused.`}
          </p>
        )}
        {draft.rules.length === 0 && <p className="text-sm text-slate-700">No rules yet.</p>}
        {draft.rules.map((rule, index) => (
          <RuleEditor
            key={rule.key}
            rule={rule}
            index={index}
            errorOf={(name) =>
              errorOf(name === '' ? `rules.${String(index)}` : `rules.${String(index)}.${name}`)
            }
            onChange={(next) => change({ rules: draft.rules.map((r) => (r.key === rule.key ? next : r)) })}
            onRemove={() => change({ rules: draft.rules.filter((r) => r.key !== rule.key) })}
            suggestions={known.length > 0 ? listIds : undefined}
          />
        ))}
        <div className="flex flex-wrap items-end gap-2">
          <label className="flex flex-col gap-1 text-xs font-medium text-slate-800">
            Kind of rule to add
            <select
              value={adding}
              onChange={(e) => setAdding(e.target.value as RuleKind)}
              className="rounded-md border border-slate-300 bg-white px-2 py-1 text-sm font-normal"
            >
              {Object.entries(KIND_LABELS).map(([kind, label]) => (
                <option key={kind} value={kind}>
                  {label}
                </option>
              ))}
            </select>
          </label>
          <Button
            variant="secondary"
            onClick={() =>
              change({
                rules: [
                  ...draft.rules,
                  newRule(
                    adding,
                    draft.rules.map((r) => r.id),
                  ),
                ],
              })
            }
          >
            Add a rule
          </Button>
        </div>
      </section>
      <ReasonsEditor draft={draft} errorOf={errorOf} onChange={change} />
      <RetentionEditor draft={draft} errorOf={errorOf} onChange={change} />
      <div className="flex flex-col gap-2">
        {blocked && !checked.ok && (
          <p role="alert" className="text-sm font-medium text-red-800">
            {checked.errors.size === 1 ? 'One input needs' : `${String(checked.errors.size)} inputs need`}{' '}
            fixing before saving (see the messages beside them).
          </p>
        )}
        {save.isError &&
          (stale ? (
            <ProblemAlert
              error={save.error}
              action="Your changes are not saved. Load the saved settings to see them, then make your changes again."
            />
          ) : (
            <ProblemAlert error={save.error} action="Nothing was saved." />
          ))}
        <div className="flex gap-2">
          <Button type="submit" disabled={save.isPending}>
            Save
          </Button>
          {stale && (
            <Button variant="secondary" onClick={onReload}>
              Load the saved settings
            </Button>
          )}
        </div>
        {save.isPending && <Spinner label="Saving…" />}
      </div>
    </form>
  );
}
