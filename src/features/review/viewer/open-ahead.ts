/**
 * A document opened before the review can show it: a review's route has the file (from this
 * browser's store, or downloaded) while the job, its result or the queued document are still on
 * their way, so it tells the file's kind and, for a PDF, has pdf.js open it and read page 1 then,
 * in parallel. The viewer takes both from here when it mounts (document-source.tsx, pdf-source.tsx)
 * and draws page 1 in its first render. Loaded with the viewer (preload.ts imports it on demand).
 */
import { detectDocumentKind, kindFromMimeType, type DocumentKind } from './document-kind';
import { holdPdf, type OpenedPdf } from './pdf-open';

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
 * Draws page 1 of an opened PDF once, off-screen and small: pdf.js then keeps the page's operator
 * list (its fonts loaded, its pictures decoded, in the worker) for the viewer's own draw, which only
 * paints. The same render intent as react-pdf's `<Page>` (display, annotations enabled), whose cached
 * operator list is found by it; the scale does not matter to it.
 */
async function drawFirstPageOffScreen(opened: Promise<OpenedPdf>, live: () => boolean): Promise<void> {
  const { pdf } = await opened;
  if (!live()) return;
  const page = await pdf.getPage(1);
  if (!live()) return;
  const viewport = page.getViewport({ scale: WARM_SCALE });
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.ceil(viewport.width));
  canvas.height = Math.max(1, Math.ceil(viewport.height));
  await page.render({ canvas, viewport }).promise;
  // The bitmap itself is not kept: only what pdf.js keeps for the page.
  canvas.width = 0;
  canvas.height = 0;
}

/** Small: what is kept is the page's operator list, not this bitmap. */
const WARM_SCALE = 0.25;

/**
 * Opens `file` ahead as `openAhead` does and, for a PDF, draws its page 1 off-screen once: the next
 * document of the queue, while the current one is reviewed, so that "Confirm and next" finds it ready
 * to paint. The returned function lets go of it.
 */
export function openAndDrawAhead(file: Blob, mimeType: string | undefined): () => void {
  let live = true;
  let held: ReturnType<typeof holdPdf> | undefined;
  const draw = (h: ReturnType<typeof holdPdf>) =>
    drawFirstPageOffScreen(h.opened, () => live).catch(() => undefined); // the viewer says what fails
  if (kindFromMimeType(mimeType)?.kind === 'pdf') void draw((held = holdPdf(file)));
  else
    void documentKind(file, mimeType)
      .then((detected) => {
        if (live && detected.kind === 'pdf') void draw((held = holdPdf(file)));
      })
      .catch(() => undefined);
  return () => {
    live = false;
    held?.release();
  };
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
