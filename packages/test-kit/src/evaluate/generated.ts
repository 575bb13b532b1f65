/**
 * Field accuracy on documents the finder was not tuned on: invoices and receipts made from a seed
 * (testing/generate-invoices.ts), drawn as text-layer PDFs, read back by the PDF text extractor
 * (pdf.js, as a job reads them), laid out and searched with the seeded models, then scored against
 * the values the generator printed (accuracy.ts). What the accuracy test and the bench report.
 */
import path from 'node:path';
import { layoutPages } from '@extraction-review/document-text/extract-result';
import { findFields } from '@extraction-review/document-text/fields/find-fields';
import { readPdfText } from '@extraction-review/document-text/pdf-text-extractor';
import { loadModelCatalog } from '@extraction-review/reference/models/model-catalog';
import { generateDocuments, renderPdf, type GeneratedDocument } from '../reference/generate-invoices';
import { mergeReports, scoreExtraction, type AccuracyReport } from './accuracy';

export interface GeneratedAccuracy {
  seed: number;
  /** Every document scored, with its layout. */
  documents: { document: GeneratedDocument; report: AccuracyReport }[];
  /** All documents together, per field. */
  report: AccuracyReport;
}

export async function scoreGeneratedDocuments(seed: number, count: number): Promise<GeneratedAccuracy> {
  const catalog = await loadModelCatalog(
    path.join(import.meta.dirname, '..', '..', '..', '..', 'server', 'reference', 'models.json'),
  );
  const documents: GeneratedAccuracy['documents'] = [];
  for (const document of generateDocuments(seed, count)) {
    const model = catalog.find(document.modelId);
    if (!model) throw new Error(`no model ${document.modelId}`);
    const text = await readPdfText(await renderPdf(document));
    const fields = findFields(model.data_schema.fields, layoutPages(text));
    documents.push({
      document,
      report: scoreExtraction({ inference: { result: { fields } } }, document.truth),
    });
  }
  return {
    seed,
    documents,
    report: mergeReports(documents.map((d) => ({ name: d.document.name, report: d.report }))),
  };
}
