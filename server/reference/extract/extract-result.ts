/**
 * File → ExtractionResult: words (through an Extractor), lines, raw text and fields, shaped by the
 * active options. Knows nothing of jobs or HTTP.
 */
import { ProblemError } from '../../shared/problem';
import type { ActiveOptions, ExtractionResult, FieldResult } from '../api-types';
import type { FieldSchema } from '../models/field-schema';
import type { Extractor, StoredFile } from './extractor';
import { findFields, type PageLayout } from './fields/find-fields';
import { groupLines, linesToText } from './lines';

export interface ExtractionOutput {
  pageCount: number;
  result: ExtractionResult;
}

export async function extractResult(
  extractor: Extractor,
  file: StoredFile,
  schema: readonly FieldSchema[],
  options: ActiveOptions,
  signal?: AbortSignal,
): Promise<ExtractionOutput> {
  const document = await extractor.extract(file, signal);
  if (document.pages.every((page) => page.words.length === 0)) {
    throw new ProblemError(
      '422-003',
      'No page of this PDF has a text layer. Scanned pages need OCR, which the reference service ' +
        'does not do yet; send a PDF with selectable text.',
    );
  }
  const pages: PageLayout[] = document.pages.map((page) => ({
    index: page.index,
    aspect: page.height / page.width,
    lines: groupLines(page),
  }));
  return {
    pageCount: document.pageCount,
    result: {
      fields: Object.fromEntries(
        Object.entries(findFields(schema, pages)).map(([name, field]) => [
          name,
          applyOptions(field, options),
        ]),
      ),
      raw_text: options.raw_text
        ? { pages: pages.map((page) => ({ content: linesToText(page.lines) })) }
        : null,
      // No document store to retrieve from yet: an active RAG option reports "nothing matched".
      rag: options.rag ? { retrieved_document_id: null } : null,
    },
  };
}

/** Without `polygon` there are no locations; without `confidence` every confidence is null. */
function applyOptions<T extends FieldResult>(field: T, options: ActiveOptions): T {
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
