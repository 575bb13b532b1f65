/**
 * The RAG store, in the shared `reference.sqlite` (own tables, own versioned migrations under the
 * component name `rag`: store/migrations.ts):
 *
 * - `rag_document_texts`: the text of every processed inference (page texts and terms), written by the
 *   job service when a job is processed, so that an operator can later turn that inference, with the
 *   values they corrected, into a validated document without sending the document again;
 * - `rag_documents`: the validated documents of each model: the text, and the `fields` an operator
 *   validated, under a UUID that `result.rag.retrieved_document_id` reports when it is retrieved.
 */
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { FieldMap } from '@extraction-review/contract/v2/schemas';
import { dateOf, systemClock, type Clock } from '@extraction-review/server-kit/clock';
import { applyMigrations } from '../store/migrations';
import { pageTexts, termsOf, type LaidOutPage, type Terms } from './document-terms';
import { DEFAULT_SIMILARITY_THRESHOLD, findSimilarDocument } from './retrieval';

export interface DocumentTextRecord {
  inferenceId: string;
  jobId: string;
  modelId: string;
  /** The inference's field names: a validated document may only give values for these. */
  fieldNames: string[];
  /** One string per page, lines separated by `\n` (as `raw_text` writes them). */
  pages: string[];
  terms: Terms;
  createdAt: string;
}

export interface ValidatedDocument {
  id: string;
  modelId: string;
  /** The inference it was made from. */
  inferenceId: string;
  pages: string[];
  terms: Terms;
  fields: FieldMap;
  createdAt: string;
}

const MIGRATIONS: readonly string[] = [
  `CREATE TABLE rag_document_texts (
     inference_id TEXT PRIMARY KEY,
     job_id       TEXT NOT NULL,
     model_id     TEXT NOT NULL,
     field_names  TEXT NOT NULL,
     pages        TEXT NOT NULL,
     terms        TEXT NOT NULL,
     created_at   TEXT NOT NULL
   );
   CREATE INDEX rag_document_texts_by_date ON rag_document_texts (created_at);
   CREATE TABLE rag_documents (
     id           TEXT PRIMARY KEY,
     model_id     TEXT NOT NULL,
     inference_id TEXT NOT NULL,
     pages        TEXT NOT NULL,
     terms        TEXT NOT NULL,
     fields       TEXT NOT NULL,
     created_at   TEXT NOT NULL
   );
   CREATE INDEX rag_documents_by_model ON rag_documents (model_id, created_at);`,
];

interface TextRow {
  inference_id: string;
  job_id: string;
  model_id: string;
  field_names: string;
  pages: string;
  terms: string;
  created_at: string;
}

interface DocumentRow {
  id: string;
  model_id: string;
  inference_id: string;
  pages: string;
  terms: string;
  fields: string;
  created_at: string;
}

const fromTextRow = (row: TextRow): DocumentTextRecord => ({
  inferenceId: row.inference_id,
  jobId: row.job_id,
  modelId: row.model_id,
  fieldNames: JSON.parse(row.field_names) as string[],
  pages: JSON.parse(row.pages) as string[],
  terms: JSON.parse(row.terms) as Terms,
  createdAt: row.created_at,
});

const fromDocumentRow = (row: DocumentRow): ValidatedDocument => ({
  id: row.id,
  modelId: row.model_id,
  inferenceId: row.inference_id,
  pages: JSON.parse(row.pages) as string[],
  terms: JSON.parse(row.terms) as Terms,
  fields: JSON.parse(row.fields) as FieldMap,
  createdAt: row.created_at,
});

export class RagStore {
  private readonly statements: ReturnType<typeof prepareStatements>;

  /** Creates or upgrades the RAG tables on `db` (idempotent); `clock` dates texts and documents. */
  constructor(
    db: Database.Database,
    private readonly clock: Clock = systemClock,
  ) {
    applyMigrations(db, 'rag', MIGRATIONS);
    this.statements = prepareStatements(db);
  }

  /**
   * Keeps the text of a processed inference (call it once the inference is stored), from the pages
   * field finding read (`extractResult`'s `pages`). Ids are kept in lower case, as the routes look
   * them up.
   */
  rememberInference(
    inference: { id: string; jobId: string; body: { model: { id: string }; result: { fields: object } } },
    pages: readonly LaidOutPage[],
    at = dateOf(this.clock),
  ): void {
    this.statements.insertText.run({
      inference_id: inference.id.toLowerCase(),
      job_id: inference.jobId.toLowerCase(),
      model_id: inference.body.model.id.toLowerCase(),
      field_names: JSON.stringify(Object.keys(inference.body.result.fields)),
      pages: JSON.stringify(pageTexts(pages)),
      terms: JSON.stringify(termsOf(pages)),
      created_at: at.toISOString(),
    });
  }

  documentText(inferenceId: string): DocumentTextRecord | undefined {
    const row = this.statements.findText.get(inferenceId.toLowerCase());
    return row && fromTextRow(row);
  }

  /** Drops an inference's text (when the inference itself is deleted, for example). */
  forgetInference(inferenceId: string): void {
    this.statements.deleteText.run(inferenceId.toLowerCase());
  }

  /** Drops the texts of inferences processed before `before`; validated documents keep their own copy. */
  pruneDocumentTexts(before: Date): number {
    return this.statements.pruneTexts.run(before.toISOString()).changes;
  }

  /** Stores a validated document made of an inference's text and the operator's `fields`. */
  addDocument(text: DocumentTextRecord, fields: FieldMap, at = dateOf(this.clock)): ValidatedDocument {
    const document: ValidatedDocument = {
      id: randomUUID(),
      modelId: text.modelId,
      inferenceId: text.inferenceId,
      pages: text.pages,
      terms: text.terms,
      fields,
      createdAt: at.toISOString(),
    };
    this.statements.insertDocument.run({
      id: document.id,
      model_id: document.modelId,
      inference_id: document.inferenceId,
      pages: JSON.stringify(document.pages),
      terms: JSON.stringify(document.terms),
      fields: JSON.stringify(document.fields),
      created_at: document.createdAt,
    });
    return document;
  }

  /** The model's validated documents, newest first. */
  listDocuments(modelId: string): ValidatedDocument[] {
    return this.statements.listDocuments.all(modelId.toLowerCase()).map(fromDocumentRow);
  }

  findDocument(modelId: string, id: string): ValidatedDocument | undefined {
    const row = this.statements.findDocument.get(modelId.toLowerCase(), id.toLowerCase());
    return row && fromDocumentRow(row);
  }

  /** False when the model has no such document. */
  deleteDocument(modelId: string, id: string): boolean {
    return this.statements.deleteDocument.run(modelId.toLowerCase(), id.toLowerCase()).changes > 0;
  }

  /** The model's validated document most similar to the pages' text (retrieval.ts), or null. */
  retrieve(
    modelId: string,
    pages: readonly LaidOutPage[],
    threshold = DEFAULT_SIMILARITY_THRESHOLD,
  ): { document: ValidatedDocument; score: number } | null {
    // Only the terms are read for all documents; the match is then read whole.
    const candidates = this.statements.candidates.all(modelId.toLowerCase()).map((row) => ({
      id: row.id,
      terms: JSON.parse(row.terms) as Terms,
      createdAt: row.created_at,
    }));
    const match = findSimilarDocument(termsOf(pages), candidates, threshold);
    const found = match && this.findDocument(modelId, match.id);
    return found ? { document: found, score: match.score } : null;
  }
}

function prepareStatements(db: Database.Database) {
  return {
    insertText: db.prepare<TextRow>(
      `INSERT OR REPLACE INTO rag_document_texts
         (inference_id, job_id, model_id, field_names, pages, terms, created_at)
       VALUES (@inference_id, @job_id, @model_id, @field_names, @pages, @terms, @created_at)`,
    ),
    findText: db.prepare<[string], TextRow>('SELECT * FROM rag_document_texts WHERE inference_id = ?'),
    deleteText: db.prepare<[string]>('DELETE FROM rag_document_texts WHERE inference_id = ?'),
    pruneTexts: db.prepare<[string]>('DELETE FROM rag_document_texts WHERE created_at < ?'),
    insertDocument: db.prepare<DocumentRow>(
      `INSERT INTO rag_documents (id, model_id, inference_id, pages, terms, fields, created_at)
       VALUES (@id, @model_id, @inference_id, @pages, @terms, @fields, @created_at)`,
    ),
    listDocuments: db.prepare<[string], DocumentRow>(
      'SELECT * FROM rag_documents WHERE model_id = ? ORDER BY created_at DESC, id',
    ),
    candidates: db.prepare<[string], Pick<DocumentRow, 'id' | 'terms' | 'created_at'>>(
      'SELECT id, terms, created_at FROM rag_documents WHERE model_id = ?',
    ),
    findDocument: db.prepare<[string, string], DocumentRow>(
      'SELECT * FROM rag_documents WHERE model_id = ? AND id = ?',
    ),
    deleteDocument: db.prepare<[string, string]>('DELETE FROM rag_documents WHERE model_id = ? AND id = ?'),
  };
}
