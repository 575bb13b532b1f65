import type { SentOptions } from '../../lib/document-store';

const TOGGLES = ['raw_text', 'polygon', 'confidence', 'rag'] as const;

/** "raw_text on, polygon off, 1 webhook, data schema replaced", or "model defaults". */
export function describeSentOptions(summary: SentOptions): string {
  const parts: string[] = [];
  if (summary.alias) parts.push(`alias “${summary.alias}”`);
  for (const name of TOGGLES) {
    const value = summary[name];
    if (value !== undefined) parts.push(`${name} ${value ? 'on' : 'off'}`);
  }
  if (summary.textContext) parts.push('text context');
  const hooks = summary.webhookIds?.length ?? 0;
  if (hooks > 0) parts.push(`${hooks} webhook${hooks === 1 ? '' : 's'}`);
  if (summary.dataSchemaReplaced) parts.push('data schema replaced');
  return parts.length === 0 ? 'model defaults' : parts.join(', ');
}
