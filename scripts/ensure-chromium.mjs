#!/usr/bin/env node
// End-to-end tests drive Debian's Chromium (never a downloaded browser). Install it when missing:
// directly as root, else through sudo, else explain what to run.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (existsSync(chromium)) process.exit(0);

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const hasSudo = (() => {
  try {
    execFileSync('sudo', ['-n', 'true'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

if (!isRoot && !hasSudo) {
  console.error(
    `Chromium is not installed at ${chromium}. Install Debian's package first:\n` +
      '  sudo apt-get update && sudo apt-get install -y chromium\n' +
      '(or set CHROMIUM_PATH to an existing Chromium binary).',
  );
  process.exit(1);
}

const run = (args) => {
  const [cmd, ...rest] = isRoot ? args : ['sudo', '-n', ...args];
  execFileSync(cmd, rest, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
};
console.log(`Chromium is missing at ${chromium}; installing Debian's chromium package…`);
run(['apt-get', 'update']);
run(['apt-get', 'install', '-y', '--no-install-recommends', 'chromium']);
if (!existsSync(chromium)) {
  console.error(`apt-get finished but ${chromium} still does not exist.`);
  process.exit(1);
}
