import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { InvalidRequestError } from '../../api/errors';
import { describeError } from '../../components/describe-error';
import { ProblemAlert } from '../../components/problem-alert';
import { Button } from '../../components/ui/button';
import { ApiChoice } from './api-choice';
import { DocumentSource } from './document-source';
import { EnqueueOptions } from './enqueue-options';
import { ModelPicker } from './model-picker';
import { isSendable } from './selected-files';
import { UploadList } from './upload-list';
import { useUploadQueue } from './upload-queue-provider';
import { useUploadForm } from './use-upload-form';
import { V1ProductPicker } from './v1-product-picker';

interface Props {
  /** A single document was sent and is now a job (or a v1 document): the route opens its page. */
  onSingleEnqueued?: (href: string) => void;
}

/**
 * A new extraction: files or a URL, a model, the options; then the uploads, a few at a time, each with
 * its progress. One document sent alone opens its job; several stay here and in the job list.
 */
export function UploadView({ onSingleEnqueued }: Props) {
  const form = useUploadForm();
  const queue = useUploadQueue();
  const [invalid, setInvalid] = useState<InvalidRequestError | null>(null);
  const [attempted, setAttempted] = useState(false);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const blocker = form.blocker();
  // Files still being checked, or the model list still on its way: "Extract" is kept until they are done.
  const waiting =
    (form.source === 'files' && form.candidates.some((c) => c.check === null)) || form.modelsLoading;
  const count = form.source === 'files' ? form.candidates.filter(isSendable).length : 1;
  // "Extract" pressed while waiting: sent as soon as the wait is over.
  const submitWhenReady = useRef(false);

  function submit() {
    setAttempted(true);
    if (blocker) return;
    const uploads = form.buildUploads();
    if (!Array.isArray(uploads)) return setInvalid(uploads);
    setInvalid(null);
    setAttempted(false);
    const added = queue.add(uploads);
    form.onQueued();
    const [single] = added;
    if (added.length === 1 && single && onSingleEnqueued)
      void single.done.then((item) => {
        if (item.phase.kind === 'enqueued' && mounted.current)
          onSingleEnqueued(item.phase.href ?? `/jobs/${encodeURIComponent(item.phase.jobId)}`);
      });
  }

  useEffect(() => {
    if (!submitWhenReady.current || waiting) return;
    submitWhenReady.current = false;
    submit();
  });

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (waiting) submitWhenReady.current = true;
    else submit();
  }

  return (
    <main className="mx-auto flex w-full max-w-3xl flex-col gap-8 p-6">
      <div>
        <h1 className="text-2xl font-semibold">New extraction</h1>
        <p className="mt-1 text-sm text-slate-600">
          Send files to a model, follow their jobs, then review every value on its page.
        </p>
      </div>
      <form onSubmit={onSubmit} className="flex flex-col gap-6" aria-label="New extraction" noValidate>
        <ApiChoice value={form.api} onChange={form.setApi} />
        <DocumentSource
          kind={form.source}
          filesOnly={form.api === 'v1'}
          onKindChange={form.setSource}
          candidates={form.candidates}
          onFiles={form.onFiles}
          onRemove={form.onRemoveCandidate}
          onOverride={form.onOverride}
          url={form.url}
          onUrlChange={form.setUrl}
          urlProblem={form.urlProblem}
        />
        {form.api === 'v1' ? (
          <V1ProductPicker
            state={form.v1Product}
            onChange={form.onV1ProductChange}
            checked={form.v1Check}
            showProblem={attempted}
          />
        ) : (
          <>
            <ModelPicker
              models={form.extractionModels}
              listError={form.models.isError ? describeError(form.models.error).title + '.' : null}
              value={form.modelId}
              onChange={form.onModelChange}
            />
            <details open className="rounded-md border border-slate-200 bg-slate-50 p-4">
              <summary className="cursor-pointer text-sm font-semibold">Options</summary>
              <div className="mt-4">
                <EnqueueOptions
                  state={form.options}
                  onChange={form.onOptionsChange}
                  webhooks={form.webhooks}
                  appWebhookIds={form.appWebhookIds}
                  selectedWebhooks={form.selectedWebhooks}
                  dataSchemaCheck={form.dataSchemaCheck}
                  templates={form.templates}
                />
              </div>
            </details>
          </>
        )}
        {invalid && <ProblemAlert error={invalid} />}
        <div className="flex flex-wrap items-center gap-4">
          <Button type="submit">Extract</Button>
          <span
            role="status"
            className={`text-sm ${attempted && blocker ? 'text-red-800' : 'text-slate-600'}`}
          >
            {blocker ??
              `${count} ${form.source === 'files' ? `file${count === 1 ? '' : 's'}` : 'URL'} to send`}
          </span>
        </div>
      </form>
      <UploadList jobsLink />
    </main>
  );
}
