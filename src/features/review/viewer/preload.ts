/**
 * Starts loading the viewer (and pdf.js with its worker) ahead of need: call it when a job's page
 * opens, so the code arrives while the job and its result are still being fetched. The same chunk
 * the review's `lazy(() => import('./viewer/document-viewer'))` loads.
 */
export function preloadDocumentViewer(): void {
  void import('./document-viewer');
}
