/**
 * From the upload form's state to what is sent: only the options the operator set (the model's defaults
 * apply to the rest, API-FACTS "booleans only when set"), plus a summary of them kept with the job.
 */
import type { DataSchema, EnqueueExtractionInput } from '@extraction-review/contract/v2/request-schemas';
import type { SentOptions } from '../../lib/document-store';

/** An option left to the model, or set on or off for these documents. */
export type TriState = 'default' | 'on' | 'off';

export const BOOLEAN_OPTIONS = ['raw_text', 'polygon', 'confidence', 'rag'] as const;
export type BooleanOption = (typeof BOOLEAN_OPTIONS)[number];

export interface OptionsState {
  alias: string;
  toggles: Record<BooleanOption, TriState>;
  textContext: string;
  /** Webhooks ticked among the model's; null until the operator changes the preselection. */
  webhookIds: readonly string[] | null;
  /** Ids typed or pasted by hand, comma or space separated. */
  extraWebhookIds: string;
  dataSchema: { enabled: boolean; text: string };
}

export const INITIAL_OPTIONS: OptionsState = {
  alias: '',
  toggles: { raw_text: 'default', polygon: 'default', confidence: 'default', rag: 'default' },
  textContext: '',
  webhookIds: null,
  extraWebhookIds: '',
  dataSchema: { enabled: false, text: '' },
};

export type EnqueueOptions = Omit<EnqueueExtractionInput, 'model_id' | 'file' | 'url' | 'file_base64'>;

export function splitIds(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map((id) => id.trim())
    .filter((id) => id !== '');
}

/**
 * The options to send. `webhookIds` is the ticked list (the preselection resolved by the caller);
 * `dataSchema` the editor's checked value, when the replacement is on.
 */
export function buildEnqueueOptions(
  state: OptionsState,
  webhookIds: readonly string[],
  dataSchema: DataSchema | undefined,
): { options: EnqueueOptions; summary: SentOptions } {
  const options: EnqueueOptions = {};
  const summary: SentOptions = {};
  const alias = state.alias.trim();
  if (alias !== '') options.alias = summary.alias = alias;
  for (const name of BOOLEAN_OPTIONS) {
    const value = state.toggles[name];
    if (value !== 'default') options[name] = summary[name] = value === 'on';
  }
  if (state.textContext.trim() !== '') {
    options.text_context = state.textContext;
    summary.textContext = true;
  }
  const ids = [...new Set([...webhookIds, ...splitIds(state.extraWebhookIds)])];
  if (ids.length > 0) options.webhook_ids = summary.webhookIds = ids;
  if (dataSchema !== undefined) {
    options.data_schema = dataSchema;
    summary.dataSchemaReplaced = dataSchema.replace !== null;
  }
  return { options, summary };
}
