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
          exclude: ['src/api/**'],
        },
      },
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          globals: true,
          include: ['src/api/**/*.test.ts', 'server/**/*.test.ts', 'scripts/**/*.test.ts'],
          // One throw-away PostgreSQL server for the run (or TEST_DATABASE_URL): inject('postgresUrl').
          globalSetup: ['./server/review/testing/postgres-global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
