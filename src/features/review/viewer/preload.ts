import { useEffect } from 'react';
import { pdfWorkerPort } from '../../../lib/pdf-worker';
import type DocumentViewer from './document-viewer';

interface ViewerModule {
  default: typeof DocumentViewer;
}

let loading: Promise<ViewerModule> | undefined;
let loaded: ViewerModule | undefined;

function loadViewer(): Promise<ViewerModule> {
  loading ??= import('./document-viewer').then(
    (viewer) => (loaded = viewer),
    (error: unknown) => {
      loading = undefined; // asked again by the next render
      throw error;
    },
  );
  return loading;
}

/**
 * Starts loading the viewer (and pdf.js with its worker) ahead of need: call it when a job's page
 * opens, so the code arrives while the job and its result are still being fetched. The same chunk
 * the review's `lazy(documentViewerForLazy)` loads.
 */
export function preloadDocumentViewer(): void {
  pdfWorkerPort();
  void loadViewer().catch(() => undefined);
}

/**
 * The viewer's module for React's `lazy`. Once loaded (preloaded, as it usually is by the time a
 * result arrives), a thenable that calls back at once, which `lazy` reads without suspending: a
 * suspended boundary would show its fallback and then hold the loaded viewer back for up to 300 ms
 * (React throttles Suspense reveals, FALLBACK_THROTTLE_MS in react-dom), page 1 with it.
 */
export function documentViewerForLazy(): Promise<ViewerModule> {
  const viewer = loaded;
  if (!viewer) return loadViewer();
  const fulfilled = {
    then(onFulfilled?: (value: ViewerModule) => unknown) {
      onFulfilled?.(viewer);
      return fulfilled;
    },
  };
  return fulfilled as unknown as Promise<ViewerModule>;
}

/**
 * Opens the review's document as soon as it is known, while what the review waits for (the job, its
 * result, the queued document) is still being fetched: its kind told and, for a PDF, pdf.js's
 * document and page 1 read (open-ahead.ts), for the viewer to draw in its first render. The returned
 * function lets go of it.
 */
export function openDocumentAhead(file: Blob, mimeType: string | null | undefined): () => void {
  let live = true;
  let release: (() => void) | undefined;
  preloadDocumentViewer();
  void import('./open-ahead').then(({ openAhead }) => {
    if (live) release = openAhead(file, mimeType ?? undefined);
  });
  return () => {
    live = false;
    release?.();
  };
}

/** openDocumentAhead from a route: let go of when it unmounts or the file changes. */
export function useOpenDocumentAhead(
  file: Blob | null | undefined,
  mimeType: string | null | undefined,
): void {
  useEffect(() => (file ? openDocumentAhead(file, mimeType) : undefined), [file, mimeType]);
}

/**
 * The next document of the queue, while the current one is reviewed: opened ahead, and for a PDF its
 * page 1 drawn once off-screen (open-ahead.ts), so that the viewer paints it at once when the review
 * moves on to it. The returned function lets go of it (pdf.js keeps it open a few seconds more, for
 * the viewer to take over).
 */
export function drawDocumentAhead(file: Blob, mimeType: string | null | undefined): () => void {
  let live = true;
  let release: (() => void) | undefined;
  preloadDocumentViewer();
  void import('./open-ahead').then(({ openAndDrawAhead }) => {
    if (live) release = openAndDrawAhead(file, mimeType ?? undefined);
  });
  return () => {
    live = false;
    release?.();
  };
}
