/**
 * `npm run files -- <command>`: the review store's kept files (`npm run files -- help` lists the
 * commands). The work is in ./files-command.ts; this file only hands it the process.
 */
import { loadDotEnv } from './cli-support';
import { runFilesCommand } from './files-command';

process.exitCode = loadDotEnv()
  ? await runFilesCommand(process.argv.slice(2), {
      stdout: process.stdout,
      stderr: process.stderr,
      env: process.env,
    })
  : 1;
