/**
 * The retention purge's log (../purge-log.ts; the handler: server/app/review/http/purge-log-routes.ts).
 */
import { PurgeLogResponse } from '../purge-log';
import { declareRoute } from './declare';

export const listPurgeRuns = declareRoute({
  operationId: 'listPurgeRuns',
  method: 'get',
  path: '/api/review/purge-runs',
  tag: 'review',
  summary: 'What the retention purge removed (admins)',
  description:
    'The latest purges, newest first: when, which copy or command, the files removed and documents deleted per model, and what failed. A purge that found nothing due is kept only as the latest check.',
  access: 'admin',
  responses: { 200: { description: 'The purge log.', schema: PurgeLogResponse } },
});

export const retentionRoutes = [listPurgeRuns] as const;
