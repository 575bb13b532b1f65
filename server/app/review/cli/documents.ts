/**
 * `npm run documents -- <command>`: the review store's documents (`npm run documents -- help` lists
 * the commands). The work is in ./documents-command.ts; this file only hands it the process.
 */
import { loadDotEnv } from './cli-support';
import { runDocumentsCommand } from './documents-command';

process.exitCode = loadDotEnv()
  ? await runDocumentsCommand(process.argv.slice(2), {
      stdout: process.stdout,
      stderr: process.stderr,
      env: process.env,
    })
  : 1;
