/**
 * `npm run operators -- <command>`: manages the review store's operators (`npm run operators -- help`
 * lists the commands). The work is in ./operators-command.ts; this file only hands it the process.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../../config';
import { runOperatorsCommand } from './operators-command';

/** The repository's .env, as the server reads it (server/main.ts): the environment itself wins. */
function loadDotEnv(): boolean {
  const envFile = path.join(repoRoot, '.env');
  try {
    if (existsSync(envFile)) process.loadEnvFile(envFile);
    return true;
  } catch (error) {
    console.error(`Cannot read ${envFile}: ${error instanceof Error ? error.message : String(error)}`);
    return false;
  }
}

process.exitCode = loadDotEnv()
  ? await runOperatorsCommand(process.argv.slice(2), {
      stdin: process.stdin,
      stdout: process.stdout,
      stderr: process.stderr,
      env: process.env,
    })
  : 1;
