import type { ReactNode } from 'react';
import type { ExtractionResponse } from '@extraction-review/contract/v2/schemas';
import { DetailsPanel } from './details-panel';
import { JsonPanel } from './json-panel';
import { RawTextPanel } from './raw-text-panel';
import { ReviewTabs, type TabSpec } from './review-tabs';

export type ReviewTab = 'values' | 'history' | 'admin' | 'text' | 'details' | 'json';

interface Props {
  tab: ReviewTab;
  onTab: (tab: ReviewTab) => void;
  /** The values tab, composed by the review. */
  values: ReactNode;
  /** Tabs the review's page adds after the values (a queued document's history, v1 feedback). */
  extra?: readonly TabSpec<ReviewTab>[] | undefined;
  result: ExtractionResponse;
  modelName: string | null;
  stored: { filename: string; size: number | null; mimeType: string | null } | null;
  onGoToPage: (page: number) => void;
  /** At the end of the tabs' row: the save status. */
  status?: ReactNode;
  /** The values' titles and paths, for Details. */
  fields?: readonly { path: string; title: string }[] | undefined;
}

/**
 * The review's side panels as tabs: values, what the page adds (history, admin), raw text, details
 * (options, RAG, file), the response JSON. One tab shows at a time, so none of them ever pushes the
 * values down: they share the one scrolling region.
 */
export function ReviewPanels({
  tab,
  onTab,
  values,
  extra = [],
  result,
  modelName,
  stored,
  onGoToPage,
  fields,
  status,
}: Props) {
  const { inference } = result;
  return (
    <ReviewTabs<ReviewTab>
      label="Review panels"
      selected={tab}
      onSelect={onTab}
      trailing={status}
      tabs={[
        { id: 'values', label: 'Values', content: values },
        ...extra,
        {
          id: 'text',
          label: 'Raw text',
          content: <RawTextPanel rawText={inference.result.raw_text} onGoToPage={onGoToPage} />,
        },
        {
          id: 'details',
          label: 'Details',
          content: (
            <DetailsPanel inference={inference} modelName={modelName} stored={stored} fields={fields} />
          ),
        },
        { id: 'json', label: 'JSON', content: <JsonPanel value={result} /> },
      ]}
    />
  );
}
