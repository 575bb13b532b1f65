/**
 * The upload form's state and what follows from it: the chosen model and its webhooks, the preselected
 * webhook of this app, the data schema's check, the files' checks, and the requests to queue.
 */
import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { Uuid } from '@extraction-review/contract/common-schemas';
import { InvalidRequestError } from '../../api/errors';
import { check } from '@extraction-review/contract/issues';
import { appConfigQueryOptions } from '../../api/v2/app-events';
import { modelSchemaQueryOptions } from '../../api/v2/model-schema';
import { modelsQueryOptions } from '../../api/v2/queries';
import { EnqueueExtractionInput } from '@extraction-review/contract/v2/request-schemas';
import { describeError } from '../../components/describe-error';
import { checkDocument } from '../../lib/check-document';
import { checkDataSchemaEditor } from './data-schema-check';
import type { SchemaTemplate } from './data-schema-editor';
import { INVOICE_TEMPLATE, fromModelSchema, schemaText } from './data-schema-template';
import type { SourceKind } from './document-source';
import { INITIAL_OPTIONS, buildEnqueueOptions, splitIds, type OptionsState } from './enqueue-request';
import { isSendable, type Candidate } from './selected-files';
import type { UploadPayload } from './upload-queue-provider';
import type { NewUpload } from './upload-queue';
import type { ApiVersion } from './api-choice';
import { INITIAL_V1_PRODUCT, checkV1Product, type V1ProductState } from '../../lib/v1-product';

const ENDPOINT = 'POST /api/v2/products/extraction/enqueue';

export function useUploadForm() {
  const models = useQuery(modelsQueryOptions());
  const appConfig = useQuery(appConfigQueryOptions());
  const [chosenModel, setChosenModel] = useState<string | null>(null);
  const [source, setSource] = useState<SourceKind>('files');
  const [candidates, setCandidates] = useState<Candidate[]>([]);
  const [url, setUrl] = useState('');
  const [options, setOptions] = useState<OptionsState>(INITIAL_OPTIONS);
  const [api, setApi] = useState<ApiVersion>('v2');
  const [v1Product, setV1Product] = useState<V1ProductState>(INITIAL_V1_PRODUCT);
  const v1Check = useMemo(() => checkV1Product(v1Product), [v1Product]);
  // v1 here sends files only (its URL input exists, but this form keeps v1 to what the review can show).
  const effectiveSource: SourceKind = api === 'v1' ? 'files' : source;

  const extractionModels = useMemo(
    () => models.data?.models.filter((m) => m.model_type === 'extraction'),
    [models.data],
  );
  const modelId = chosenModel ?? extractionModels?.[0]?.id ?? '';
  const model = extractionModels?.find((m) => m.id === modelId);
  const modelIdValid = Uuid.safeParse(modelId).success;
  // No model chosen and the list still on its way: the first one will be, so "Extract" waits for it.
  const modelsLoading = api === 'v2' && chosenModel === null && models.isPending;
  const modelSchema = useQuery({ ...modelSchemaQueryOptions(modelId), enabled: modelIdValid });

  const appWebhookIds = useMemo(() => appConfig.data?.v2.webhookIds ?? [], [appConfig.data]);
  const webhooks = useMemo(() => model?.webhooks ?? [], [model]);
  // This app's webhook, when the model has it, is ticked unless the operator says otherwise.
  const selectedWebhooks =
    options.webhookIds ?? webhooks.filter((hook) => appWebhookIds.includes(hook.id)).map((hook) => hook.id);

  const templates = useMemo<SchemaTemplate[]>(() => {
    const own = modelSchema.data ? fromModelSchema(modelSchema.data.data_schema.fields) : null;
    return [
      ...(own && own.length > 0 ? [{ label: 'the model’s schema', text: schemaText(own) }] : []),
      { label: 'the invoice template', text: schemaText(INVOICE_TEMPLATE) },
    ];
  }, [modelSchema.data]);

  const dataSchemaCheck = useMemo(
    () => (options.dataSchema.enabled ? checkDataSchemaEditor(options.dataSchema.text) : null),
    [options.dataSchema],
  );

  const onModelChange = (id: string) => {
    setChosenModel(id);
    // Another model has other webhooks: back to the preselection.
    setOptions((current) => ({ ...current, webhookIds: null }));
  };

  const onOptionsChange = (patch: Partial<OptionsState>) =>
    setOptions((current) => {
      const next = { ...current, ...patch };
      // Switched on for the first time: start from the model's own schema, or the template.
      if (patch.dataSchema?.enabled && current.dataSchema.text === '')
        next.dataSchema = { enabled: true, text: templates[0]?.text ?? '' };
      return next;
    });

  const onFiles = useCallback((files: File[]) => {
    const added = files.map((file) => ({ id: crypto.randomUUID(), file, check: null, override: false }));
    setCandidates((current) => [...current, ...added]);
    for (const candidate of added) {
      void checkDocument(candidate.file).then(
        (result) =>
          setCandidates((current) =>
            current.map((c) => (c.id === candidate.id ? { ...c, check: result } : c)),
          ),
        (error: unknown) =>
          setCandidates((current) =>
            current.map((c) =>
              c.id === candidate.id
                ? {
                    ...c,
                    check: {
                      mimeType: 'unknown',
                      problem: {
                        kind: 'unsupported',
                        overridable: false,
                        message: `The file could not be read: ${describeError(error).detail ?? 'unknown reason'}.`,
                      },
                    },
                  }
                : c,
            ),
          ),
      );
    }
  }, []);

  const urlCheck = url.trim() === '' ? null : check(EnqueueExtractionInput.shape.url, url.trim());
  const urlProblem =
    urlCheck && !urlCheck.success ? (urlCheck.issues[0]?.message ?? 'Not a valid URL') : null;

  /** Why the form cannot be sent yet, in words; null when it can. */
  function blocker(): string | null {
    if (api === 'v1') {
      if (!v1Check.ok) return v1Check.message;
      return filesBlocker();
    }
    if (modelsLoading) return 'Loading the models…';
    if (!modelIdValid) return modelId === '' ? 'Choose a model.' : 'The model id is not a valid id.';
    if (source === 'files') {
      const files = filesBlocker();
      if (files) return files;
    } else if (url.trim() === '' || urlProblem) return 'Give a public https:// URL.';
    if (dataSchemaCheck && !dataSchemaCheck.ok) return 'Correct the data schema first.';
    if (splitIds(options.extraWebhookIds).some((id) => !Uuid.safeParse(id).success))
      return 'Correct the webhook ids first.';
    return null;
  }

  function filesBlocker(): string | null {
    if (candidates.some((c) => c.check === null)) return 'Checking the files…';
    if (candidates.length === 0) return 'Add the files to send.';
    if (!candidates.some(isSendable)) return 'None of these files can be sent: see why next to each.';
    return null;
  }

  /** The uploads to queue, each checked with the request schema; an InvalidRequestError if one fails. */
  function buildUploads(): NewUpload<UploadPayload>[] | InvalidRequestError {
    if (api === 'v1') return buildV1Uploads();
    const dataSchema = dataSchemaCheck?.ok ? dataSchemaCheck.value : undefined;
    const { options: sent, summary } = buildEnqueueOptions(options, selectedWebhooks, dataSchema);
    const common = { modelId, modelName: model?.name ?? null, options: summary };
    const uploads: NewUpload<UploadPayload>[] =
      source === 'files'
        ? candidates.filter(isSendable).map(({ file, check: result }) => ({
            label: file.name,
            size: file.size,
            payload: {
              api: 'v2' as const,
              input: { model_id: modelId, file, ...sent },
              record: {
                ...common,
                filename: file.name,
                file,
                mimeType: result?.mimeType ?? null,
                size: file.size,
              },
            },
          }))
        : [
            {
              label: url.trim(),
              size: null,
              payload: {
                api: 'v2' as const,
                input: { model_id: modelId, url: url.trim(), ...sent },
                record: {
                  ...common,
                  filename: decodeURIComponent(new URL(url.trim()).pathname.split('/').at(-1) || url.trim()),
                  file: null,
                  source: 'url',
                  url: url.trim(),
                },
              },
            },
          ];
    for (const { payload } of uploads) {
      if (payload.api !== 'v2') continue;
      const checked = check(EnqueueExtractionInput, payload.input);
      if (!checked.success) return new InvalidRequestError(checked.issues, { endpoint: ENDPOINT });
    }
    return uploads;
  }

  /** v1: each sendable file to the product; the product was checked by `blocker`, the file by v1/upload.ts. */
  function buildV1Uploads(): NewUpload<UploadPayload>[] | InvalidRequestError {
    if (!v1Check.ok)
      return new InvalidRequestError(
        [{ path: v1Check.field, pointer: `#/${v1Check.field}`, message: v1Check.message }],
        {
          endpoint: 'v1 product',
        },
      );
    const { product, label } = v1Check;
    return candidates.filter(isSendable).map(({ file, check: result }) => ({
      label: file.name,
      size: file.size,
      payload: {
        api: 'v1' as const,
        product,
        file,
        record: {
          api: 'v1' as const,
          v1: product,
          modelId: label,
          modelName: label,
          filename: file.name,
          file,
          mimeType: result?.mimeType ?? null,
          size: file.size,
        },
      },
    }));
  }

  /** Once queued: the sent files leave the form, those that could not be sent stay with their reason. */
  function onQueued() {
    setCandidates((current) => current.filter((c) => !isSendable(c)));
    setUrl('');
  }

  return {
    models,
    modelsLoading,
    extractionModels,
    modelId,
    onModelChange,
    source: effectiveSource,
    setSource,
    api,
    setApi,
    v1Product,
    onV1ProductChange: (patch: Partial<V1ProductState>) =>
      setV1Product((current) => ({ ...current, ...patch })),
    v1Check,
    candidates,
    onFiles,
    onRemoveCandidate: (id: string) => setCandidates((current) => current.filter((c) => c.id !== id)),
    onOverride: (id: string, override: boolean) =>
      setCandidates((current) => current.map((c) => (c.id === id ? { ...c, override } : c))),
    url,
    setUrl,
    urlProblem,
    options,
    onOptionsChange,
    webhooks,
    appWebhookIds,
    selectedWebhooks,
    templates,
    dataSchemaCheck,
    blocker,
    buildUploads,
    onQueued,
  };
}
