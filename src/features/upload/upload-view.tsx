import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { JobResponse } from '../../api/v2/schemas';
import { modelsQueryOptions } from '../../api/v2/queries';
import { ProblemAlert } from '../../components/problem-alert';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { DropZone } from './drop-zone';
import { ModelPicker } from './model-picker';
import { sniffFileType } from './sniff-file';
import { useEnqueue, type EnqueueRequest } from './use-enqueue';

interface Props {
  onEnqueued: (job: JobResponse, request: EnqueueRequest) => Promise<void> | void;
}

export function UploadView({ onEnqueued }: Props) {
  const models = useQuery(modelsQueryOptions());
  const [chosenModel, setChosenModel] = useState<string | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [fileProblem, setFileProblem] = useState<string | null>(null);
  const enqueue = useEnqueue(onEnqueued);

  const firstModel = models.data?.models.find((m) => m.model_type === 'extraction')?.id ?? '';
  const modelId = chosenModel ?? firstModel;

  async function onFile(candidate: File) {
    enqueue.reset();
    const type = await sniffFileType(candidate);
    if (type !== 'application/pdf') {
      setFile(null);
      setFileProblem(`${candidate.name} is not a PDF (its content does not start like one).`);
      return;
    }
    setFileProblem(null);
    setFile(candidate);
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (file && modelId) enqueue.mutate({ modelId, file });
  }

  return (
    <main className="mx-auto w-full max-w-2xl p-6">
      <h1 className="text-2xl font-semibold">New extraction</h1>
      <p className="mt-1 text-sm text-slate-600">
        Send a document to a model, follow the job, then review every value on its page.
      </p>
      <form onSubmit={onSubmit} className="mt-6 flex flex-col gap-5" aria-label="New extraction">
        <ModelPicker value={modelId} onChange={setChosenModel} />
        <DropZone file={file} onFile={(f) => void onFile(f)} accept="application/pdf,.pdf" />
        {fileProblem && (
          <p role="alert" className="text-sm text-red-800">
            {fileProblem}
          </p>
        )}
        {enqueue.isError && <ProblemAlert error={enqueue.error} />}
        <div className="flex items-center gap-4">
          <Button type="submit" disabled={!file || !modelId || enqueue.isPending}>
            Extract
          </Button>
          {enqueue.isPending && <Spinner label="Uploading…" />}
        </div>
      </form>
    </main>
  );
}
