/**
 * `npm run operators -- <command>`: manages the review store's operators (`npm run operators -- help`
 * lists the commands). The work is in ./operators-command.ts; this file only hands it the process.
 */
import { loadDotEnv } from './cli-support';
import { runOperatorsCommand } from './operators-command';

process.exitCode = loadDotEnv()
  ? await runOperatorsCommand(process.argv.slice(2), {
      stdin: process.stdin,
      stdout: process.stdout,
      stderr: process.stderr,
      env: process.env,
    })
  : 1;
