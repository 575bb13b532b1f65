import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FieldMap } from '@extraction-review/contract/v2/schemas';
import type { ExtractionResult } from '@extraction-review/document-text/api-types';
import { SqliteJobStore } from '../store/sqlite-job-store';
import {
  extractedFields,
  invoiceA,
  invoiceB,
  openRagDatabase,
  OTHER_MODEL_ID,
  processedInference,
  RAG_MODEL_ID,
  type TestRagDatabase,
} from '@extraction-review/test-kit/reference/rag-fixtures';
import { laidOut, unrelatedLetter } from '@extraction-review/test-kit/reference/rag-layout';
import type { PostProcess } from '@extraction-review/document-text/extract-result';
import { manualClock } from '@extraction-review/test-kit/manual-clock';
import { applyRag, ragPostProcess } from './apply-rag';
import { RagStore } from './rag-store';

const corrected: FieldMap = {
  supplier_name: { value: 'ACME Industrial Supplies GmbH', locations: [], confidence: null },
};

let data: TestRagDatabase;
beforeEach(async () => {
  data = await openRagDatabase();
});
afterEach(() => data.remove());

describe('RagStore', () => {
  it('keeps an inference’s text: pages as raw text, terms, field names', () => {
    const inference = processedInference(RAG_MODEL_ID.toUpperCase(), extractedFields());
    data.store.rememberInference(inference, invoiceA, new Date('2026-03-14T10:00:00Z'));
    const text = data.store.documentText(inference.id.toUpperCase());
    expect(text).toMatchObject({
      inferenceId: inference.id,
      jobId: inference.jobId,
      modelId: RAG_MODEL_ID,
      fieldNames: ['supplier_name', 'total_amount'],
      createdAt: '2026-03-14T10:00:00.000Z',
    });
    expect(text?.pages).toHaveLength(1);
    expect(text?.pages[0]?.split('\n')[0]).toBe('ACME Industrial Supplies GmbH Invoice number: INV-2025-001');
    expect(text?.terms).toMatchObject({ acme: 1, iban: 1, zurich: 1 });

    data.store.forgetInference(inference.id);
    expect(data.store.documentText(inference.id)).toBeUndefined();
  });

  it('dates texts and validated documents by its clock when no time is given', () => {
    const store = new RagStore(data.db, manualClock(Date.UTC(2026, 2, 14, 10, 0, 0)));
    const inference = processedInference(RAG_MODEL_ID, extractedFields());
    store.rememberInference(inference, invoiceA);
    const text = store.documentText(inference.id);
    expect(text?.createdAt).toBe('2026-03-14T10:00:00.000Z');
    if (!text) throw new Error('text not kept');
    expect(store.addDocument(text, corrected).createdAt).toBe('2026-03-14T10:00:00.000Z');
  });

  it('prunes old texts, but validated documents keep their own copy', () => {
    const old = processedInference(RAG_MODEL_ID, extractedFields());
    const recent = processedInference(RAG_MODEL_ID, extractedFields());
    data.store.rememberInference(old, invoiceA, new Date('2026-01-01T00:00:00Z'));
    data.store.rememberInference(recent, invoiceB, new Date('2026-03-01T00:00:00Z'));
    const text = data.store.documentText(old.id);
    if (!text) throw new Error('text not kept');
    const document = data.store.addDocument(text, corrected);
    expect(data.store.pruneDocumentTexts(new Date('2026-02-01T00:00:00Z'))).toBe(1);
    expect(data.store.documentText(old.id)).toBeUndefined();
    expect(data.store.documentText(recent.id)).toBeDefined();
    expect(data.store.findDocument(RAG_MODEL_ID, document.id)?.pages).toEqual(text.pages);
  });

  it('adds, lists (newest first, per model), finds and deletes validated documents', () => {
    const first = processedInference(RAG_MODEL_ID, extractedFields());
    const second = processedInference(RAG_MODEL_ID, extractedFields());
    const other = processedInference(OTHER_MODEL_ID, extractedFields());
    data.store.rememberInference(first, invoiceA);
    data.store.rememberInference(second, invoiceB);
    data.store.rememberInference(other, invoiceA);
    const get = (id: string) => {
      const text = data.store.documentText(id);
      if (!text) throw new Error(`no text for ${id}`);
      return text;
    };
    const a = data.store.addDocument(get(first.id), corrected, new Date('2026-03-01T00:00:00Z'));
    const b = data.store.addDocument(get(second.id), corrected, new Date('2026-03-02T00:00:00Z'));
    data.store.addDocument(get(other.id), corrected);

    expect(a.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(data.store.listDocuments(RAG_MODEL_ID).map((d) => d.id)).toEqual([b.id, a.id]);
    expect(data.store.findDocument(RAG_MODEL_ID, a.id.toUpperCase())).toEqual(a);
    expect(data.store.findDocument(OTHER_MODEL_ID, a.id)).toBeUndefined();
    expect(data.store.deleteDocument(OTHER_MODEL_ID, a.id)).toBe(false);
    expect(data.store.deleteDocument(RAG_MODEL_ID, a.id)).toBe(true);
    expect(data.store.listDocuments(RAG_MODEL_ID).map((d) => d.id)).toEqual([b.id]);
  });

  it('retrieves the most similar document of the same model only', () => {
    const inference = processedInference(OTHER_MODEL_ID, extractedFields());
    data.store.rememberInference(inference, invoiceA);
    const text = data.store.documentText(inference.id);
    if (!text) throw new Error('text not kept');
    const document = data.store.addDocument(text, corrected);
    expect(data.store.retrieve(RAG_MODEL_ID, invoiceB)).toBeNull();
    expect(data.store.retrieve(OTHER_MODEL_ID, invoiceB)?.document).toEqual(document);
    expect(data.store.retrieve(OTHER_MODEL_ID, laidOut([unrelatedLetter()]))).toBeNull();
  });

  it('keeps everything across re-opening the database, beside the job store’s tables', () => {
    new SqliteJobStore(data.file).close();
    data = data.reopen();
    const inference = processedInference(RAG_MODEL_ID, extractedFields());
    data.store.rememberInference(inference, invoiceA);
    const text = data.store.documentText(inference.id);
    if (!text) throw new Error('text not kept');
    const document = data.store.addDocument(text, corrected);

    data = data.reopen();
    expect(data.store.documentText(inference.id)).toEqual(text);
    expect(data.store.listDocuments(RAG_MODEL_ID)).toEqual([document]);
    const tables = data.db
      .prepare<[], { name: string }>(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`)
      .all()
      .map((t) => t.name);
    expect(tables).toEqual(
      expect.arrayContaining(['jobs', 'inferences', 'rag_documents', 'rag_document_texts']),
    );
    expect(data.db.prepare(`SELECT version FROM schema_versions WHERE component = 'rag'`).get()).toEqual({
      version: 1,
    });
    // The job store still opens the file: its schema version was not touched.
    new SqliteJobStore(data.file).close();
  });
});

describe('applyRag', () => {
  const result = (): ExtractionResult => ({ fields: extractedFields(), raw_text: null, rag: null });
  const options = { rag: true, polygon: false, confidence: true };

  it('leaves the result alone, with rag null, when the option is off', () => {
    const input = result();
    expect(
      applyRag(data.store, {
        modelId: RAG_MODEL_ID,
        pages: invoiceB,
        result: input,
        options: { ...options, rag: false },
      }),
    ).toEqual(input);
  });

  it('reports no document when nothing is similar enough', () => {
    expect(
      applyRag(data.store, { modelId: RAG_MODEL_ID, pages: invoiceB, result: result(), options }),
    ).toEqual({
      ...result(),
      rag: { retrieved_document_id: null },
    });
  });

  it('reports the retrieved document and applies its values', () => {
    const inference = processedInference(RAG_MODEL_ID, extractedFields());
    data.store.rememberInference(inference, invoiceA);
    const text = data.store.documentText(inference.id);
    if (!text) throw new Error('text not kept');
    const document = data.store.addDocument(text, {
      ...corrected,
      total_amount: { value: 83.5, locations: [], confidence: null },
    });
    expect(
      applyRag(data.store, { modelId: RAG_MODEL_ID, pages: invoiceB, result: result(), options }),
    ).toEqual({
      fields: {
        supplier_name: { value: 'ACME Industrial Supplies GmbH', locations: [], confidence: 'Certain' },
        // 83.50 is not in invoice B: extraction's answer stays.
        total_amount: { value: null, locations: [], confidence: 'Low' },
      },
      raw_text: null,
      rag: { retrieved_document_id: document.id },
    });
  });

  it('gives extractResult a postProcess hook that applies the values and reports the document', () => {
    const inference = processedInference(RAG_MODEL_ID, extractedFields());
    data.store.rememberInference(inference, invoiceA);
    const text = data.store.documentText(inference.id);
    if (!text) throw new Error('text not kept');
    const document = data.store.addDocument(text, corrected);
    let retrieved: string | null | undefined;
    // The very type extractResult takes: the hook plugs in as is.
    const hook: PostProcess = ragPostProcess(data.store, RAG_MODEL_ID, (id) => (retrieved = id));
    const fields = hook(extractedFields(), {
      pages: invoiceB.map((p) => ({ ...p, lines: [...p.lines], aspect: 1.33 })),
      schema: [],
    });
    expect(retrieved).toBe(document.id);
    expect(fields).toMatchObject({
      supplier_name: { value: 'ACME Industrial Supplies GmbH', confidence: 'Certain' },
      total_amount: { value: null },
    });
    expect((fields as Record<string, { locations: unknown[] }>)['supplier_name']?.locations).toHaveLength(1);

    ragPostProcess(
      data.store,
      OTHER_MODEL_ID,
      (id) => (retrieved = id),
    )(extractedFields(), { pages: invoiceB });
    expect(retrieved).toBeNull();
  });
});
