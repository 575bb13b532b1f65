// First: a review's pdf.js worker and viewer start loading while the app's code runs.
import './app/start-review-early';
import './app/zod-config';
// Then, on a review's address, its data is asked for (the app's query client takes it over).
import './app/review-data-early';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import './index.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
