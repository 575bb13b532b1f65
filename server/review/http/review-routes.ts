/**
 * The shared queue over HTTP (every route needs a session; writes its CSRF token):
 *
 *   POST /api/review/next                        → 200 { document } now held by the caller; 204 none left
 *   GET  /api/review/documents?state&model&operator&from&to&q&cursor&limit → QueuePage
 *   GET  /api/review/counts                      → counts per state
 *   GET  /api/review/documents/{id}              → { document } (result and corrections included)
 *   POST /api/review/documents/{id}/take         → { document } held by the caller
 *   POST /api/review/documents/{id}/lease        → renews the caller's lease (the open review calls it)
 *   POST /api/review/documents/{id}/release      → back to the queue, undecided
 *   PUT  /api/review/documents/{id}/corrections  { version, corrections: [{ path, value }] }
 *   POST /api/review/documents/{id}/confirm      { version, overrideReason? }  (422 `422-009` when a
 *                                                business rule fails and no reason is given)
 *   POST /api/review/documents/{id}/reject       { version, reason }
 *   POST /api/review/documents/{id}/postpone     { version, reason? }
 *   POST /api/review/documents/{id}/reassign     { operator }   (admins)
 *   POST /api/review/documents/{id}/reopen                      (admins)
 *   POST /api/review/documents/{id}/priority     { priority }   (admins; higher comes up first)
 *   GET  /api/review/documents/{id}/file         → the kept file (the viewer shows it)
 *   GET  /api/review/documents/{id}/pages/{n}/words → the words of page n (0-based), for picking values
 *   GET  /api/review/jobs/{v1|v2}/{job id}/pages/{n}/words → the same, for the kept document of an
 *                                                upstream job (a job's own page, `/jobs/{id}`)
 *   GET  /api/review/documents/{id}/timeline     → { events }; `?format=csv` for admins
 *
 * A refused write says why, with the document as it is now in `current`: 409 `409-001` when the
 * version sent is not the document's any more, 403 `403-006` when another operator holds it, 409
 * `409-002` when its state does not allow the write, 404 `404-010` when there is no such document.
 */
import { Readable } from 'node:stream';
import { Hono, type Context } from 'hono';
import { KEPT_FILE_CONTENT_SECURITY_POLICY } from '../../app/security-headers';
import { readHead, servedType } from '../files/document-type';
import {
  ConfirmRequest,
  CorrectionsRequest,
  PostponeRequest,
  PriorityRequest,
  QueueQuery,
  ReassignRequest,
  RejectRequest,
  type DocumentResponse,
  type QueuePage,
} from '../../../src/api/review/schemas';
import { ProblemError } from '../../shared/problem';
import { effectiveState } from '../queue-state';
import { failingRules } from '../routing/route-result';
import { documentTimeline } from '../store/audit-store';
import type { DocumentRow } from '../db/schema';
import type { WriteResult } from '../store/queue-store';
import type { ApiVersion } from '../review-types';
import { presentQueueDocument, presentReviewDocument, presentTimeline, withNames } from './present';
import { readBody, readQuery } from './read-body';
import type { ReviewContext, ReviewEnv } from './review-context';
import { requireAdmin, requireSession } from './session-auth';
import { timelineCsv } from './timeline-csv';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function reviewRoutes(review: ReviewContext): Hono<ReviewEnv> {
  const routes = new Hono<ReviewEnv>();
  routes.use('*', requireSession(review));

  const documentBody = async (row: Parameters<typeof withNames>[1]): Promise<DocumentResponse> => ({
    document: presentReviewDocument(
      await withNames(review.database, row),
      await review.queue.currentCorrections(row.id),
      review.now(),
    ),
  });

  /** A write's answer: the document, or the refusal with the document as it is now. */
  const answer = async (c: Context, result: WriteResult) => {
    if (result.ok) return c.json(await documentBody(result.document), 200);
    throw await refusal(review, result);
  };

  const idOf = (c: Context): string => {
    const id = c.req.param('id') ?? '';
    if (!UUID.test(id))
      throw new ProblemError('404-010', `No document ${JSON.stringify(id.slice(0, 100))} in the review.`);
    return id;
  };
  const me = (c: Context<ReviewEnv>) => c.get('session').operator.id;

  routes.post('/next', async (c) => {
    const document = await review.queue.takeNext(me(c), review.now());
    if (document === undefined) return c.body(null, 204);
    return c.json(await documentBody(document), 200);
  });

  routes.get('/documents', async (c) => {
    const query = readQuery(c, QueueQuery);
    const now = review.now();
    const { rows, next } = await review.queue.listDocuments(
      {
        state: query.state,
        model: query.model,
        operator: query.operator,
        from: query.from === undefined ? undefined : Date.parse(query.from),
        to: query.to === undefined ? undefined : Date.parse(query.to),
        search: query.q,
        after: decodeCursor(query.cursor),
        limit: query.limit,
      },
      now,
    );
    const page: QueuePage = {
      documents: rows.map((row) => presentQueueDocument(row, now)),
      nextCursor: next === null ? null : encodeCursor(next),
      counts: await review.queue.countByState(now),
    };
    return c.json(page, 200, { 'Cache-Control': 'no-store' });
  });

  routes.get('/counts', async (c) =>
    c.json({ counts: await review.queue.countByState(review.now()) }, 200, { 'Cache-Control': 'no-store' }),
  );

  routes.get('/documents/:id', async (c) => {
    const row = await review.queue.find(idOf(c));
    if (row === undefined) throw new ProblemError('404-010', 'No such document in the review.');
    return c.json(await documentBody(row), 200, { 'Cache-Control': 'no-store' });
  });

  routes.get('/documents/:id/file', async (c) => {
    const row = await review.queue.find(idOf(c));
    if (row === undefined) throw new ProblemError('404-010', 'No such document in the review.');
    if (row.file_key === null) {
      throw new ProblemError('404-010', 'This document has no kept file (it was sent by URL).');
    }
    const opened = await review.files?.open(row.file_key);
    if (opened === undefined) throw keptFileMissing();
    // A kept file never changes (its key is new at every save), so its key is its validator: the
    // browser keeps the file and asks again at every use (the session is checked each time), and a
    // reopened review gets a 304 instead of the bytes again.
    const validator = `"${row.file_key}"`;
    const cache = { ETag: validator, 'Cache-Control': 'private, no-cache' };
    if (matchesValidator(c.req.header('If-None-Match'), validator)) {
      opened.stream.destroy();
      return new Response(null, { status: 304, headers: cache });
    }
    // The type from the bytes, at every answer, never the one kept with the row (a file kept before
    // intake sniffed carries its sender's word): a document type shown inline, anything else saved.
    const { head, whole } = await readHead(opened.stream);
    const served = servedType(head);
    return new Response(Readable.toWeb(whole) as ReadableStream, {
      status: 200,
      headers: {
        'Content-Type': served.contentType,
        'Content-Length': String(opened.bytes),
        'Content-Disposition': `${served.disposition}; filename*=UTF-8''${encodeURIComponent(row.file_name)}`,
        // Shown by the viewer, never run: a file is data, whatever it holds. The global security
        // headers keep this policy (security-headers.ts).
        'Content-Security-Policy': KEPT_FILE_CONTENT_SECURITY_POLICY,
        'X-Content-Type-Options': 'nosniff',
        ...cache,
      },
    });
  });

  /** A kept file's page of words (`:page`, 0-based), read once by the words reader. */
  const keptPageWords = async (c: Context, row: DocumentRow) => {
    const page = Number(c.req.param('page'));
    if (!Number.isInteger(page) || page < 0 || page > 100_000)
      throw new ProblemError('404-010', 'Pages are numbered from 0.');
    if (row.file_key === null || review.words === undefined) {
      throw new ProblemError(
        '404-010',
        'This document has no kept file (it was sent by URL, or its file was removed).',
      );
    }
    const words = await review.words.words(
      { id: row.id, fileKey: row.file_key, mimeType: row.mime_type ?? 'application/octet-stream' },
      page,
    );
    // The same page always reads the same: the browser may keep it while the session lasts.
    return c.json(words, 200, { 'Cache-Control': 'private, max-age=3600' });
  };

  routes.get('/documents/:id/pages/:page/words', async (c) => {
    const row = await review.queue.find(idOf(c));
    if (row === undefined) throw new ProblemError('404-010', 'No such document in the review.');
    return keptPageWords(c, row);
  });

  // A job's page (`/jobs/{id}`, `/jobs/v1/{id}`) knows its upstream job, not the review's document:
  // every upload the app makes goes through this server, which kept its file with the job's id.
  routes.get('/jobs/:apiVersion/:jobId/pages/:page/words', async (c) => {
    const apiVersion = c.req.param('apiVersion');
    const jobId = c.req.param('jobId') ?? '';
    if ((apiVersion !== 'v1' && apiVersion !== 'v2') || jobId === '' || jobId.length > 200)
      throw new ProblemError('404-010', 'No document of this job in the review.');
    const row = await keptDocumentOfJob(review, apiVersion, jobId);
    if (row === undefined) {
      throw new ProblemError(
        '404-010',
        `No kept document of the ${apiVersion} job ${JSON.stringify(jobId.slice(0, 100))}: it was not sent through this server, it was sent by URL, or its file was removed.`,
      );
    }
    return keptPageWords(c, row);
  });

  routes.post('/documents/:id/take', async (c) =>
    answer(c, await review.queue.take(idOf(c), me(c), review.now())),
  );
  routes.post('/documents/:id/lease', async (c) =>
    answer(c, await review.queue.renewLease(idOf(c), me(c), review.now())),
  );
  routes.post('/documents/:id/release', async (c) =>
    answer(c, await review.queue.release(idOf(c), me(c), review.now())),
  );

  routes.put('/documents/:id/corrections', async (c) => {
    const id = idOf(c);
    const { version, corrections } = await readBody(c, CorrectionsRequest);
    return answer(c, await review.queue.saveCorrections(id, me(c), version, corrections, review.now()));
  });

  routes.post('/documents/:id/confirm', async (c) => {
    const id = idOf(c);
    const { version, overrideReason } = await readBody(c, ConfirmRequest);
    const now = review.now();
    const row = await review.queue.find(id);
    // Checked only when the confirmation would go through: a refusal of another kind comes first.
    const decidable =
      row !== undefined &&
      row.version === version &&
      effectiveState(row, now) === 'in_review' &&
      row.holder_id === me(c);
    const failures = decidable ? await failingRules(review, row) : [];
    if (failures.length > 0 && overrideReason === undefined) {
      throw new ProblemError(
        '422-009',
        `${failures.length === 1 ? 'A business rule fails' : `${String(failures.length)} business rules fail`}: correct the values, or confirm with a reason (overrideReason), which the timeline keeps.`,
        {
          errors: failures.map((f) => ({ pointer: fieldPointer(f.fields[0]), detail: f.message })),
          extensions: { failures },
        },
      );
    }
    const override = failures.length > 0 ? { override: overrideReason, failing: failures } : undefined;
    return answer(c, await review.queue.decide(id, me(c), version, 'confirmed', null, now, override));
  });
  routes.post('/documents/:id/reject', async (c) => {
    const id = idOf(c);
    const { version, reason } = await readBody(c, RejectRequest);
    return answer(c, await review.queue.decide(id, me(c), version, 'rejected', reason, review.now()));
  });
  routes.post('/documents/:id/postpone', async (c) => {
    const id = idOf(c);
    const { version, reason } = await readBody(c, PostponeRequest);
    return answer(
      c,
      await review.queue.decide(id, me(c), version, 'postponed', reason ?? null, review.now()),
    );
  });

  routes.post('/documents/:id/reassign', requireAdmin(), async (c) => {
    const id = idOf(c);
    const { operator } = await readBody(c, ReassignRequest);
    const target =
      (await review.operators.findById(operator)) ?? (await review.operators.findByName(operator));
    if (target === undefined) throw new ProblemError('404-012', `No operator ${JSON.stringify(operator)}.`);
    return answer(c, await review.queue.reassign(id, me(c), target.id, review.now()));
  });
  routes.post('/documents/:id/priority', requireAdmin(), async (c) => {
    const id = idOf(c);
    const { priority } = await readBody(c, PriorityRequest);
    return answer(c, await review.queue.setPriority(id, me(c), priority, review.now()));
  });
  routes.post('/documents/:id/reopen', requireAdmin(), async (c) =>
    answer(c, await review.queue.reopen(idOf(c), me(c), review.now())),
  );

  routes.get('/documents/:id/timeline', async (c) => {
    const id = idOf(c);
    if ((await review.queue.find(id)) === undefined)
      throw new ProblemError('404-010', 'No such document in the review.');
    const events = presentTimeline(await documentTimeline(review.database.db, id));
    if (c.req.query('format') === 'csv') {
      if (c.get('session').operator.role !== 'admin')
        throw new ProblemError('403-005', 'Only an admin may export a timeline.');
      return c.body(timelineCsv(events), 200, {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="timeline-${id}.csv"`,
        'Cache-Control': 'no-store',
      });
    }
    return c.json({ events }, 200, { 'Cache-Control': 'no-store' });
  });

  return routes;
}

async function refusal(
  review: ReviewContext,
  result: Extract<WriteResult, { ok: false }>,
): Promise<ProblemError> {
  if (result.reason === 'not_found') return new ProblemError('404-010', 'No such document in the review.');
  const now = review.now();
  const current = presentQueueDocument(await withNames(review.database, result.current), now);
  const extensions = { current };
  switch (result.reason) {
    case 'stale':
      return new ProblemError(
        '409-001',
        `The document changed since you read it: it is now version ${current.version}. Reload it to see what changed.`,
        { extensions },
      );
    case 'not_holder':
      return new ProblemError(
        '403-006',
        current.holder === null
          ? 'You no longer hold this document: your review was idle too long and its lease ran out. Take it again.'
          : `${current.holder.name ?? 'Another operator'} is reviewing this document (until ${current.leaseExpiresAt ?? 'they leave'}).`,
        { extensions },
      );
    case 'wrong_state':
      return new ProblemError(
        '409-002',
        `This cannot be done to a document that is ${current.state.replace('_', ' ')}.`,
        {
          extensions,
        },
      );
  }
}

/** A review path (`line_items[1].total_price`) as a JSON Pointer to the document's field. */
function fieldPointer(path: string | undefined): string | null {
  if (path === undefined) return null;
  const segments = path.split(/\.|\[|\]/).filter((s) => s !== '');
  return `#/fields/${segments.map((s) => s.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;
}

function encodeCursor(cursor: { createdAt: number; id: string }): string {
  return Buffer.from(JSON.stringify([cursor.createdAt, cursor.id])).toString('base64url');
}

function decodeCursor(text: string | undefined): { createdAt: number; id: string } | undefined {
  if (text === undefined) return undefined;
  try {
    const [createdAt, id] = JSON.parse(Buffer.from(text, 'base64url').toString()) as [unknown, unknown];
    if (typeof createdAt === 'number' && typeof id === 'string') return { createdAt, id };
  } catch {
    // Falls through to the refusal.
  }
  throw new ProblemError('422-008', 'This cursor is not one a page gave.', {
    errors: [{ pointer: '#/cursor', detail: 'Pass nextCursor of the previous page as it is.' }],
  });
}

/**
 * The latest document with a kept file that an upstream job brought: v2 by its job id; v1 by its
 * queued job's id or, for a synchronous prediction (whose page is addressed by it), its document's.
 */
async function keptDocumentOfJob(
  review: ReviewContext,
  apiVersion: ApiVersion,
  jobId: string,
): Promise<DocumentRow | undefined> {
  return review.database.db
    .selectFrom('documents')
    .selectAll()
    .where('api_version', '=', apiVersion)
    .where((eb) =>
      apiVersion === 'v1'
        ? eb.or([eb('upstream_job_id', '=', jobId), eb('upstream_result_id', '=', jobId)])
        : eb('upstream_job_id', '=', jobId),
    )
    .where('file_key', 'is not', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

/** `If-None-Match` names `validator` (RFC 9110 13.1.2: weak comparison, a list, or `*`). */
function matchesValidator(header: string | undefined, validator: string): boolean {
  if (header === undefined) return false;
  return header.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed.replace(/^W\//, '') === validator;
  });
}

/**
 * The row names a kept file that this copy's storage does not have: never "no file" (a 404 the review
 * takes for a document sent by URL, and shows the values alone), but an error the operator sees, so
 * that nobody confirms values without the page (issue 19: copies on two machines, each its own disk).
 */
function keptFileMissing(): ProblemError {
  return new ProblemError(
    '500-005',
    "The review store names a kept file for this document, but this copy's file storage has none. " +
      'Copies on several machines must share their files (FILE_STORAGE=database or s3).',
  );
}
