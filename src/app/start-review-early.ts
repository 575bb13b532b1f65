/**
 * Run first (the app's small entry, main.tsx, runs it before it loads the app): on an address that
 * opens a review, the pdf.js worker starts and the viewer's code is fetched while the app's own code
 * is still being fetched, parsed and run, the session checked and the job fetched (bare pdf.js
 * pages start their worker first too).
 */
import { preloadDocumentViewer } from '../features/review/viewer/preload';
import { opensReview } from './review-paths';

if (typeof location !== 'undefined' && opensReview(location.pathname)) preloadDocumentViewer();
