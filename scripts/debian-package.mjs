// Installing a Debian package the tests need (Chromium, PostgreSQL's server, nginx) when it is
// missing: directly as root, else through sudo, else an explanation of what to run. One place for the
// three ensure-* scripts, so that `npm ci && npm test` sets up a fresh Debian machine by itself.
import { execFileSync } from 'node:child_process';

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

function hasSudo() {
  try {
    execFileSync('sudo', ['-n', 'true'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Runs a command as root (sudo when not root), echoing it. */
export function runAsRoot(args) {
  const [cmd, ...rest] = isRoot ? args : ['sudo', '-n', ...args];
  console.log(`$ ${[cmd, ...rest].join(' ')}`);
  execFileSync(cmd, rest, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
}

/**
 * apt-get installs `pkg`. Without root or sudo, prints `missing` and how to install it by hand, and
 * exits 1. `prepare` and `cleanUp` run as root around the install (cleanUp even when it failed).
 */
export function installDebianPackage(pkg, { missing, prepare = () => {}, cleanUp = () => {} }) {
  if (!isRoot && !hasSudo()) {
    console.error(
      `${missing} Install Debian's package first:\n` +
        `  sudo apt-get update && sudo apt-get install -y --no-install-recommends ${pkg}`,
    );
    process.exit(1);
  }
  console.log(`${missing} Installing Debian's ${pkg} package…`);
  try {
    prepare();
    runAsRoot(['apt-get', 'update']);
    runAsRoot(['apt-get', 'install', '-y', '--no-install-recommends', pkg]);
  } catch (error) {
    console.error(`Installing ${pkg} failed: ${error.message}`);
    process.exitCode = 1;
  } finally {
    cleanUp();
  }
  if (process.exitCode) process.exit(process.exitCode);
}
