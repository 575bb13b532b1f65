import { useEffect, useId, useRef } from 'react';
import {
  PRESET_REASON_KINDS,
  type PresetReasonKind,
} from '@extraction-review/contract/review/model-settings';
import { Button } from '../../components/ui/button';
import { REASON_KIND_LABELS, reasonDraft, type ReasonDraft, type SettingsDraft } from './rules-form';

interface Props {
  draft: SettingsDraft;
  /** The error of an input, by its key (`reasons.reject.1`, `reasons.override`). */
  errorOf: (key: string) => string | undefined;
  onChange: (patch: Partial<SettingsDraft>) => void;
}

const MAX_REASONS = 30;

/**
 * The reasons the review offers for a rejection, a postponement and a confirmation although a rule
 * fails: added, edited, moved and removed here, saved with the rest of the settings.
 */
export function ReasonsEditor({ draft, errorOf, onChange }: Props) {
  return (
    <fieldset className="flex flex-col gap-3 rounded-md border border-slate-300 bg-white p-4">
      <legend className="px-1 text-base font-semibold">Reasons offered in the review</legend>
      <p className="text-sm text-slate-700">
        The operator picks one (it fills the reason, which they may still change) or writes their own.
      </p>
      {PRESET_REASON_KINDS.map((kind) => (
        <ReasonList
          key={kind}
          kind={kind}
          reasons={draft.reasons[kind]}
          errorOf={errorOf}
          onChange={(reasons) => onChange({ reasons: { ...draft.reasons, [kind]: reasons } })}
        />
      ))}
    </fieldset>
  );
}

function ReasonList({
  kind,
  reasons,
  errorOf,
  onChange,
}: {
  kind: PresetReasonKind;
  reasons: readonly ReasonDraft[];
  errorOf: (key: string) => string | undefined;
  onChange: (reasons: ReasonDraft[]) => void;
}) {
  const id = useId();
  const list = useRef<HTMLOListElement>(null);
  // The row to focus once drawn after it was added, moved or its neighbour removed (its input, or
  // the button pressed): the list draws again with the draft, then this runs.
  const pendingFocus = useRef<{ key: string; control: string } | null>(null);
  const setFocus = (focus: { key: string; control: string }) => (pendingFocus.current = focus);
  useEffect(() => {
    const focus = pendingFocus.current;
    if (focus === null) return;
    pendingFocus.current = null;
    list.current
      ?.querySelector<HTMLElement>(`[data-reason="${focus.key}"] [data-control="${focus.control}"]`)
      ?.focus();
  });
  const title = REASON_KIND_LABELS[kind];
  const listError = errorOf(`reasons.${kind}`);
  const move = (index: number, by: -1 | 1) => {
    const next = [...reasons];
    const [moved] = next.splice(index, 1);
    if (moved === undefined) return;
    const to = index + by;
    next.splice(to, 0, moved);
    onChange(next);
    // Keep the focus on the button pressed, or on the other one where this one is gone.
    const edge = by === -1 ? to === 0 : to === next.length - 1;
    setFocus({ key: moved.key, control: edge ? (by === -1 ? 'down' : 'up') : by === -1 ? 'up' : 'down' });
  };

  return (
    <section aria-labelledby={`${id}-title`} className="flex flex-col gap-2">
      <h3 id={`${id}-title`} className="text-sm font-semibold">
        {title}
      </h3>
      {reasons.length === 0 && (
        <p className="text-sm text-slate-700">None: the operator writes the reason.</p>
      )}
      <ol ref={list} className="flex flex-col gap-2">
        {reasons.map((reason, index) => {
          const error = errorOf(`reasons.${kind}.${String(index)}`);
          const label = `${title} reason ${String(index + 1)}`;
          return (
            <li key={reason.key} data-reason={reason.key} className="flex flex-col gap-1">
              <div className="flex items-center gap-1">
                <input
                  data-control="text"
                  aria-label={label}
                  value={reason.text}
                  maxLength={250}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={error ? `${id}-${reason.key}-error` : undefined}
                  onChange={(e) =>
                    onChange(reasons.map((r) => (r.key === reason.key ? { ...r, text: e.target.value } : r)))
                  }
                  className="min-w-0 flex-1 rounded-md border border-slate-300 bg-white px-2 py-1 text-sm aria-invalid:border-2 aria-invalid:border-red-700"
                />
                <Button
                  variant="ghost"
                  className="px-2"
                  data-control="up"
                  aria-label={`Move up: ${label}`}
                  disabled={index === 0}
                  onClick={() => move(index, -1)}
                >
                  <span aria-hidden="true">↑</span>
                </Button>
                <Button
                  variant="ghost"
                  className="px-2"
                  data-control="down"
                  aria-label={`Move down: ${label}`}
                  disabled={index === reasons.length - 1}
                  onClick={() => move(index, 1)}
                >
                  <span aria-hidden="true">↓</span>
                </Button>
                <Button
                  variant="ghost"
                  className="px-2"
                  aria-label={`Remove: ${label}`}
                  onClick={() => {
                    onChange(reasons.filter((r) => r.key !== reason.key));
                    // The focus goes to the next row's input, or the previous, or stays in the list's
                    // "Add" button.
                    const neighbour = reasons[index + 1] ?? reasons[index - 1];
                    if (neighbour) setFocus({ key: neighbour.key, control: 'text' });
                    else
                      list.current?.parentElement
                        ?.querySelector<HTMLElement>('[data-control="add"]')
                        ?.focus();
                  }}
                >
                  Remove
                </Button>
              </div>
              {error && (
                <p id={`${id}-${reason.key}-error`} className="text-xs font-medium text-red-800">
                  <span aria-hidden="true">⚠ </span>
                  {error}
                </p>
              )}
            </li>
          );
        })}
      </ol>
      {listError && (
        <p role="alert" className="text-xs font-medium text-red-800">
          {listError}
        </p>
      )}
      <Button
        variant="secondary"
        className="self-start"
        data-control="add"
        disabled={reasons.length >= MAX_REASONS}
        onClick={() => {
          const added = reasonDraft();
          onChange([...reasons, added]);
          setFocus({ key: added.key, control: 'text' });
        }}
      >
        Add a reason to {kind === 'override' ? 'confirm although a rule fails' : title.toLowerCase()}
      </Button>
      {reasons.length >= MAX_REASONS && (
        <p className="text-xs text-slate-600">At most {MAX_REASONS} reasons.</p>
      )}
    </section>
  );
}
