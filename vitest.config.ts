import { availableParallelism } from 'node:os';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [react()],
  test: {
    // Vitest's default is one worker fewer than the cores: one worker on a 2-core machine such as CI's,
    // while most server tests wait on the servers and the PostgreSQL they start. One per core: the whole
    // run measured 800 s instead of 1,134 here on 2 cores, every test green.
    maxWorkers: Math.max(2, availableParallelism()),
    projects: [
      {
        extends: true,
        test: {
          name: 'app',
          environment: 'jsdom',
          globals: true,
          setupFiles: ['./src/test-setup.ts'],
          include: ['src/**/*.test.{ts,tsx}'],
          exclude: ['src/api/**', 'src/**/*.server.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          globals: true,
          include: [
            'src/api/**/*.test.ts',
            'src/**/*.server.test.ts',
            'packages/**/*.test.ts',
            'server/**/*.test.ts',
            'scripts/**/*.test.ts',
          ],
          // One throw-away PostgreSQL server for the run (or TEST_DATABASE_URL): inject('postgresUrl').
          globalSetup: ['./packages/test-kit/src/review/postgres-global-setup.ts'],
          // A guard against hangs, not a speed check: a CI run once stalled ~100 s (every test of that
          // stretch 10–30 times slower than alone), and two healthy 2-second tests hit a 60 s limit.
          testTimeout: 180_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
