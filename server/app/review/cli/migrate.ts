/**
 * `npm run migrate [-- --check]`: applies the review store's pending migrations on their own (a
 * deployment's one-off step per release, docs/operations.md). The work is in ./migrate-command.ts.
 */
import { loadDotEnv } from './cli-support';
import { runMigrateCommand } from './migrate-command';

process.exitCode = loadDotEnv()
  ? await runMigrateCommand(process.argv.slice(2), {
      stdout: process.stdout,
      stderr: process.stderr,
      env: process.env,
    })
  : 1;
