import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [react()],
  test: {
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
