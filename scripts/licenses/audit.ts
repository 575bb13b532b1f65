/**
 * The licence verdict on every production package, and the report `npm run licenses` prints.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { productionPackages, type ProductionPackage } from './lockfile';
import { checkLicence, isViolation, type LicenceCheck, type Verdict } from './policy';

export type AuditRow = ProductionPackage & LicenceCheck;

export function auditLicences(packages: readonly ProductionPackage[]): AuditRow[] {
  return packages.map((pkg) => ({ ...pkg, ...checkLicence(pkg.name, pkg.licence) }));
}

/** The production packages of the project at `root`, from its package-lock.json (and node_modules). */
export function auditProject(root: string): AuditRow[] {
  const lock: unknown = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8'));
  const readManifest = (lockPath: string): unknown => {
    const file = path.join(root, lockPath, 'package.json');
    return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined;
  };
  return auditLicences(productionPackages(lock, readManifest));
}

export const violations = (rows: readonly AuditRow[]): AuditRow[] =>
  rows.filter((r) => isViolation(r.verdict));

const LABEL: Record<Verdict, string> = {
  permitted: 'ok',
  allowlisted: 'ok (LGPL, allowed)',
  unknown: 'UNKNOWN',
  forbidden: 'FORBIDDEN',
};

/**
 * A table, one row per name and version (a package nested in several places is listed once), sorted by
 * name; then why anything not plainly permissive passed or failed, one line per reason.
 */
export function formatReport(rows: readonly AuditRow[]): string {
  const byKey = new Map(rows.map((r) => [`${r.name}@${r.version}`, r]));
  const unique = [...byKey.values()].sort(
    (a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version),
  );
  const table = [
    ['package', 'version', 'licence', 'verdict'],
    ...unique.map((r) => [r.name, r.version, r.licence ?? '(none)', LABEL[r.verdict]]),
  ];
  const widths =
    table[0]?.map((_, column) => Math.max(...table.map((row) => row[column]?.length ?? 0))) ?? [];
  const lines = table.map((row) =>
    row
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd(),
  );
  const reasons = new Map<string, string[]>();
  for (const r of unique.filter((r) => r.verdict !== 'permitted')) {
    const key = `${LABEL[r.verdict]}: ${r.reason ?? ''}`;
    reasons.set(key, [...(reasons.get(key) ?? []), r.name]);
  }
  const notes = [...reasons].map(([reason, names]) => `  ${names.join(', ')}\n    ${reason}`);
  const count = (verdict: Verdict): number => unique.filter((r) => r.verdict === verdict).length;
  const summary =
    `${unique.length} production packages: ${count('permitted')} permissive, ${count('allowlisted')} LGPL allowed, ` +
    `${count('forbidden')} forbidden, ${count('unknown')} unknown.`;
  return [
    ...lines,
    '',
    ...(notes.length > 0 ? ['Not plainly permissive:', ...notes, ''] : []),
    summary,
    violations(unique).length > 0
      ? 'Licence check FAILED: production dependencies may not be GPL, AGPL, LGPL not allowed, or of an unknown licence (README, "Licence").'
      : 'Licence check passed.',
  ].join('\n');
}
