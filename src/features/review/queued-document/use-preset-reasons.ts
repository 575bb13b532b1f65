import { useQuery } from '@tanstack/react-query';
import type { PresetReasons } from '@extraction-review/contract/review/model-settings';
import { modelSettingsQueryOptions } from '../../../api/review/model-settings-endpoints';
import type { ApiVersion } from '@extraction-review/contract/review/schemas';

/**
 * The reasons the model's review offers for a rejection, a postponement and an override (its settings,
 * read once with the business rules); undefined until read, and the dialogs offer the text alone.
 */
export function usePresetReasons(apiVersion: ApiVersion, model: string): PresetReasons | undefined {
  return useQuery(modelSettingsQueryOptions(apiVersion, model)).data?.reasons;
}
