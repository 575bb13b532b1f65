#!/usr/bin/env node
// The review store's tests run on a real PostgreSQL server they start themselves
// (packages/test-kit/src/review/postgres-cluster.ts) from Debian's server binaries. Install them when
// missing. TEST_DATABASE_URL (an existing server) needs no binaries here.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { installDebianPackage, runAsRoot } from './debian-package.mjs';

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

installDebianPackage('postgresql', {
  missing:
    `No PostgreSQL server binaries (${ROOT}/<version>/bin/initdb, pg_ctl, postgres); the tests start their ` +
    'own throw-away server (or set TEST_DATABASE_URL to the superuser URL of an existing PostgreSQL 13+).',
  prepare: () => {
    runAsRoot(['mkdir', '-p', path.dirname(NO_MAIN_CLUSTER)]);
    runAsRoot(['sh', '-c', `echo 'create_main_cluster = false' > '${NO_MAIN_CLUSTER}'`]);
  },
  // Later installs (another PostgreSQL version) behave as Debian intends again.
  cleanUp: () => {
    try {
      runAsRoot(['rm', '-f', NO_MAIN_CLUSTER]);
    } catch {
      console.error(`Could not remove ${NO_MAIN_CLUSTER}; remove it by hand.`);
    }
  },
});

const installed = serverBinDirs();
if (installed.length === 0) {
  console.error(`apt-get finished but no ${ROOT}/<version>/bin/initdb, pg_ctl and postgres exist.`);
  process.exit(1);
}
console.log(`PostgreSQL server binaries installed in ${installed.join(', ')}.`);
