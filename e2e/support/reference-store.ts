/**
 * What the embedded reference service holds, read from its own database (read-only): how a journey
 * proves that a refused request created no job upstream. The data directory is the one
 * playwright.config.ts gives the service for this run.
 */
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';

function referenceDatabase(): string {
  const runId = process.env.E2E_RUN_ID;
  if (runId === undefined)
    throw new Error('E2E_RUN_ID is unset: run the journeys through playwright.config.ts');
  return path.join(os.tmpdir(), `extraction-review-e2e-${runId}`, 'reference.sqlite');
}

/** Every job the reference service has been given, v2 and v1. */
export function countReferenceJobs(): number {
  const db = new Database(referenceDatabase(), { readonly: true, fileMustExist: true });
  try {
    const count = (table: string) =>
      (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    return count('jobs') + count('v1_jobs');
  } finally {
    db.close();
  }
}
