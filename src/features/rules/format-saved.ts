import type { ModelSettings } from '@extraction-review/contract/review/model-settings';
import { formatDateTime } from '../../lib/format';

/** "Never saved: the defaults (every document goes to an operator)", or who saved which version when. */
export function formatSaved(settings: Pick<ModelSettings, 'version' | 'updatedAt' | 'updatedBy'>): string {
  if (settings.version === 0) return 'Never saved: the defaults apply (every document goes to an operator).';
  const when = settings.updatedAt === null ? '' : ` on ${formatDateTime(settings.updatedAt)}`;
  const who = settings.updatedBy === null ? '' : ` by ${settings.updatedBy.name ?? 'a removed operator'}`;
  return `Version ${String(settings.version)}, saved${who}${when}.`;
}
