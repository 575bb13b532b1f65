/**
 * POST /v2/products/extraction/enqueue (multipart). Streams the file to disk, validates the form
 * (every problem at once, each with its JSON pointer), records the job and answers 202 with it.
 */
import { randomUUID } from 'node:crypto';
import type { Context } from 'hono';
import { ProblemError, type ProblemItem } from '../../shared/problem';
import { sniffMimeType } from '../extract/sniff-mime-type';
import type { JobService } from '../jobs/job-service';
import type { Model, ModelCatalog } from '../models/model-catalog';
import type { FileStore } from '../store/file-store';
import { isUuid } from './identifiers';
import { readUploadForm, type UploadForm } from './multipart-upload';
import { jobJson } from './present';
import type { ServiceUrls } from './service-urls';

/** The hosted service's limit (API-FACTS). */
export const DEFAULT_MAX_UPLOAD_BYTES = 100 * 1024 * 1024;
/** Room for the form's other parts and boundaries when judging Content-Length before reading. */
const FORM_OVERHEAD_BYTES = 1024 * 1024;

export interface EnqueueDeps {
  jobs: JobService;
  models: ModelCatalog;
  files: FileStore;
  urls: ServiceUrls;
  maxUploadBytes: number;
}

export function enqueueHandler(deps: EnqueueDeps) {
  const tooLarge = () =>
    new ProblemError('413-001', `The file is larger than the limit of ${formatBytes(deps.maxUploadBytes)}.`, {
      errors: [{ pointer: '#/file', detail: `file must be at most ${formatBytes(deps.maxUploadBytes)}` }],
    });

  return async (c: Context): Promise<Response> => {
    if (!/^multipart\/form-data\b/i.test(c.req.header('content-type') ?? '')) {
      throw new ProblemError(
        '415-001',
        'Send the request as multipart/form-data. JSON requests (url input) are not supported by the ' +
          'reference service yet.',
      );
    }
    // Refuse an obviously oversized upload before reading it.
    if (Number(c.req.header('content-length')) > deps.maxUploadBytes + FORM_OVERHEAD_BYTES) throw tooLarge();

    const id = randomUUID();
    let accepted: Accepted;
    try {
      const form = await readUploadForm(c.req.raw, {
        fileField: 'file',
        destination: deps.files.partPath(id),
        maxFileBytes: deps.maxUploadBytes,
      });
      if (form.file?.truncated) throw tooLarge();
      accepted = validate(form, deps.models);
      await deps.files.commit(id);
    } catch (error) {
      await deps.files.discard(id);
      throw error;
    }
    const job = deps.jobs.enqueue({ id, ...accepted });
    return c.json({ job: jobJson(job, deps.urls) }, 202);
  };
}

interface Accepted {
  model: Model;
  filename: string;
  alias: string | null;
  mimeType: string;
  fileSize: number;
}

/**
 * Only `model_id`, `file`, `alias` and `filename` are read for now; the other spec parameters
 * (`raw_text`, `polygon`, `confidence`, `rag`, `text_context`, `data_schema`, `webhook_ids`, `url`,
 * `file_base64`) are accepted and ignored until a later issue implements them.
 */
function validate(form: UploadForm, models: ModelCatalog): Accepted {
  const errors: ProblemItem[] = [];
  const modelId = form.fields.get('model_id')?.trim() ?? '';
  const model = isUuid(modelId) ? models.find(modelId) : undefined;
  if (modelId === '') errors.push({ pointer: '#/model_id', detail: 'model_id is required' });
  else if (!isUuid(modelId))
    errors.push({ pointer: '#/model_id', detail: 'model_id must be a valid UUID format' });
  else if (!model) errors.push({ pointer: '#/model_id', detail: `no model has the id ${modelId}` });

  const { file } = form;
  const mimeType = file && sniffMimeType(file.head);
  if (!file) errors.push({ pointer: '#/file', detail: missingFileDetail(form) });
  else if (file.size === 0) errors.push({ pointer: '#/file', detail: 'file is empty' });
  else if (!mimeType) {
    errors.push({
      pointer: '#/file',
      detail:
        'file type is not supported: send a PDF, JPEG, PNG, WebP, TIFF or HEIC file (detected from its content)',
    });
  }

  if (errors.length > 0 || !model || !file || !mimeType) {
    throw new ProblemError('422-001', 'One or more fields failed validation.', { errors });
  }
  const text = (name: string): string | null => form.fields.get(name)?.trim() || null;
  return {
    model,
    filename: text('filename') ?? (file.filename.trim() || 'file'),
    alias: text('alias'),
    mimeType,
    fileSize: file.size,
  };
}

function missingFileDetail(form: UploadForm): string {
  if (form.fields.has('file')) return 'file must be sent as a file part (with a filename), not as text';
  if (form.fields.has('url') || form.fields.has('file_base64')) {
    return 'file is required: url and file_base64 inputs are not supported by the reference service yet';
  }
  return 'file is required';
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MB` : `${bytes} bytes`;
}
