/**
 * Our extraction of the fixture documents that have a recorded hosted result (photos: OCR, then the
 * field finder with the seeded models), scored field by field. The floors sit a little under the
 * figures reached when this was written (docs/reference-fields.md, "Accuracy"), so that OCR noise
 * does not fail the suite but a regression of the finder does.
 */
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  closeDocumentExtraction,
  extractDocumentText,
} from '@extraction-review/document-text/extract-document-text';
import { layoutPages } from '@extraction-review/document-text/extract-result';
import { findFields } from '@extraction-review/document-text/fields/find-fields';
import { loadModelCatalog } from '@extraction-review/reference/models/model-catalog';
import { SAMPLE_DOCUMENTS, loadReference, samplePath } from '../reference/fields-samples';
import { formatReport, scoreExtraction } from './accuracy';

/** Share of every unit (nulls included) matched, per sample. */
const FLOORS: Record<string, number> = {
  'v2 financial_document (invoice photo)': 0.9,
  'v1 invoices (Turnpike Designs)': 0.85,
  'v1 expense_receipts (Clachan)': 0.45,
};

afterAll(async () => {
  await closeDocumentExtraction();
});

describe('accuracy on the recorded samples', () => {
  it.each(SAMPLE_DOCUMENTS.map((s) => [s.name, s] as const))('%s', async (name, sample) => {
    const catalog = await loadModelCatalog(
      path.join(import.meta.dirname, '..', '..', '..', '..', 'server', 'reference', 'models.json'),
    );
    const model = catalog.find(sample.modelId);
    if (!model) throw new Error(`no model ${sample.modelId}`);
    const document = await extractDocumentText(samplePath(sample.document));
    const fields = findFields(model.data_schema.fields, layoutPages(document));
    const report = scoreExtraction({ inference: { result: { fields } } }, await loadReference(sample));
    expect(report.accuracy, formatReport(report)).toBeGreaterThanOrEqual(FLOORS[name] ?? 1);
  });
});
