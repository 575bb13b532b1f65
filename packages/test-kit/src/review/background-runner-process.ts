/**
 * For the kill test (background/killed-runner.test.ts): a background runner alone in a child process,
 * on the store named by BACKGROUND_RUNNER_OPTIONS (JSON: the store's settings, the clock's time, the
 * lease), whose one handler (kind `test`) never ends. It sends { type: 'running', key, owner } once it
 * holds a job, and waits there to be killed.
 */
import { BackgroundRunner } from '@extraction-review/app-server/review/background/job-runner';
import { openReviewDatabase } from '@extraction-review/app-server/review/db/open-database';

export interface BackgroundRunnerOptions {
  store: { databaseUrl?: string | undefined; dataDir: string };
  now: number;
  leaseMs: number;
}

export type BackgroundRunnerMessage = { type: 'running'; key: string; owner: string };

const options = JSON.parse(process.env.BACKGROUND_RUNNER_OPTIONS ?? '{}') as BackgroundRunnerOptions;
const database = await openReviewDatabase({ ...options.store, report: () => undefined });
const runner = new BackgroundRunner({
  name: '[test] the runner to be killed',
  database,
  clock: { now: () => options.now },
  handlers: [
    {
      kind: 'test',
      leaseMs: options.leaseMs,
      run: ({ key, owner }) =>
        new Promise(() => {
          process.send?.({ type: 'running', key, owner } satisfies BackgroundRunnerMessage);
        }),
    },
  ],
});
await runner.pass();
