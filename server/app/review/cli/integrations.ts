/**
 * `npm run integrations -- <command>`: manages the pipelines that send documents through the app
 * server's /v2 and /v1 (`npm run integrations -- help`). The work is in ./integrations-command.ts.
 */
import { loadDotEnv } from './cli-support';
import { runIntegrationsCommand } from './integrations-command';

process.exitCode = loadDotEnv()
  ? await runIntegrationsCommand(process.argv.slice(2), {
      stdout: process.stdout,
      stderr: process.stderr,
      env: process.env,
    })
  : 1;
