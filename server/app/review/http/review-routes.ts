/**
 * The shared queue over HTTP: the handlers of the routes declared in packages/contract/src/review/routes/queue.ts
 * (their paths, parameters, bodies, answers and access are there). Every route needs a session.
 *
 * A refused write says why, with the document as it is now in `current`: 409 `409-001` when the
 * version sent is not the document's any more, 403 `403-006` when another operator holds it, 409
 * `409-002` when its state does not allow the write, 404 `404-010` when there is no such document.
 */
import { Readable } from 'node:stream';
import { Hono, type Context } from 'hono';
import { KEPT_FILE_CONTENT_SECURITY_POLICY } from '@extraction-review/server-kit/security-headers';
import { readHead, servedType } from '../files/document-type';
import * as declared from '@extraction-review/contract/review/routes/queue';
import type {
  DocumentResponse,
  QueueFilterQuery,
  QueuePage,
  QueueSort,
} from '@extraction-review/contract/review/schemas';
import { ProblemError } from '@extraction-review/contract/problem';
import { effectiveState } from '../model/queue-state';
import { failingRules } from '../routing/route-result';
import { uncheckedCheck } from '../routing/unchecked-check';
import { documentTimeline } from '../store/audit-store';
import type { DocumentRow } from '../db/schema';
import { sortKeyOf, type DocumentFilters, type PageCursor, type WriteResult } from '../store/queue-store';
import { presentQueueDocument, presentReviewDocument, presentTimeline, withNames } from './present';
import { removeKeptFiles } from '../files/remove-kept-files';
import { mountRoute } from './mount-route';
import type { ReviewContext, ReviewEnv } from '../review-context';
import { timelineCsv } from './timeline-csv';
import { findAssignee } from './assignee';

export function reviewRoutes(review: ReviewContext): Hono<ReviewEnv> {
  const routes = new Hono<ReviewEnv>();

  const documentBody = async (row: Parameters<typeof withNames>[1]): Promise<DocumentResponse> => ({
    document: presentReviewDocument(
      await withNames(review, row),
      await review.queue.currentCorrections(row.id),
      review.clock.now(),
    ),
  });

  /** A write's answer: the document, or the refusal with the document as it is now. */
  const answer = async (c: Context, result: WriteResult) => {
    if (result.ok) return c.json(await documentBody(result.document), 200);
    throw await refusal(review, result);
  };

  const me = (c: Context<ReviewEnv>) => c.get('session').operator.id;

  mountRoute(routes, review, declared.takeNext, async (c, { query }) => {
    const document = await review.queue.takeNext(me(c), review.clock.now(), documentFilters(query, me(c)));
    if (document === undefined) return c.body(null, 204);
    return c.json(await documentBody(document), 200);
  });

  mountRoute(routes, review, declared.peekNext, async (c, { query }) => {
    const id = await review.queue.peekNext(me(c), review.clock.now(), documentFilters(query, me(c)));
    if (id === undefined) return c.body(null, 204, { 'Cache-Control': 'no-store' });
    return c.json({ id }, 200, { 'Cache-Control': 'no-store' });
  });

  mountRoute(routes, review, declared.listDocuments, async (c, { query }) => {
    const now = review.clock.now();
    const { rows, next } = await review.queue.listDocuments(
      {
        ...documentFilters(query, me(c)),
        sort: query.sort,
        after: decodeCursor(query.cursor, query.sort),
        limit: query.limit,
      },
      now,
    );
    const page: QueuePage = {
      documents: rows.map((row) => presentQueueDocument(row, now)),
      nextCursor: next === null ? null : encodeCursor(query.sort, next),
      counts: await review.queue.countByState(now, documentFilters(query, me(c))),
    };
    return c.json(page, 200, { 'Cache-Control': 'no-store' });
  });

  mountRoute(routes, review, declared.countDocuments, async (c, { query }) => {
    const counts = await review.queue.countByState(review.clock.now(), documentFilters(query, me(c)));
    return c.json({ counts }, 200, { 'Cache-Control': 'no-store' });
  });

  mountRoute(routes, review, declared.getDocument, async (c, { params: { id } }) => {
    const row = await review.queue.find(id);
    if (row === undefined) throw new ProblemError('404-010', 'No such document in the review.');
    return c.json(await documentBody(row), 200, { 'Cache-Control': 'no-store' });
  });

  // An open queue refreshes the one row a queue event names: one lookup, no count, no page.
  mountRoute(routes, review, declared.getDocumentRow, async (c, { params: { id } }) => {
    const row = await review.queue.find(id);
    if (row === undefined) throw new ProblemError('404-010', 'No such document in the review.');
    const document = presentQueueDocument(await withNames(review, row), review.clock.now());
    return c.json({ document }, 200, { 'Cache-Control': 'no-store' });
  });

  // The job's page asks which document its job brought, to lead to that document's one review.
  mountRoute(routes, review, declared.findJobDocument, async (c, { params: { apiVersion, jobId } }) => {
    const row = await review.queue.findByUpstreamJobOrResult(apiVersion, jobId);
    if (row === undefined) {
      throw new ProblemError(
        '404-016',
        `No document of the review was brought by the ${apiVersion} job ${jobId}.`,
      );
    }
    const document = presentQueueDocument(await withNames(review, row), review.clock.now());
    return c.json({ document }, 200, { 'Cache-Control': 'no-store' });
  });

  mountRoute(routes, review, declared.getDocumentFile, async (c, { params: { id } }) => {
    const row = await review.queue.find(id);
    if (row === undefined) throw new ProblemError('404-010', 'No such document in the review.');
    if (row.file_key === null) {
      if (row.file_removed_at !== null)
        throw new ProblemError(
          '404-010',
          `The file was removed on ${new Date(row.file_removed_at).toISOString()} by the model's retention rule.`,
        );
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
  const keptPageWords = async (c: Context, row: DocumentRow, page: number) => {
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

  mountRoute(routes, review, declared.getPageWords, async (c, { params: { id, page } }) => {
    const row = await review.queue.find(id);
    if (row === undefined) throw new ProblemError('404-010', 'No such document in the review.');
    return keptPageWords(c, row, page);
  });

  // A job's page (`/jobs/{id}`, `/jobs/v1/{id}`) knows its upstream job, not the review's document:
  // every upload the app makes goes through this server, which kept its file with the job's id.
  mountRoute(routes, review, declared.getJobPageWords, async (c, { params: { apiVersion, jobId, page } }) => {
    const row = await review.queue.findKeptByUpstreamJob(apiVersion, jobId);
    if (row === undefined) {
      throw new ProblemError(
        '404-010',
        `No kept document of the ${apiVersion} job ${JSON.stringify(jobId.slice(0, 100))}: it was not sent through this server, it was sent by URL, or its file was removed.`,
      );
    }
    return keptPageWords(c, row, page);
  });

  mountRoute(routes, review, declared.takeDocument, async (c, { params: { id } }) =>
    answer(c, await review.queue.take(id, me(c), review.clock.now())),
  );
  mountRoute(routes, review, declared.renewLease, async (c, { params: { id } }) =>
    answer(c, await review.queue.renewLease(id, me(c), review.clock.now())),
  );
  mountRoute(routes, review, declared.releaseDocument, async (c, { params: { id } }) =>
    answer(c, await review.queue.release(id, me(c), review.clock.now())),
  );

  mountRoute(routes, review, declared.saveCorrections, async (c, { params: { id }, body }) => {
    const { version, corrections } = body;
    return answer(c, await review.queue.saveCorrections(id, me(c), version, corrections, review.clock.now()));
  });

  mountRoute(routes, review, declared.confirmDocument, async (c, { params: { id }, body }) => {
    const { version, overrideReason, uncheckedConfirmed } = body;
    const now = review.clock.now();
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
    const unchecked = decidable ? await uncheckedCheck(review, row) : { paths: [], strict: false };
    if (unchecked.strict && unchecked.paths.length > 0) {
      const n = unchecked.paths.length;
      throw new ProblemError(
        '422-014',
        `${n === 1 ? '1 value is' : `${String(n)} values are`} not checked: this model's gate is strict. Confirm or correct ${n === 1 ? 'it' : 'each'} first (values at Medium, Low or no confidence).`,
        {
          errors: unchecked.paths.map((path) => ({
            pointer: fieldPointer(path),
            detail: 'Not checked: confirm or correct it',
          })),
        },
      );
    }
    const eventData = {
      ...(failures.length > 0 ? { override: overrideReason, failing: failures } : {}),
      // What nobody checked, and what the operator was told of and confirmed anyway: the history's.
      ...(unchecked.paths.length > 0 ? { unchecked: unchecked.paths.length } : {}),
      ...(uncheckedConfirmed !== undefined ? { uncheckedConfirmed } : {}),
    };
    const data = Object.keys(eventData).length > 0 ? eventData : undefined;
    return answer(c, await review.queue.decide(id, me(c), version, 'confirmed', null, now, data));
  });
  mountRoute(routes, review, declared.rejectDocument, async (c, { params: { id }, body }) => {
    const { version, reason } = body;
    return answer(c, await review.queue.decide(id, me(c), version, 'rejected', reason, review.clock.now()));
  });
  mountRoute(routes, review, declared.postponeDocument, async (c, { params: { id }, body }) => {
    const { version, reason, until } = body;
    const now = review.clock.now();
    const untilMs = until === undefined ? null : Date.parse(until);
    if (untilMs !== null && untilMs <= now) {
      throw new ProblemError('422-013', 'A document is postponed until a time to come.', {
        errors: [{ pointer: '#/until', detail: 'Choose a date after today.' }],
      });
    }
    const event = untilMs === null ? undefined : { until: new Date(untilMs).toISOString() };
    return answer(
      c,
      await review.queue.decide(id, me(c), version, 'postponed', reason ?? null, now, event, untilMs),
    );
  });

  mountRoute(routes, review, declared.reassignDocument, async (c, { params: { id }, body }) => {
    const target = await findAssignee(review.operators, body.operator);
    return answer(c, await review.queue.reassign(id, me(c), target.id, review.clock.now()));
  });
  mountRoute(routes, review, declared.setDocumentPriority, async (c, { params: { id }, body }) => {
    const { priority } = body;
    return answer(c, await review.queue.setPriority(id, me(c), priority, review.clock.now()));
  });
  mountRoute(routes, review, declared.reopenDocument, async (c, { params: { id } }) =>
    answer(c, await review.queue.reopen(id, me(c), review.clock.now())),
  );

  mountRoute(routes, review, declared.deleteDocument, async (c, { params: { id }, query }) => {
    const result = await review.queue.deleteDocument(id, me(c), review.clock.now(), {
      force: query.force === 'true',
    });
    if (!result.ok) throw await refusal(review, result);
    // The row is gone (committed): its kept file follows.
    if (result.fileKey !== null) await removeKeptFiles(review.files, [result.fileKey]);
    return c.body(null, 204);
  });

  mountRoute(routes, review, declared.getTimeline, async (c, { params: { id }, query }) => {
    if ((await review.queue.find(id)) === undefined)
      throw new ProblemError('404-010', 'No such document in the review.');
    const events = presentTimeline(await documentTimeline(review.database.db, id));
    if (query.format === 'csv') {
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
  const now = review.clock.now();
  const current = presentQueueDocument(await withNames(review, result.current), now);
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

/** The queue's filters as the store reads them (times in ms; `assigned=me` is the caller). */
function documentFilters(query: QueueFilterQuery, me: string): DocumentFilters {
  return {
    state: query.state,
    model: query.model,
    operator: query.operator,
    uploadedBy: query.uploadedBy,
    from: query.from === undefined ? undefined : Date.parse(query.from),
    to: query.to === undefined ? undefined : Date.parse(query.to),
    search: query.q,
    minAmount: query.minAmount,
    maxAmount: query.maxAmount,
    assigned: query.assigned === 'me' ? me : query.assigned,
  };
}

/**
 * A page's end as an opaque text: the order it belongs to, the last row's value of the sorted column
 * and its id. A cursor of another order (the operator sorted meanwhile) is refused, not misread.
 */
function encodeCursor(sort: QueueSort, cursor: PageCursor): string {
  return Buffer.from(JSON.stringify([sort, cursor.value, cursor.id])).toString('base64url');
}

function decodeCursor(text: string | undefined, sort: QueueSort): PageCursor | undefined {
  if (text === undefined) return undefined;
  try {
    const [order, value, id] = JSON.parse(Buffer.from(text, 'base64url').toString()) as unknown[];
    const numeric = sortKeyOf(sort).key === 'received' || sortKeyOf(sort).key === 'priority';
    if (order === sort && typeof id === 'string' && typeof value === (numeric ? 'number' : 'string')) {
      return { value: value as string | number, id };
    }
  } catch {
    // Falls through to the refusal.
  }
  throw new ProblemError('422-008', 'This cursor is not one a page of this order gave.', {
    errors: [{ pointer: '#/cursor', detail: 'Pass nextCursor of the previous page as it is.' }],
  });
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
