// The entry holds only what must start first: on a review's address, pdf.js's worker and the
// viewer's code start loading at once, not after the app's hundreds of kilobytes have been fetched,
// parsed and run (a graph of modules runs only once all of it has arrived and been parsed).
import './app/start-review-early';
import './index.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

import('./app/boot')
  .then(({ boot }) => boot(root))
  .catch((error: unknown) => {
    // Nothing of the app to show it with: said in plain text.
    console.error('The app could not be loaded', error);
    root.textContent =
      'The app could not be loaded from its server (the connection dropped, or the app was updated). Reload the page to try again.';
  });
