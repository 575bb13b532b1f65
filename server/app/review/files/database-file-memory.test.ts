/**
 * FILE_STORAGE=database streams: a 40 MB file goes into the review store and comes back out without
 * ever being whole in memory, on both engines. What JavaScript holds (V8's heap and the buffers
 * outside it) is sampled while it streams, every 25 ms right after a full garbage collection: what is
 * still held, not the chunks already written or read and waiting for V8's next collection. A buffered
 * save or read would hold the 40 MB (as one Buffer, or as PostgreSQL's hex text of it) at its peak each
 * time (a whole copy: +80 MB), so a save after the first (which warms the process up) and a read must
 * stay under three quarters of it. Measured: 1-16 MB for a save, 8-15 MB for a read (PostgreSQL reads a
 * few chunks ahead as hex text), on Node 20 and 24. Not the process's RSS: it also counts the
 * allocator's arenas and SQLite's own pages reaching their working size, which on Node 24 grew by +45
 * to +51 MB on the first save where Node 20 grew by +31, a figure about V8 and malloc, not streaming.
 */
import { createHash, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, openTestStore, type TestStore } from '@extraction-review/test-kit/review/test-stores';
import { DatabaseFileStorage } from './database-file-storage';

const FILE_BYTES = 40 * 1024 * 1024;
const MB = 1024 * 1024;
/** Under the file's size with room: one whole copy (40 MB) fails it; streaming held 2–15 MB. */
const HELD_AT_MOST_MB = (FILE_BYTES / MB) * 0.75;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const liveBytes = (): number => {
  gc();
  const { heapUsed, external } = process.memoryUsage();
  return heapUsed + external;
};

/** The peak growth of what is held (after a collection) over the start while `work` runs. */
async function peakGrowth<T>(work: () => Promise<T>): Promise<{ result: T; growthMb: number }> {
  const start = liveBytes();
  let peak = start;
  const sampler = setInterval(() => {
    peak = Math.max(peak, liveBytes());
  }, 25);
  try {
    const result = await work();
    peak = Math.max(peak, liveBytes());
    return { result, growthMb: (peak - start) / MB };
  } finally {
    clearInterval(sampler);
  }
}

function generated(seed: number): { stream: Readable; sha256: () => string } {
  const hash = createHash('sha256');
  let at = 0;
  const stream = new Readable({
    read() {
      if (at >= FILE_BYTES) {
        this.push(null);
        return;
      }
      const chunk = Buffer.alloc(64 * 1024, (at / 65536 + seed) % 251);
      at += chunk.length;
      hash.update(chunk);
      this.push(chunk);
    },
  });
  return { stream, sha256: () => hash.digest('hex') };
}

describe.each(ENGINES)('a 40 MB file in the review store on %s', (engine) => {
  let store: TestStore;

  beforeAll(async () => {
    store = await openTestStore(engine);
  });
  afterAll(async () => {
    await store.cleanup();
  });

  it('is streamed in and out, never whole in memory', async () => {
    const storage = new DatabaseFileStorage(store.database);
    const key = randomUUID();
    const source = generated(engine.length);
    // The first save warms the process up (V8's code and heap, the driver's buffers: up to +40 MB on
    // Node 24 under a full run, +15 alone), so it is logged, not bounded; a buffered save would hold the
    // file again on the second one, which is.
    const first = await peakGrowth(() => storage.save(randomUUID(), generated(7).stream));
    const saved = await peakGrowth(() => storage.save(key, source.stream));
    expect(saved.result).toEqual({ bytes: FILE_BYTES, sha256: source.sha256() });

    const read = await peakGrowth(async () => {
      const opened = await storage.open(key);
      const hash = createHash('sha256');
      let bytes = 0;
      for await (const chunk of opened?.stream ?? Readable.from([])) {
        hash.update(chunk as Buffer);
        bytes += (chunk as Buffer).length;
      }
      return { bytes, sha256: hash.digest('hex') };
    });
    expect(read.result).toEqual(saved.result);
    console.info(
      `[database files ${engine}] held by JavaScript at peak after a collection: a first 40 MB file saved ` +
        `+${first.growthMb.toFixed(1)} MB, a second +${saved.growthMb.toFixed(1)} MB, ` +
        `read back +${read.growthMb.toFixed(1)} MB`,
    );
    expect(saved.growthMb).toBeLessThan(HELD_AT_MOST_MB);
    expect(read.growthMb).toBeLessThan(HELD_AT_MOST_MB);
  });
});
