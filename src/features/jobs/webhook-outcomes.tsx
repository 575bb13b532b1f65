import type { ModelWebhook, WebhookResponse } from '@extraction-review/contract/v2/schemas';
import { describeError } from '../../components/describe-error';

const STATUS_TEXT: Record<WebhookResponse['status'], string> = {
  Processing: 'Being delivered',
  Processed: 'Delivered',
  Failed: 'Failed',
  Skipped: 'Skipped',
};

const STATUS_CLASS: Record<WebhookResponse['status'], string> = {
  Processing: 'text-slate-700',
  Processed: 'text-green-800',
  Failed: 'text-red-800',
  Skipped: 'text-slate-600',
};

interface Props {
  webhooks: readonly WebhookResponse[];
  /** The model's webhooks (models search), for their names; ids are shown when unknown. */
  known: readonly ModelWebhook[];
}

/** `job.webhooks`: each delivery's outcome, how many attempts it took, and its error. */
export function WebhookOutcomes({ webhooks, known }: Props) {
  if (webhooks.length === 0) return null;
  return (
    <ul className="flex flex-col gap-1 text-xs" aria-label="Webhook deliveries">
      {webhooks.map((webhook) => {
        const name = known.find((k) => k.id === webhook.id)?.name;
        const attempts = webhook.attempts_count;
        const error = webhook.error ? describeError(webhook.error) : null;
        return (
          <li key={webhook.id} data-webhook={webhook.id} data-webhook-status={webhook.status}>
            <span className="font-medium">
              Webhook {name ?? <code className="font-mono">{webhook.id}</code>}
            </span>
            {': '}
            <span className={STATUS_CLASS[webhook.status]}>{STATUS_TEXT[webhook.status]}</span>
            {attempts > 0 && ` after ${attempts} attempt${attempts === 1 ? '' : 's'}`}
            {error && (
              <span className="text-red-900">
                {' '}
                — {error.title}
                {error.code && ` (${error.code})`}
                {error.detail && `: ${error.detail}`}
              </span>
            )}
          </li>
        );
      })}
    </ul>
  );
}
