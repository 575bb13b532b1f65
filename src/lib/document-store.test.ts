import { describe, expect, it } from 'vitest';
import { createDocumentStore, memoryBackend, type NewStoredJob } from './document-store';

const MODEL = 'b4e6af9b-dfe5-44c8-9ae8-22225d8d2d5a';
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

const job = (jobId: string, createdAt: string, extra: Partial<NewStoredJob> = {}): NewStoredJob => ({
  jobId,
  modelId: MODEL,
  filename: `${jobId}.pdf`,
  file: new Blob(['%PDF-1.7'], { type: 'application/pdf' }),
  mimeType: 'application/pdf',
  size: 8,
  createdAt,
  ...extra,
});

describe('the document store', () => {
  it('keeps a job with its file and the detected type, and gives the document back', async () => {
    const store = createDocumentStore(memoryBackend());
    await store.saveJob(job('J1', '2025-01-01T10:00:00.000Z', { options: { raw_text: true } }));
    const doc = await store.loadDocument('J1');
    expect(doc).toMatchObject({
      jobId: 'J1',
      modelId: MODEL,
      filename: 'J1.pdf',
      mimeType: 'application/pdf',
      source: 'file',
      options: { raw_text: true },
    });
    expect(await doc?.file.text()).toBe('%PDF-1.7');
    expect(await store.loadDocument('nope')).toBeNull();
  });

  it('lists jobs newest first', async () => {
    const store = createDocumentStore(memoryBackend());
    await store.saveJob(job('A', '2025-01-01T10:00:00.000Z'));
    await store.saveJob(job('C', '2025-01-03T10:00:00.000Z'));
    await store.saveJob(job('B', '2025-01-02T10:00:00.000Z'));
    expect((await store.listJobs()).map((j) => j.jobId)).toEqual(['C', 'B', 'A']);
  });

  it('lists a job sent by URL, which has no document to review', async () => {
    const store = createDocumentStore(memoryBackend());
    await store.saveJob(
      job('U', '2025-01-01T10:00:00.000Z', {
        file: null,
        mimeType: null,
        size: null,
        source: 'url',
        url: 'https://example.com/invoice.pdf',
      }),
    );
    expect(await store.loadJob('U')).toMatchObject({ source: 'url', url: 'https://example.com/invoice.pdf' });
    expect(await store.loadDocument('U')).toBeNull();
  });

  it('reads records of the first version, and skips unreadable ones', async () => {
    const backend = memoryBackend();
    await backend.set('OLD', {
      jobId: 'OLD',
      modelId: MODEL,
      filename: 'old.pdf',
      file: new Blob(['x']),
      createdAt: '2024-12-01T00:00:00.000Z',
    });
    await backend.set('BROKEN', { jobId: 'BROKEN' });
    const store = createDocumentStore(backend);
    expect(await store.listJobs()).toHaveLength(1);
    expect(await store.loadDocument('OLD')).toMatchObject({
      jobId: 'OLD',
      mimeType: null,
      source: 'file',
      modelName: null,
      options: {},
    });
    expect(await store.loadJob('BROKEN')).toBeNull();
  });

  it('removes a job and its file', async () => {
    const store = createDocumentStore(memoryBackend());
    await store.saveJob(job('J1', '2025-01-01T10:00:00.000Z'));
    await store.removeJob('J1');
    expect(await store.loadDocument('J1')).toBeNull();
    expect(await store.listJobs()).toEqual([]);
  });

  it('keeps the settled job with the record, and never brings a removed record back', async () => {
    const store = createDocumentStore(memoryBackend());
    await store.saveJob(job('J1', '2025-01-01T10:00:00.000Z'));
    expect((await store.loadJob('J1'))?.settledJob).toBeNull();
    await store.updateJob('J1', { settledJob: { id: 'J1', status: 'Processed' } });
    expect((await store.loadJob('J1'))?.settledJob).toEqual({ id: 'J1', status: 'Processed' });
    expect(await (await store.loadDocument('J1'))?.file.text()).toBe('%PDF-1.7');
    await store.removeJob('J1');
    await store.updateJob('J1', { settledJob: null });
    expect(await store.loadJob('J1')).toBeNull();
  });

  it('keeps the result with the document, read back in the same record and removed with it', async () => {
    const store = createDocumentStore(memoryBackend());
    await store.saveJob(job('J1', '2025-01-01T10:00:00.000Z'));
    expect((await store.loadDocument('J1'))?.settledResult).toBeNull();
    const result = { inference: { id: 'I1' } };
    await store.updateJob('J1', { settledResult: result });
    expect(await store.loadDocument('J1')).toMatchObject({ settledResult: result, filename: 'J1.pdf' });
    await store.removeJob('J1');
    expect(await store.loadJob('J1')).toBeNull();
  });

  it('makes updates one after the other, so that two made together are both kept', async () => {
    // A backend that answers reads late, as IndexedDB may: two read-then-write updates would
    // otherwise both read the record before either writes it, and the second undo the first.
    const memory = memoryBackend();
    const slow = {
      ...memory,
      get: async (key: string) => {
        const value = await memory.get(key);
        await tick();
        return value;
      },
    };
    const store = createDocumentStore(slow);
    await store.saveJob(job('J1', '2025-01-01T10:00:00.000Z'));
    await Promise.all([
      store.updateJob('J1', { settledJob: { id: 'J1' } }),
      store.updateJob('J1', { settledResult: { inference: { id: 'I1' } } }),
    ]);
    expect(await store.loadJob('J1')).toMatchObject({
      settledJob: { id: 'J1' },
      settledResult: { inference: { id: 'I1' } },
    });
  });

  it('goes on updating after an update failed', async () => {
    const memory = memoryBackend();
    let fail = true;
    const store = createDocumentStore({
      ...memory,
      set: async (key, value) => {
        if (fail && key === 'J1' && (value as { settledJob: unknown }).settledJob) {
          fail = false;
          throw new Error('quota');
        }
        await memory.set(key, value);
      },
    });
    await store.saveJob(job('J1', '2025-01-01T10:00:00.000Z'));
    await expect(store.updateJob('J1', { settledJob: { id: 'J1' } })).rejects.toThrow('quota');
    await store.updateJob('J1', { settledResult: { inference: {} } });
    expect(await store.loadJob('J1')).toMatchObject({ settledJob: null, settledResult: { inference: {} } });
  });

  it('refuses to save a record that would not read back', async () => {
    const store = createDocumentStore(memoryBackend());
    await expect(store.saveJob(job('J1', 'yesterday'))).rejects.toThrow();
  });

  it('reads older records as v2, and keeps a v1 prediction with its product and mode', async () => {
    const store = createDocumentStore(memoryBackend());
    await store.saveJob(job('OLD', '2025-01-01T10:00:00.000Z'));
    await store.saveJob(
      job('V1', '2025-01-02T10:00:00.000Z', {
        api: 'v1',
        modelId: 'mindee/invoices/v4',
        v1: { account: 'mindee', name: 'invoices', version: '4', mode: 'async' },
      }),
    );
    expect(await store.loadJob('OLD')).toMatchObject({ api: 'v2', v1: null });
    expect(await store.loadJob('V1')).toMatchObject({
      api: 'v1',
      v1: { account: 'mindee', name: 'invoices', version: '4', mode: 'async' },
    });
    await expect(store.saveJob(job('BAD', '2025-01-03T10:00:00.000Z', { api: 'v1' }))).rejects.toThrow(
      /v1 record needs its product/,
    );
  });
});
