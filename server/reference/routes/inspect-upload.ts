/**
 * What can be told about a document before it is queued, so that an unusable file is a 422 at
 * enqueue (spec: "422 at enqueue when detectable") rather than a failed job: empty, of a type the
 * service does not read, damaged or encrypted (extract/inspect-document.ts, in its own threads). The
 * problem is pinned to the parameter the document came in.
 */
import { ProblemError } from '@extraction-review/contract/problem';
import { inspectDocument, type DocumentInfo } from '@extraction-review/document-text/inspect-document';

export async function inspectUpload(
  filePath: string,
  /** The parameter the document came in: `#/file`, `#/url` or `#/file_base64`. */
  pointer: string,
  signal?: AbortSignal,
): Promise<DocumentInfo> {
  try {
    return await inspectDocument({ path: filePath }, signal);
  } catch (error) {
    throw withPointer(error, pointer);
  }
}

/** A problem about the document as a whole, pinned to the parameter it came in. */
export function withPointer(error: unknown, pointer: string): unknown {
  if (!(error instanceof ProblemError) || error.errors.length > 0) return error;
  return new ProblemError(error.code, error.message, {
    errors: [{ pointer, detail: `${pointer.slice(2)}: ${error.message}` }],
    headers: error.headers,
    title: error.title,
    cause: error,
  });
}
