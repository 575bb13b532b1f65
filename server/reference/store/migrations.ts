/**
 * Schema versions per component in one SQLite database. Each part of the service that keeps its own
 * tables in the shared database (jobs here; webhook deliveries, the RAG store) names itself and lists
 * its migrations: a migration, once shipped, is never edited; later ones are appended.
 *
 * The jobs tables predate this table and keep their version in `PRAGMA user_version`
 * (sqlite-job-store.ts); every other component uses `applyMigrations`.
 */
import type Database from 'better-sqlite3';

export function applyMigrations(
  db: Database.Database,
  component: string,
  migrations: readonly string[],
): void {
  db.exec(
    `CREATE TABLE IF NOT EXISTS schema_versions (
       component TEXT PRIMARY KEY,
       version   INTEGER NOT NULL
     )`,
  );
  db.transaction(() => {
    const row = db
      .prepare<[string], { version: number }>('SELECT version FROM schema_versions WHERE component = ?')
      .get(component);
    const version = row?.version ?? 0;
    if (version > migrations.length) {
      throw new Error(
        `The database schema of ${component} (version ${version}) is newer than this reference service ` +
          `(${migrations.length}).`,
      );
    }
    migrations.slice(version).forEach((sql) => db.exec(sql));
    db.prepare(
      `INSERT INTO schema_versions (component, version) VALUES (?, ?)
       ON CONFLICT (component) DO UPDATE SET version = excluded.version`,
    ).run(component, migrations.length);
  })();
}
