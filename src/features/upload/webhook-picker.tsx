import { useId } from 'react';
import { Uuid } from '@extraction-review/contract/common-schemas';
import type { ModelWebhook } from '@extraction-review/contract/v2/schemas';
import { splitIds } from './enqueue-request';

interface Props {
  /** The chosen model's webhooks (models search); empty when it has none or the model is not listed. */
  webhooks: readonly ModelWebhook[];
  /** Ids of the webhook that reaches this app server (`/api/app-config`). */
  appWebhookIds: readonly string[];
  selected: readonly string[];
  onSelectedChange: (ids: string[]) => void;
  extra: string;
  onExtraChange: (text: string) => void;
}

/** `webhook_ids`: the endpoints the service calls once each job is finished. */
export function WebhookPicker({
  webhooks,
  appWebhookIds,
  selected,
  onSelectedChange,
  extra,
  onExtraChange,
}: Props) {
  const extraId = useId();
  const extraHintId = useId();
  const describedBy = useId();
  const badIds = splitIds(extra).filter((id) => !Uuid.safeParse(id).success);

  return (
    <fieldset aria-describedby={describedBy} className="flex flex-col gap-1" data-option="webhook_ids">
      <legend className="text-sm font-medium">
        Webhooks <code className="ml-1 font-mono text-xs font-normal text-slate-600">webhook_ids</code>
      </legend>
      <p id={describedBy} className="text-xs text-slate-600">
        Endpoints the service calls when each job is finished. The one of this app pushes the outcome to this
        browser at once, instead of waiting for the next check. None ticked: none is called.
      </p>
      {webhooks.length === 0 ? (
        <p className="text-xs text-slate-600 italic">This model has no webhook configured.</p>
      ) : (
        <ul className="mt-1 flex flex-col gap-1">
          {webhooks.map((hook) => {
            const ours = appWebhookIds.includes(hook.id);
            return (
              <li key={hook.id}>
                <label className="flex items-start gap-2 text-sm">
                  <input
                    type="checkbox"
                    className="mt-1"
                    checked={selected.includes(hook.id)}
                    onChange={(e) =>
                      onSelectedChange(
                        e.target.checked ? [...selected, hook.id] : selected.filter((id) => id !== hook.id),
                      )
                    }
                  />
                  <span>
                    {hook.name}
                    {ours && (
                      <span className="ml-2 rounded bg-blue-100 px-1.5 text-xs text-blue-900">this app</span>
                    )}
                    <span className="block font-mono text-xs break-all text-slate-600">{hook.url}</span>
                  </span>
                </label>
              </li>
            );
          })}
        </ul>
      )}
      <label htmlFor={extraId} className="mt-2 text-sm">
        Other webhook ids
      </label>
      <input
        id={extraId}
        value={extra}
        onChange={(e) => onExtraChange(e.target.value)}
        placeholder="Ids separated by commas"
        spellCheck={false}
        aria-invalid={badIds.length > 0}
        aria-describedby={extraHintId}
        className="rounded-md border border-slate-300 px-3 py-1.5 font-mono text-sm aria-invalid:border-red-700"
      />
      <p id={extraHintId} className={`text-xs ${badIds.length > 0 ? 'text-red-800' : 'text-slate-600'}`}>
        {badIds.length > 0
          ? `Not a webhook id (a UUID): ${badIds.join(', ')}`
          : 'Only ids of this model’s webhooks are accepted by the service.'}
      </p>
    </fieldset>
  );
}
