/**
 * For tests: a fresh review store on each engine it supports, SQLite in a temp folder and a new
 * database on the test run's real PostgreSQL server (packages/test-kit/src/review/).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createTestDatabase } from './test-database';
import type { Engine } from '@extraction-review/app-server/review/db/migrations';
import {
  openReviewDatabase,
  type ReviewDatabase,
} from '@extraction-review/app-server/review/db/open-database';

export const ENGINES: readonly Engine[] = ['sqlite', 'postgres'];

export interface TestStore {
  database: ReviewDatabase;
  /** The settings that open the same store again (another connection, another process). */
  settings: { databaseUrl?: string; dataDir: string };
  cleanup(): Promise<void>;
}

export async function openTestStore(
  engine: Engine,
  options: { maxConnections?: number } = {},
): Promise<TestStore> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'review-store-'));
  const postgres = engine === 'postgres' ? await createTestDatabase() : undefined;
  const settings = { databaseUrl: postgres?.url, dataDir };
  const database = await openReviewDatabase({ ...settings, maxConnections: options.maxConnections });
  return {
    database,
    settings,
    cleanup: async () => {
      await database.close();
      await postgres?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
