#!/usr/bin/env node
// End-to-end tests drive Debian's Chromium (never a downloaded browser). Install it when missing.
import { existsSync } from 'node:fs';
import { installDebianPackage } from './debian-package.mjs';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (existsSync(chromium)) process.exit(0);

installDebianPackage('chromium', {
  missing: `Chromium is not installed at ${chromium} (or set CHROMIUM_PATH to an existing Chromium binary).`,
});
if (!existsSync(chromium)) {
  console.error(`apt-get finished but ${chromium} still does not exist.`);
  process.exit(1);
}
