import { ApiError } from '../../../api/errors';
import type { RagDocumentResponse } from '../../../api/v2/rag';
import { ProblemAlert } from '../../../components/problem-alert';

interface Props {
  data: RagDocumentResponse | undefined;
  error: unknown;
}

/** What came back from "Send to RAG": the stored document, or the refusal in words with what to do. */
export function RagOutcome({ data, error }: Props) {
  if (error) return <ProblemAlert error={error} action={ragAction(error)} />;
  if (!data) return null;
  return (
    <p role="status" className="rounded border border-emerald-700 bg-emerald-50 p-2 text-sm text-slate-900">
      Stored as validated document <code className="font-mono text-xs break-all">{data.document.id}</code> (
      {Object.keys(data.document.fields).length} fields). Extractions of this model with the <code>rag</code>{' '}
      option on can now retrieve it for similar documents.
    </p>
  );
}

/** What to do after a refusal, for the cases the RAG extension documents (docs/reference-webhooks-rag.md). */
function ragAction(error: unknown): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const code = 'code' in error ? String(error.code) : '';
  if (error.status === 404 && code === '404-002')
    return 'The service no longer keeps the text of this inference (a result deleted once fetched loses it too), so it cannot become a RAG document. Send the document for extraction again, then send the corrections of the new result.';
  if (error.status === 404 && code === '404-004')
    return 'The service does not know this model (any more): RAG documents belong to a model.';
  if (error.status === 404)
    return 'This service has no RAG extension: it is part of the reference service only, not of the hosted API (which manages RAG documents on its platform). Export the corrections instead.';
  if (error.status === 422)
    return 'The service refused some values (each one is listed above). Correct them, then send again.';
  if (error.status === 413) return 'The corrections are too large to send (over 5 MB).';
  return undefined;
}
