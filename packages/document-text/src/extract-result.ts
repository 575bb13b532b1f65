/**
 * File → ExtractionResult: words (through an Extractor), lines, raw text and fields, shaped by the
 * active options. Knows nothing of jobs or HTTP.
 *
 * A document without any word (a blank page, a scan OCR could not read) is not an error: every field
 * comes back null (docs/reference-fields.md, "Empty documents").
 */
import type { ActiveOptions, ExtractionResult, FieldResult } from './api-types';
import type { FieldSchema } from '@extraction-review/contract/v2/field-schema';
import type { DocumentText, Extractor, StoredFile } from './extractor';
import { findFields, type PageLayout } from './fields/find-fields';
import { groupLines, linesToText } from './lines';

export type { PageLayout } from './fields/find-fields';

export interface ExtractionOutput {
  pageCount: number;
  result: ExtractionResult;
  /** The pages as the field finder read them (lines of words with boxes), for later steps (RAG). */
  pages: PageLayout[];
}

/** Runs on the fields as found, before the options shape them (e.g. RAG corrections). */
export type PostProcess = (
  fields: Record<string, FieldResult>,
  context: { pages: readonly PageLayout[]; schema: readonly FieldSchema[] },
) => Record<string, FieldResult> | Promise<Record<string, FieldResult>>;

export interface ExtractionInput {
  /** The request's `text_context`: hints about the document (fields/text-context.ts). */
  textContext?: string | null;
  postProcess?: PostProcess;
}

/** What to find in a document: the data schema, and the request's text context. */
export interface FieldQuery {
  schema: readonly FieldSchema[];
  textContext?: string | null;
}

/** A document read: its pages laid out in lines, and the fields found in them (options not applied). */
export interface FieldReading {
  pageCount: number;
  pages: PageLayout[];
  fields: Record<string, FieldResult>;
}

/**
 * Reads a document's fields where the words are, in one step. The extraction threads implement it
 * (threads/threaded-extractor.ts), so that laying out and searching a long document never stalls
 * the event loop the HTTP routes share.
 */
export interface FieldReader {
  readFields(file: StoredFile, query: FieldQuery, signal?: AbortSignal): Promise<FieldReading>;
}

/** Words → lines → fields, on the calling thread. */
export async function readFields(
  extractor: Extractor,
  file: StoredFile,
  query: FieldQuery,
  signal?: AbortSignal,
): Promise<FieldReading> {
  const document = await extractor.extract(file, signal);
  const pages = layoutPages(document);
  return {
    pageCount: document.pageCount,
    pages,
    fields: findFields(query.schema, pages, { textContext: query.textContext }),
  };
}

export async function extractResult(
  source: Extractor | FieldReader,
  file: StoredFile,
  schema: readonly FieldSchema[],
  options: ActiveOptions,
  signal?: AbortSignal,
  input: ExtractionInput = {},
): Promise<ExtractionOutput> {
  const query = { schema, textContext: input.textContext };
  const reading =
    'readFields' in source
      ? await source.readFields(file, query, signal)
      : await readFields(source, file, query, signal);
  const { pages } = reading;
  let fields = reading.fields;
  if (input.postProcess) fields = await input.postProcess(fields, { pages, schema });
  return {
    pageCount: reading.pageCount,
    pages,
    result: {
      fields: Object.fromEntries(
        Object.entries(fields).map(([name, field]) => [name, applyOptions(field, options)]),
      ),
      raw_text: options.raw_text
        ? { pages: pages.map((page) => ({ content: linesToText(page.lines) })) }
        : null,
      // The RAG step (rag/apply-rag.ts) fills in the retrieved document when it ran.
      rag: options.rag ? { retrieved_document_id: null } : null,
    },
  };
}

/** Words → lines, per page: what the field finder and the raw text read. */
export function layoutPages(document: DocumentText): PageLayout[] {
  return document.pages.map((page) => ({
    index: page.index,
    aspect: page.height / page.width,
    lines: groupLines(page),
  }));
}

/** Without `polygon` there are no locations; without `confidence` every confidence is null. */
export function applyOptions<T extends FieldResult>(field: T, options: ActiveOptions): T {
  const out: Record<string, unknown> = { ...field };
  if ('locations' in field && !options.polygon) out['locations'] = [];
  if (!options.confidence) out['confidence'] = null;
  if ('items' in field) out['items'] = field.items.map((item: FieldResult) => applyOptions(item, options));
  if ('fields' in field) {
    out['fields'] = Object.fromEntries(
      Object.entries(field.fields).map(([name, sub]) => [name, applyOptions(sub, options)]),
    );
  }
  return out as T;
}
