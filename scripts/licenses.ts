/**
 * `npm run licenses`: the licence of every production dependency (package-lock.json), with the verdict
 * of scripts/licenses/policy.ts; exits with 1 when one is GPL, AGPL, LGPL not allowed, or unknown.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { auditProject, formatReport, violations } from './licenses/audit';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const rows = auditProject(root);
console.log(formatReport(rows));
process.exitCode = violations(rows).length > 0 ? 1 : 0;
