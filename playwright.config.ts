import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';

// Chosen once per run in the main process and inherited by the workers through the environment:
// ports and directories of their own, so that two runs on one machine do not collide.
const runId = (process.env.E2E_RUN_ID ??= `${process.pid}`);
const appPort = Number((process.env.E2E_PORT ??= String(20000 + (Number(runId) % 20000))));
const referencePort = Number((process.env.E2E_REFERENCE_PORT ??= String(appPort + 1)));
// A fresh data directory per run, so that tests never see an earlier run's jobs.
const dataDir = path.join(os.tmpdir(), `extraction-review-e2e-${runId}`);
// The app is built for each run into its own folder, which the app server then serves.
const distDir = path.join(os.tmpdir(), `extraction-review-e2e-dist-${runId}`);

/** This run's operator, signed in by e2e/auth.setup.ts (e2e/support/team.ts names the same file). */
const OPERATOR_STATE = path.join(os.tmpdir(), `extraction-review-e2e-auth-${runId}.json`);

/** Debian's Chromium, never a downloaded browser, with the options every project shares. */
const chromium = {
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
      // A name that resolves to this machine, as a DNS-rebinding attacker's would
      // (e2e/cross-site.spec.ts); nothing else is resolved differently.
      '--host-resolver-rules=MAP rebind.test 127.0.0.1',
    ],
  },
};

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
    // A click on something that never comes fails at its own line, not at the test's timeout: CI
    // shows only the error, and a journey whose time ran out is reported at its last call.
    actionTimeout: 45_000,
    navigationTimeout: 45_000,
  },
  projects: [
    // Signs an operator in once (e2e/auth.setup.ts); the journeys start signed in as them.
    { name: 'sign-in', testMatch: /auth\.setup\.ts$/, use: chromium },
    {
      name: 'debian-chromium',
      dependencies: ['sign-in'],
      use: { ...chromium, storageState: OPERATOR_STATE },
    },
  ],
  webServer: {
    // The real app server with the embedded reference service: no request is mocked.
    command: `node_modules/.bin/vite build --logLevel warn --outDir ${distDir} --emptyOutDir && node_modules/.bin/tsx server/main.ts`,
    url: `http://127.0.0.1:${appPort}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'pipe',
    env: {
      HOST: '127.0.0.1',
      PORT: String(appPort),
      // Warnings and errors only: an access line per request would bury a failing journey's output.
      LOG_LEVEL: 'warn',
      REFERENCE_PORT: String(referencePort),
      REFERENCE_API_KEY: 'e2e-reference-key',
      REFERENCE_DATA_DIR: dataDir,
      // The review store too: embedded, in this run's own folder (never a DATABASE_URL inherited).
      APP_DATA_DIR: path.join(dataDir, 'app'),
      DATABASE_URL: '',
      STATIC_DIR: distDir,
      // Never a real upstream, whatever the caller's environment says.
      UPSTREAM_V2_URL: '',
      UPSTREAM_V2_API_KEY: '',
      UPSTREAM_V1_URL: '',
      UPSTREAM_V1_API_KEY: '',
      // Job events: the embedded reference service gets a webhook to this app server on every model,
      // with a secret made at start (server/main.ts); nothing to set, and nothing inherited.
      WEBHOOK_V2_SECRET: '',
      WEBHOOK_V2_IDS: '',
      // Integrations' webhooks go to receivers the journeys start on this machine (gateway-journey).
      ALLOW_PRIVATE_WEBHOOKS: '127.0.0.1',
      // Rate limits in 2-second windows, so that a journey meets 429s, and the app's waiting for
      // Retry-After, within seconds: 6 POSTs (enqueues, RAG documents) per window and key, which
      // one journey's single upload never reaches and several files sent at once do. GETs (polling,
      // results) stay far from their budget: 300 per window is 9,000 a minute.
      REFERENCE_RATE_LIMIT_WINDOW_MS: '2000',
      REFERENCE_RATE_LIMIT_POST_PER_MINUTE: '6',
      REFERENCE_RATE_LIMIT_GET_PER_MINUTE: '300',
    },
  },
});
