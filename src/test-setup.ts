import '@testing-library/jest-dom/vitest';
import { configure } from '@testing-library/react';

// findBy*/waitFor give up after 1 s by default: on a loaded two-core machine a render that takes 1.2 s
// fails a test that is right. A guard against hangs, not a speed check (the unit tests' limit is 180 s).
configure({ asyncUtilTimeout: 10_000 });
