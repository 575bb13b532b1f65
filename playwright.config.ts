import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';

const appPort = Number(process.env.E2E_PORT ?? 4180);
const referencePort = Number(process.env.E2E_REFERENCE_PORT ?? 4181);
// A fresh data directory per run, so that tests never see an earlier run's jobs.
const dataDir = path.join(os.tmpdir(), `extraction-review-e2e-${process.pid}`);

export default defineConfig({
  testDir: './e2e',
  outputDir: './test-results',
  workers: 1,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 60_000,
  reporter: [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }]],
  use: {
    baseURL: `http://127.0.0.1:${appPort}`,
    trace: 'retain-on-failure',
    screenshot: 'on',
  },
  projects: [
    {
      name: 'debian-chromium',
      use: {
        ...devices['Desktop Chrome'],
        viewport: { width: 1440, height: 960 },
        launchOptions: {
          // Debian's Chromium, never a downloaded browser.
          executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-dev-shm-usage',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
            '--disable-quic',
            '--no-first-run',
          ],
        },
      },
    },
  ],
  webServer: {
    // The real app server with the embedded reference service: no request is mocked.
    command: 'node_modules/.bin/tsx server/main.ts',
    url: `http://127.0.0.1:${appPort}/api/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'pipe',
    env: {
      HOST: '127.0.0.1',
      PORT: String(appPort),
      REFERENCE_PORT: String(referencePort),
      REFERENCE_API_KEY: 'e2e-reference-key',
      REFERENCE_DATA_DIR: dataDir,
      // Never a real upstream, whatever the caller's environment says.
      UPSTREAM_V2_URL: '',
      UPSTREAM_V2_API_KEY: '',
      UPSTREAM_V1_URL: '',
      UPSTREAM_V1_API_KEY: '',
    },
  },
});
