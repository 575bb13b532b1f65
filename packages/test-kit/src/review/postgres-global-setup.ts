/**
 * Vitest globalSetup of the `node` project: one PostgreSQL server for the whole run, its superuser
 * URL handed to the test files as `inject('postgresUrl')` (createTestDatabase in ./test-database
 * makes a fresh database on it per test or file).
 *
 * TEST_DATABASE_URL (a superuser URL of an existing PostgreSQL 13+ server) skips starting one.
 */
import type { TestProject } from 'vitest/node';
import { startPostgresCluster } from './postgres-cluster';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A PostgreSQL superuser URL: the throw-away test server's, or TEST_DATABASE_URL. */
    postgresUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const external = process.env.TEST_DATABASE_URL?.trim();
  if (external) {
    project.provide('postgresUrl', external);
    return undefined;
  }
  const cluster = await startPostgresCluster();
  project.provide('postgresUrl', cluster.url);
  return () => cluster.stop();
}
