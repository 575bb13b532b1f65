/**
 * FILE_STORAGE=database (the default with DATABASE_URL): documents' files in the review store itself,
 * so that every app-server copy of one PostgreSQL reads them, on whatever machine it runs, and one
 * backup of the database holds documents and files together. Works on the embedded SQLite too.
 *
 * A file is a header row (`kept_files`) and its bytes in order in rows of 256 KiB (`kept_file_chunks`:
 * `bytea` / `blob`). It is streamed in and out a chunk at a time, never whole in memory: `save` fills
 * one 256 KiB buffer from the stream and inserts it, `open` reads a few chunks ahead as the reader
 * takes them.
 *
 * "Written in the same transaction as its document" (issue 19), and how it is met: a file streams in
 * while its upload goes upstream, and its document's row can only be written once the upstream has
 * answered (seconds to minutes later), by the intake's own transaction. One transaction around both
 * would hold the store's write lock (SQLite) or a connection and a long transaction (PostgreSQL) for
 * the whole upload, and a 100 MB write in one transaction blocks every other writer on SQLite. So the
 * file is written in its own short transactions and made visible atomically, which gives the same
 * outcomes:
 * - the header is `writing` until the last chunk is in; one statement then makes it `complete` with
 *   its size and SHA-256, and `save` resolves after that commit (durable: PostgreSQL's commit; SQLite
 *   in WAL mode survives the process's crash). Only a complete file opens, so no reader ever sees part
 *   of one, and a document row is only ever written naming a complete file (the intake writes it after
 *   `save` resolved);
 * - a crash mid-write leaves a `writing` header whose writer's heartbeat (every 10 s while it writes)
 *   stops: the sweep removes it, with its chunks, once the heartbeat is 2 minutes old (never while its
 *   writer lives, as a `.part` on disk);
 * - a crash between the file's commit and its document's leaves a complete file no document names,
 *   removed by the sweep once older than the grace (an hour), as on disk.
 * Nothing is left that is never cleaned up, and nothing is visible that its document does not name.
 */
import { createHash, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { sql } from 'kysely';
import type { ReviewDatabase } from '../db/open-database';
import {
  assertFileKey,
  FILE_KEY,
  type KeptFileStorage,
  type StorageSweep,
  type StorageSweepOptions,
  type StoredFile,
} from './file-storage';
import { keptFilesDb } from '../db/kept-files-schema';
import { THIS_PROCESS } from './process-mark';
import { KEY_BATCH } from './unnamed-keys';
import { systemClock, type Clock } from '@extraction-review/server-kit/clock';
import { componentLogger } from '@extraction-review/server-kit/logger';

const logger = componentLogger('review files');

/** Bytes per chunk row: large enough for few rows (400 for 100 MB), small enough to stream. */
export const CHUNK_BYTES = 256 * 1024;
/** Chunks read per statement by `open`: what a reader may have buffered ahead (1 MiB). */
const READ_AHEAD = 4;
export const HEARTBEAT_MS = 10_000;
/** A `writing` file whose heartbeat is older than this has lost its writer. */
export const STALE_WRITE_MS = 2 * 60_000;

export interface DatabaseFileStorageOptions {
  chunkBytes?: number;
  heartbeatMs?: number;
  staleWriteMs?: number;
  /**
   * The clock of the heartbeats and completion times; default the system's. open-review.ts leaves it
   * so, whatever clock the store is given: the sweep of orphans compares these with the wall clock,
   * as it does files' mtimes and S3's LastModified (open-review.ts). Tests give their own.
   */
  clock?: Clock;
}

const WRITER = `${THIS_PROCESS.host}.${THIS_PROCESS.pid}.${THIS_PROCESS.start}`;

export class DatabaseFileStorage implements KeptFileStorage {
  readonly kind = 'database';
  private readonly chunkBytes: number;
  private readonly heartbeatMs: number;
  private readonly staleWriteMs: number;
  private readonly clock: Clock;

  constructor(
    private readonly database: ReviewDatabase,
    options: DatabaseFileStorageOptions = {},
  ) {
    this.chunkBytes = options.chunkBytes ?? CHUNK_BYTES;
    this.heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
    this.staleWriteMs = options.staleWriteMs ?? STALE_WRITE_MS;
    this.clock = options.clock ?? systemClock;
  }

  private get db() {
    return keptFilesDb(this.database);
  }

  async save(key: string, source: Readable): Promise<StoredFile> {
    assertFileKey(key);
    const db = this.db;
    await this.startWriting(key);
    const heartbeat = setInterval(() => {
      db.updateTable('kept_files')
        .set({ heartbeat_at: this.clock.now() })
        .where('key', '=', key)
        .where('state', '=', 'writing')
        .execute()
        .catch((error: unknown) =>
          logger.warn({ err: error, file: key }, 'the heartbeat of a file being written failed'),
        );
    }, this.heartbeatMs);
    heartbeat.unref();
    try {
      const hash = createHash('sha256');
      let bytes = 0;
      let seq = 0;
      // One buffer, refilled: each insert has sent its bytes before the next fill.
      const buffer = Buffer.allocUnsafe(this.chunkBytes);
      let filled = 0;
      const insert = async (data: Buffer) => {
        await db.insertInto('kept_file_chunks').values({ file_key: key, seq, data }).execute();
        seq += 1;
      };
      for await (const piece of source as AsyncIterable<Buffer | string>) {
        const chunk = typeof piece === 'string' ? Buffer.from(piece) : piece;
        hash.update(chunk);
        bytes += chunk.length;
        for (let at = 0; at < chunk.length;) {
          const n = Math.min(this.chunkBytes - filled, chunk.length - at);
          chunk.copy(buffer, filled, at, at + n);
          filled += n;
          at += n;
          if (filled === this.chunkBytes) {
            await insert(buffer);
            filled = 0;
          }
        }
      }
      if (filled > 0) await insert(buffer.subarray(0, filled));
      const stored = { bytes, sha256: hash.digest('hex') };
      const completed = await db
        .updateTable('kept_files')
        .set({
          state: 'complete',
          bytes,
          sha256: stored.sha256,
          completed_at: this.clock.now(),
          heartbeat_at: this.clock.now(),
        })
        .where('key', '=', key)
        .where('state', '=', 'writing')
        .executeTakeFirst();
      if (Number(completed.numUpdatedRows) !== 1)
        throw new Error(`the file ${key} was removed while it was written (its heartbeat had stopped)`);
      return stored;
    } catch (error) {
      await this.removeFile(key, 'writing').catch(() => undefined);
      throw error;
    } finally {
      clearInterval(heartbeat);
    }
  }

  async open(key: string): Promise<{ stream: Readable; bytes: number } | undefined> {
    assertFileKey(key);
    const header = await this.completeHeader(key);
    if (header === undefined) return undefined;
    const db = this.db;
    const count = Math.ceil(header.bytes / header.chunk_bytes);
    async function* chunks(): AsyncGenerator<Buffer> {
      for (let from = 0; from < count; from += READ_AHEAD) {
        const rows = await db
          .selectFrom('kept_file_chunks')
          .select(['seq', 'data'])
          .where('file_key', '=', key)
          .where('seq', '>=', from)
          .where('seq', '<', Math.min(count, from + READ_AHEAD))
          .orderBy('seq')
          .execute();
        for (let i = 0; i < rows.length; i++) {
          const row = rows[i];
          if (row?.seq !== from + i) break;
          yield row.data;
        }
        if (rows.length !== Math.min(READ_AHEAD, count - from))
          throw new Error(`the kept file ${key} lost chunks from ${from} (removed while read?)`);
      }
    }
    return {
      stream: Readable.from(chunks(), { objectMode: false, highWaterMark: header.chunk_bytes }),
      bytes: header.bytes,
    };
  }

  private async completeHeader(
    key: string,
  ): Promise<{ bytes: number; chunk_bytes: number; sha256: string } | undefined> {
    const row = await this.db
      .selectFrom('kept_files')
      .select(['bytes', 'chunk_bytes', 'sha256'])
      .where('key', '=', key)
      .where('state', '=', 'complete')
      .executeTakeFirst();
    if (row === undefined || row.bytes === null || row.sha256 === null) return undefined;
    return { bytes: Number(row.bytes), chunk_bytes: row.chunk_bytes, sha256: row.sha256 };
  }

  async stat(key: string): Promise<{ bytes: number; sha256: string } | undefined> {
    assertFileKey(key);
    const header = await this.completeHeader(key);
    return header && { bytes: header.bytes, sha256: header.sha256 };
  }

  async remove(key: string): Promise<void> {
    assertFileKey(key);
    await this.removeFile(key);
  }

  /** The chunks, then the header (only in `state`, when given), in one transaction. */
  private async removeFile(key: string, state?: 'writing', staleBefore?: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      let header = trx.deleteFrom('kept_files').where('key', '=', key);
      if (state !== undefined) header = header.where('state', '=', state);
      if (staleBefore !== undefined) header = header.where('heartbeat_at', '<', staleBefore);
      const deleted = await header.executeTakeFirst();
      if (Number(deleted.numDeletedRows) === 0) return false;
      await trx.deleteFrom('kept_file_chunks').where('file_key', '=', key).execute();
      return true;
    });
  }

  /** A file's header in state `writing`, beating from now on: nothing of it opens until complete. */
  private async startWriting(key: string): Promise<void> {
    const at = this.clock.now();
    await this.db
      .insertInto('kept_files')
      .values({
        key,
        state: 'writing',
        bytes: null,
        sha256: null,
        chunk_bytes: this.chunkBytes,
        writer: WRITER,
        created_at: at,
        heartbeat_at: at,
        completed_at: null,
      })
      .execute();
  }

  async check(): Promise<void> {
    const key = `probe-${randomUUID()}`;
    await this.startWriting(key);
    await this.db.deleteFrom('kept_files').where('key', '=', key).execute();
  }

  async sweepOrphans(options: StorageSweepOptions): Promise<StorageSweep> {
    const swept: StorageSweep = { files: 0, parts: 0, bytes: 0 };
    const db = this.db;
    const length = this.database.engine === 'postgres' ? sql`octet_length(data)` : sql`length(data)`;

    // Writes whose writer stopped beating (a crash, a kill): their bytes so far, and their header.
    const staleBefore = options.now - this.staleWriteMs;
    const stale = await db
      .selectFrom('kept_files')
      .select('key')
      .where('state', '=', 'writing')
      .where('heartbeat_at', '<', staleBefore)
      .execute();
    for (const { key } of stale) {
      const size = await db
        .selectFrom('kept_file_chunks')
        .select(sql<number>`coalesce(sum(${length}), 0)`.as('bytes'))
        .where('file_key', '=', key)
        .executeTakeFirst();
      if (await this.removeFile(key, 'writing', staleBefore)) {
        swept.parts += 1;
        swept.bytes += Number(size?.bytes ?? 0);
      }
    }

    // Complete files no document names, older than the grace: in key order, a batch at a time.
    const before = options.now - options.graceMs;
    let after = '';
    for (;;) {
      const batch = await db
        .selectFrom('kept_files as k')
        .select(['k.key', 'k.bytes'])
        .where('k.state', '=', 'complete')
        .where('k.completed_at', '<', before)
        .where('k.key', '>', after)
        .where(({ not, exists, selectFrom }) =>
          not(exists(selectFrom('documents as d').select('d.id').whereRef('d.file_key', '=', 'k.key'))),
        )
        .orderBy('k.key')
        .limit(KEY_BATCH)
        .execute();
      for (const row of batch) {
        if (FILE_KEY.test(row.key) && (await this.removeFile(row.key))) {
          swept.files += 1;
          swept.bytes += Number(row.bytes ?? 0);
        }
      }
      const last = batch.at(-1);
      if (last === undefined || batch.length < KEY_BATCH) break;
      after = last.key;
    }
    return swept;
  }

  async close(): Promise<void> {}
}
