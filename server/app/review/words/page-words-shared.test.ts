/**
 * The page words are kept in the review store, not on a copy's disk (issue 19): two app-server copies
 * (two handles on one store, each with its own storage and reader) on both engines. Copy A reads a
 * page; copy B, asked for it, answers A's words without reading (the file is gone by then, and B has
 * nothing of its own on disk), while a page nobody has read is still B's to read (a 404 here).
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openReviewDatabase, type ReviewDatabase } from '../db/open-database';
import { ENGINES, openTestStore, type TestStore } from '@extraction-review/test-kit/review/test-stores';
import { DatabaseFileStorage } from '../files/database-file-storage';
import { PageWordsReader } from './page-words';

async function twoPageInvoice(): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  pdf.addPage([612, 792]).drawText('Total: 1,234.56', { x: 72, y: 300, size: 24, font });
  pdf.addPage([612, 792]);
  return Buffer.from(await pdf.save());
}

describe.each(ENGINES)('page words shared by two copies on %s', (engine) => {
  let store: TestStore;
  let other: ReviewDatabase;
  let tempA: string;
  let tempB: string;

  beforeAll(async () => {
    store = await openTestStore(engine);
    other = await openReviewDatabase(store.settings);
    tempA = await mkdtemp(path.join(os.tmpdir(), 'copy-a-'));
    tempB = await mkdtemp(path.join(os.tmpdir(), 'copy-b-'));
  });
  afterAll(async () => {
    await other.close();
    await store.cleanup();
    await rm(tempA, { recursive: true, force: true });
    await rm(tempB, { recursive: true, force: true });
  });

  it('reads a page once, for both', async () => {
    const filesA = new DatabaseFileStorage(store.database);
    const filesB = new DatabaseFileStorage(other);
    const copyA = new PageWordsReader(store.database, filesA, { tempDir: tempA });
    const copyB = new PageWordsReader(other, filesB, { tempDir: tempB });
    const id = randomUUID();
    await filesA.save(id, Readable.from([await twoPageInvoice()]));
    const doc = { id, fileKey: id, mimeType: 'application/pdf' };

    const read = await copyA.words(doc, 0);
    expect(read.words.map((w) => w.text)).toContain('1,234.56');
    // B opens A's file (the same store), then it is removed: B can only answer from what A kept.
    expect((await filesB.open(id))?.bytes).toBeGreaterThan(0);
    await filesB.remove(id);
    expect(await copyB.words(doc, 0)).toEqual(read);
    // Page 2 has no text layer and nobody read it by OCR: B would have to read it, and cannot: its file is gone (500-005, never the 404 of "no file").
    await expect(copyB.words(doc, 1)).rejects.toMatchObject({ code: '500-005' });
    // Neither copy keeps anything on its disk (the reading copy is removed after use).
    expect(await readdir(tempA)).toEqual([]);
    expect(await readdir(tempB)).toEqual([]);
  }, 60_000);
});
