/**
 * The app itself, loaded by main.tsx once the review's worker has started. First here, on a review's
 * address, the review's data is asked for (the app's query client takes it over).
 */
import './zod-config';
import './review-data-early';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { preloadPageFor } from './pages';

export function boot(root: HTMLElement): Promise<void> {
  // The page of the address is loaded before the first render, which then draws it at once: no
  // spinner, and no wait for React to reveal a suspended page (it holds reveals back up to 300 ms).
  return preloadPageFor(location.pathname).then(() =>
    createRoot(root).render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  );
}
