/**
 * Exports of confirmed documents, for admins (docs/gateway.md, "Exports"):
 *
 *   GET /api/exports/confirmed?model&format=jsonl|csv&from&to
 *
 * - `jsonl`: one JSON object per line and document: who confirmed it and when, its integration, and
 *   its validated fields in the v2 API's shape (a v1 product's through the review's v1 adapter).
 * - `csv`: one row per line item (per item of each table, as the review's "Export CSV" writes one
 *   document), the document's own columns first; the header is the union of every document's columns,
 *   found by a first pass, so the file is one table whatever the documents hold.
 *
 * Streamed as it is read (pages of 100 documents): memory stays flat whatever the range, and a client
 * that goes away stops the reading.
 */
import { Hono } from 'hono';
import { rangeEnd, rangeStart } from '@extraction-review/contract/review/exports';
import { countExport, exportConfirmed } from '@extraction-review/contract/review/routes/exports';
import { ProblemError } from '@extraction-review/contract/problem';
import { countConfirmedDocuments } from '../store/queue-store';
import {
  csvLine,
  csvRecords,
  safeCellText,
  type CsvRecord,
} from '@extraction-review/review-domain/corrections/to-csv';
import { mountRoute } from './mount-route';
import type { ReviewContext, ReviewEnv } from '../review-context';
import {
  confirmedDocuments,
  type ConfirmedDocument,
  type ConfirmedRange,
} from '../exports/confirmed-documents';
import { componentLogger } from '@extraction-review/server-kit/logger';

const logger = componentLogger('exports');

const DOCUMENT_COLUMNS = [
  'document_id',
  'file_name',
  'model',
  'integration',
  'confirmed_at',
  'confirmed_by',
  'automatic',
  'override_reason',
] as const;

export function exportRoutes(review: ReviewContext): Hono<ReviewEnv> {
  const routes = new Hono<ReviewEnv>();

  mountRoute(routes, review, countExport, async (c, { query }) => {
    const count = await countConfirmedDocuments(review.database.db, rangeOf(query));
    return c.json({ count }, 200, { 'Cache-Control': 'no-store' });
  });

  mountRoute(routes, review, exportConfirmed, async (c, { query }) => {
    const range = rangeOf(query);
    // An empty export is said, not downloaded as an empty file (issue 21).
    if ((await countConfirmedDocuments(review.database.db, range)) === 0) {
      throw new ProblemError(
        '404-019',
        'No document of this model was confirmed in this range: there is nothing to export.',
      );
    }
    const name = `confirmed-${safeFileName(query.model)}-${new Date(review.clock.now()).toISOString().slice(0, 10)}`;
    const lines = query.format === 'csv' ? csvLines(review, range) : jsonLines(review, range);
    const encoder = new TextEncoder();
    const iterator = lines[Symbol.asyncIterator]();
    const body = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          try {
            const { done, value } = await iterator.next();
            if (done === true) controller.close();
            else controller.enqueue(encoder.encode(value));
          } catch (error) {
            // Headers are gone already: the cut-short body is the only way left to say it failed.
            logger.error({ err: error }, 'an export failed midway');
            controller.error(error);
          }
        },
        async cancel() {
          await iterator.return?.(undefined);
        },
      },
      { highWaterMark: 0 },
    );
    return c.body(body, 200, {
      'Content-Type':
        query.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8',
      'Content-Disposition': `attachment; filename="${name}.${query.format}"`,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    });
  });
  return routes;
}

function rangeOf(query: {
  model: string;
  from?: string | undefined;
  to?: string | undefined;
}): ConfirmedRange {
  return {
    model: query.model,
    from: query.from === undefined ? undefined : rangeStart(query.from),
    to: query.to === undefined ? undefined : rangeEnd(query.to),
  };
}

/** Several documents' lines at a time: one write per document would be a syscall per line. */
async function* batched(lines: AsyncIterable<string>, size = 64 * 1024): AsyncGenerator<string> {
  let pending = '';
  for await (const line of lines) {
    pending += line;
    if (pending.length >= size) {
      yield pending;
      pending = '';
    }
  }
  if (pending !== '') yield pending;
}

function jsonLines(review: ReviewContext, range: ConfirmedRange): AsyncIterable<string> {
  return batched(
    (async function* () {
      for await (const document of confirmedDocuments(review.database, range)) {
        yield `${JSON.stringify({
          document_id: document.id,
          api_version: document.apiVersion,
          model: document.model,
          file_name: document.fileName,
          alias: document.alias,
          integration: document.integration,
          confirmed_at: new Date(document.confirmedAt).toISOString(),
          confirmed_by: document.confirmedBy,
          automatic: document.automatic,
          override_reason: document.overrideReason,
          fields: document.fields,
        })}\n`;
      }
    })(),
  );
}

function csvLines(review: ReviewContext, range: ConfirmedRange): AsyncIterable<string> {
  return batched(
    (async function* () {
      // First pass: every column any document has, in order of first appearance.
      const columns = new Set<string>();
      for await (const document of confirmedDocuments(review.database, range)) {
        for (const column of csvRecords(document.fields).header) columns.add(column);
      }
      const header = [...DOCUMENT_COLUMNS, ...columns];
      yield `\uFEFF${csvLine(header)}`;
      for await (const document of confirmedDocuments(review.database, range)) {
        for (const record of csvRecords(document.fields).rows) yield csvLine(rowOf(header, document, record));
      }
    })(),
  );
}

function rowOf(header: readonly string[], document: ConfirmedDocument, record: CsvRecord): string[] {
  const own: Record<(typeof DOCUMENT_COLUMNS)[number], string> = {
    document_id: document.id,
    file_name: safeCellText(document.fileName),
    model: document.model,
    integration: safeCellText(document.integration ?? ''),
    confirmed_at: new Date(document.confirmedAt).toISOString(),
    confirmed_by: safeCellText(document.confirmedBy ?? ''),
    automatic: String(document.automatic),
    override_reason: safeCellText(document.overrideReason ?? ''),
  };
  return header.map((column, index) =>
    index < DOCUMENT_COLUMNS.length ? own[column as keyof typeof own] : (record.get(column) ?? ''),
  );
}

/** A model key (`acme/invoices/v2`, a UUID) as part of a file name. */
function safeFileName(model: string): string {
  return model.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 80);
}
