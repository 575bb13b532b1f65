/**
 * A document opened before the review can show it: a review's route has the file (from this
 * browser's store, or downloaded) while the job, its result or the queued document are still on
 * their way, so it tells the file's kind and, for a PDF, has pdf.js open it and read page 1 then,
 * in parallel. The viewer takes both from here when it mounts (document-source.tsx, pdf-source.tsx)
 * and draws page 1 in its first render. Loaded with the viewer (preload.ts imports it on demand).
 */
import { detectDocumentKind, kindFromMimeType, type DocumentKind } from './document-kind';
import { holdPdf } from './pdf-open';

interface Detection {
  kind: Promise<DocumentKind>;
  value?: DocumentKind;
}

/** Per file, per type given: a file's bytes decide, its type only when they tell nothing. */
const detections = new WeakMap<Blob, Map<string, Detection>>();

/** The kind of `file` (detectDocumentKind), told once per file and type. */
export function documentKind(file: Blob, mimeType: string | undefined): Promise<DocumentKind> {
  let byType = detections.get(file);
  if (!byType) detections.set(file, (byType = new Map()));
  const found = byType.get(mimeType ?? '');
  if (found) return found.kind;
  const detection: Detection = { kind: detectDocumentKind(file, mimeType) };
  void detection.kind.then(
    (kind) => (detection.value = kind),
    () => byType.delete(mimeType ?? ''),
  );
  byType.set(mimeType ?? '', detection);
  return detection.kind;
}

/** The kind of `file` if it has been told already: what a first render goes by. */
export function knownKind(file: Blob, mimeType: string | undefined): DocumentKind | undefined {
  return detections.get(file)?.get(mimeType ?? '')?.value;
}

/**
 * Starts opening `file` for a review about to show it; the returned function lets go of it (the
 * viewer holds it by then, or it is closed a little later).
 */
export function openAhead(file: Blob, mimeType: string | undefined): () => void {
  let live = true;
  let release: (() => void) | undefined;
  const kind = documentKind(file, mimeType);
  // Said to be a PDF: pdf.js starts at once, beside the detection (what is not a PDF fails to open,
  // and the viewer goes by the detected kind all the same).
  if (kindFromMimeType(mimeType)?.kind === 'pdf') release = holdPdf(file).release;
  else
    void kind
      .then((detected) => {
        if (live && detected.kind === 'pdf') release = holdPdf(file).release;
      })
      .catch(() => undefined);
  return () => {
    live = false;
    release?.();
  };
}
