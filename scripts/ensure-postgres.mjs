#!/usr/bin/env node
// The review store's tests run on a real PostgreSQL server they start themselves
// (packages/test-kit/src/review/postgres-cluster.ts) from Debian's server binaries. Install them when
// missing: directly as root, else through sudo, else explain what to run. TEST_DATABASE_URL (an
// existing server) needs no binaries here.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

const ROOT = '/usr/lib/postgresql';
// Debian's package would create and start its own cluster on port 5432; the tests need none, so
// this drop-in turns that off while installing (postgresql-common reads createcluster.d).
const NO_MAIN_CLUSTER = '/etc/postgresql-common/createcluster.d/zz-ensure-postgres-no-main-cluster.conf';

const serverBinDirs = () =>
  (existsSync(ROOT) ? readdirSync(ROOT) : [])
    .map((version) => path.join(ROOT, version, 'bin'))
    .filter((bin) => ['initdb', 'pg_ctl', 'postgres'].every((tool) => existsSync(path.join(bin, tool))));

if (process.env.TEST_DATABASE_URL?.trim()) process.exit(0);
if (serverBinDirs().length > 0) process.exit(0);

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
    `No PostgreSQL server binaries (${ROOT}/<version>/bin/initdb, pg_ctl, postgres). ` +
      "Install Debian's package first:\n" +
      '  sudo apt-get update && sudo apt-get install -y --no-install-recommends postgresql\n' +
      '(the tests start their own throw-away server; or set TEST_DATABASE_URL to the superuser URL of an\n' +
      'existing PostgreSQL 13+ server).',
  );
  process.exit(1);
}

const run = (args) => {
  const [cmd, ...rest] = isRoot ? args : ['sudo', '-n', ...args];
  console.log(`$ ${[cmd, ...rest].join(' ')}`);
  execFileSync(cmd, rest, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
};

console.log(`PostgreSQL server binaries are missing under ${ROOT}; installing Debian's postgresql package…`);
try {
  run(['mkdir', '-p', path.dirname(NO_MAIN_CLUSTER)]);
  run(['sh', '-c', `echo 'create_main_cluster = false' > '${NO_MAIN_CLUSTER}'`]);
  run(['apt-get', 'update']);
  run(['apt-get', 'install', '-y', '--no-install-recommends', 'postgresql']);
} catch (error) {
  console.error(`Installing PostgreSQL failed: ${error.message}`);
  process.exitCode = 1;
} finally {
  // Later installs (another PostgreSQL version) behave as Debian intends again.
  try {
    run(['rm', '-f', NO_MAIN_CLUSTER]);
  } catch {
    console.error(`Could not remove ${NO_MAIN_CLUSTER}; remove it by hand.`);
  }
}
if (process.exitCode) process.exit(process.exitCode);

const installed = serverBinDirs();
if (installed.length === 0) {
  console.error(`apt-get finished but no ${ROOT}/<version>/bin/initdb, pg_ctl and postgres exist.`);
  process.exit(1);
}
console.log(`PostgreSQL server binaries installed in ${installed.join(', ')}.`);
