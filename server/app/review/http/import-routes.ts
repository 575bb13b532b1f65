/**
 * Importing the jobs a browser kept before the team queue existed: the handler of `importDocument`
 * (packages/contract/src/review/routes/queue.ts), whose body it reads itself (multipart/form-data: metadata (JSON),
 * result (JSON), file (optional)); 201 with the new document, 200 with the one the store had.
 *
 * The parts and their limits: read-import-form.ts. The document is created with its file stored under
 * its id, then given its result with the counts of count-fields.ts, so it enters the queue as one
 * uploaded through the app would; its timeline says `imported`, by the caller
 * (server/app/review/store/import-document.ts, where the once-per-job rule is kept). The `201` leaves only
 * once both are written (the storage's `save` resolves when the file is durable, then the row is
 * committed), as a pipeline's `202` does (docs/gateway.md, "Durability"): a crash in between leaves a
 * file no document names, which the start's sweep removes, never a document without its file.
 */
import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { importDocument as declared } from '@extraction-review/contract/review/routes/queue';
import type { ImportResponse } from '@extraction-review/contract/review/schemas';
import { countFields } from '../intake/count-fields';
import { importDocument } from '../store/import-document';
import { presentReviewDocument, withNames } from './present';
import { mountRoute } from './mount-route';
import { readImportForm } from './read-import-form';
import type { ReviewContext, ReviewEnv } from '../review-context';

export function importRoutes(review: ReviewContext): Hono<ReviewEnv> {
  const routes = new Hono<ReviewEnv>();

  mountRoute(routes, review, declared, async (c) => {
    const caller = c.get('session').operator.id;
    const id = randomUUID();
    const form = await readImportForm(c, {
      files: review.files,
      fileKey: id,
      // A job in the store already keeps its own file: a second copy would never be used.
      skipFile: async (metadata) =>
        (await review.queue.findByUpstreamJob(metadata.apiVersion, metadata.upstreamJobId)) !== undefined,
    });
    const { metadata, result, file } = form;
    const discardFile = async () => {
      if (file !== null) await review.files?.remove(id);
    };

    let outcome: Awaited<ReturnType<typeof importDocument>>;
    try {
      outcome = await importDocument(
        review,
        {
          id,
          apiVersion: metadata.apiVersion,
          modelKey: metadata.model,
          fileName: metadata.fileName,
          alias: metadata.alias === undefined || metadata.alias === '' ? null : metadata.alias,
          upstreamJobId: metadata.upstreamJobId,
          upstreamResultId: metadata.upstreamResultId ?? resultIdOf(metadata.apiVersion, result.value),
          file: file === null ? null : { mimeType: file.mimeType, bytes: file.bytes, sha256: file.sha256 },
          resultJson: result.json,
          ...countFields(metadata.apiVersion, result.value),
          importedBy: caller,
        },
        review.clock.now(),
      );
    } catch (error) {
      await discardFile();
      throw error;
    }
    // The job was there already (imported at the same moment by another request, say): its document
    // has its own file.
    if (!outcome.imported) await discardFile();

    const now = review.clock.now();
    const body: ImportResponse = {
      document: presentReviewDocument(
        await withNames(review, outcome.document),
        await review.queue.currentCorrections(outcome.document.id),
        now,
      ),
      imported: outcome.imported,
    };
    return c.json(body, outcome.imported ? 201 : 200, { 'Cache-Control': 'no-store' });
  });

  return routes;
}

/** The upstream's id of the result itself: v2 the inference's, v1 the document's. */
function resultIdOf(apiVersion: 'v2' | 'v1', result: Record<string, unknown>): string | null {
  const holder = apiVersion === 'v2' ? result.inference : result.document;
  if (typeof holder !== 'object' || holder === null) return null;
  const id = (holder as Record<string, unknown>).id;
  return typeof id === 'string' && id !== '' ? id : null;
}
