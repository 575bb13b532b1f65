#!/usr/bin/env node
// The deployment journey (e2e/behind-nginx.spec.ts) starts nginx itself, in the foreground, with the
// example site of deploy/nginx/. Install Debian's nginx when missing, without letting the package start
// its own service: policy-rc.d says "do not start services" while installing (a container image that
// has one already keeps it as it is).
import { existsSync } from 'node:fs';
import { installDebianPackage, runAsRoot } from './debian-package.mjs';

const NGINX = '/usr/sbin/nginx';
const POLICY = '/usr/sbin/policy-rc.d';
if (existsSync(NGINX)) process.exit(0);

let addedPolicy = false;
installDebianPackage('nginx', {
  missing: `nginx is not installed at ${NGINX} (the deployment journey runs the example site).`,
  prepare: () => {
    if (existsSync(POLICY)) return;
    runAsRoot(['sh', '-c', `printf '#!/bin/sh\\nexit 101\\n' > ${POLICY} && chmod +x ${POLICY}`]);
    addedPolicy = true;
  },
  cleanUp: () => {
    if (addedPolicy) runAsRoot(['rm', '-f', POLICY]);
  },
});
if (!existsSync(NGINX)) {
  console.error(`apt-get finished but ${NGINX} still does not exist.`);
  process.exit(1);
}
