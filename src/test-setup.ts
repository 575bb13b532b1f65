import '@testing-library/jest-dom/vitest';
import { configure } from '@testing-library/react';

// findBy* and waitFor give up after 1 s by default: a bound on the machine's speed, which a loaded
// full run exceeded (rule-review.test.tsx's first render, on Node 20 and 24 alike). A guard against a
// hang instead, as the test time-out is; a test that passes waits no longer.
configure({ asyncUtilTimeout: 10_000 });
