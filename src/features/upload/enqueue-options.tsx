import { useId } from 'react';
import type { ModelWebhook } from '@extraction-review/contract/v2/schemas';
import type { DataSchemaCheck } from './data-schema-check';
import { DataSchemaEditor, type SchemaTemplate } from './data-schema-editor';
import type { BooleanOption, OptionsState } from './enqueue-request';
import { TriStateOption } from './tri-state-option';
import { WebhookPicker } from './webhook-picker';

interface Props {
  state: OptionsState;
  onChange: (patch: Partial<OptionsState>) => void;
  webhooks: readonly ModelWebhook[];
  appWebhookIds: readonly string[];
  /** The ticked webhooks, the preselection resolved. */
  selectedWebhooks: readonly string[];
  dataSchemaCheck: DataSchemaCheck | null;
  templates: readonly SchemaTemplate[];
}

const TOGGLES: { name: BooleanOption; title: string; explanation: string }[] = [
  {
    name: 'raw_text',
    title: 'Raw text',
    explanation: 'Return the full text of every page, to search it in the review.',
  },
  {
    name: 'polygon',
    title: 'Polygons',
    explanation: 'Return where each value is on its page, so the review can draw it over the words.',
  },
  {
    name: 'confidence',
    title: 'Confidence',
    explanation:
      'Rate each value Certain, High, Medium or Low, so the review can point at the doubtful ones.',
  },
  {
    name: 'rag',
    title: 'RAG',
    explanation:
      'Let the model use documents validated earlier to read this one (retrieval-augmented generation).',
  },
];

/** Every enqueue option, each with what it does; what is left unset is not sent. */
export function EnqueueOptions(props: Props) {
  const { state, onChange } = props;
  const aliasId = useId();
  const aliasHint = useId();
  const contextId = useId();
  const contextHint = useId();
  const replaceId = useId();
  const replaceHint = useId();

  return (
    <div className="flex flex-col gap-5">
      <p className="text-xs text-slate-600">
        “Default” sends nothing, so the model’s own setting applies; “On” and “Off” are sent with every file
        of this batch.
      </p>
      <div className="flex flex-col gap-1">
        <div className="text-sm font-medium">
          <label htmlFor={aliasId}>Alias</label>
          <code className="ml-2 font-mono text-xs font-normal text-slate-600">alias</code>
        </div>
        <input
          id={aliasId}
          value={state.alias}
          onChange={(e) => onChange({ alias: e.target.value })}
          aria-describedby={aliasHint}
          className="rounded-md border border-slate-300 px-3 py-1.5 text-sm"
        />
        <p id={aliasHint} className="text-xs text-slate-600">
          A name of your own (an order number, a customer), returned with the job and the result.
        </p>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        {TOGGLES.map((toggle) => (
          <TriStateOption
            key={toggle.name}
            {...toggle}
            value={state.toggles[toggle.name]}
            onChange={(value) => onChange({ toggles: { ...state.toggles, [toggle.name]: value } })}
          />
        ))}
      </div>
      <div className="flex flex-col gap-1">
        <div className="text-sm font-medium">
          <label htmlFor={contextId}>Text context</label>
          <code className="ml-2 font-mono text-xs font-normal text-slate-600">text_context</code>
        </div>
        <textarea
          id={contextId}
          value={state.textContext}
          onChange={(e) => onChange({ textContext: e.target.value })}
          rows={2}
          aria-describedby={contextHint}
          className="rounded-md border border-slate-300 px-3 py-1.5 text-sm"
        />
        <p id={contextHint} className="text-xs text-slate-600">
          What you know about these files that helps reading them, for example “Invoices from ACME, dates are
          day first”. Empty: not sent.
        </p>
      </div>
      <WebhookPicker
        webhooks={props.webhooks}
        appWebhookIds={props.appWebhookIds}
        selected={props.selectedWebhooks}
        onSelectedChange={(ids) => onChange({ webhookIds: ids })}
        extra={state.extraWebhookIds}
        onExtraChange={(text) => onChange({ extraWebhookIds: text })}
      />
      <fieldset className="flex flex-col gap-2" data-option="data_schema">
        <legend className="text-sm font-medium">
          Data schema <code className="ml-1 font-mono text-xs font-normal text-slate-600">data_schema</code>
        </legend>
        <div className="flex items-start gap-2 text-sm">
          <input
            id={replaceId}
            type="checkbox"
            className="mt-1"
            checked={state.dataSchema.enabled}
            aria-describedby={replaceHint}
            onChange={(e) => onChange({ dataSchema: { ...state.dataSchema, enabled: e.target.checked } })}
          />
          <div>
            <label htmlFor={replaceId}>Replace the fields to extract, for these files only</label>
            <p id={replaceHint} className="text-xs text-slate-600">
              Off: the fields the model was set up with. On: exactly the fields written below.
            </p>
          </div>
        </div>
        {state.dataSchema.enabled && props.dataSchemaCheck && (
          <DataSchemaEditor
            value={state.dataSchema.text}
            onChange={(text) => onChange({ dataSchema: { enabled: true, text } })}
            check={props.dataSchemaCheck}
            templates={props.templates}
          />
        )}
      </fieldset>
    </div>
  );
}
