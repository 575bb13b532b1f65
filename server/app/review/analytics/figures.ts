/**
 * Every figure of "Where time goes" for a model and period (docs/review-store.md), in the shape the
 * browser parses (packages/contract/src/review/analytics.ts).
 */
import type { AnalyticsResponse } from '@extraction-review/contract/review/analytics';
import type { ReviewDatabase } from '../db/open-database';
import { listDocumentModels } from '../store/queue-store';
import { confirmations } from './confirmations';
import { fieldCorrections } from './corrections';
import { queueAge } from './queue-age';
import type { AnalyticsScope } from './scope';
import { workTime } from './work-time';

export async function analyticsFigures(
  database: ReviewDatabase,
  scope: AnalyticsScope,
  now: number,
): Promise<AnalyticsResponse> {
  const { db } = database;
  const decided = await confirmations(db, scope);
  const corrections = await fieldCorrections(db, scope, decided.byOperator);
  const models = await listDocumentModels(db);
  return {
    model: scope.model ?? null,
    from: new Date(scope.from).toISOString(),
    to: new Date(scope.to).toISOString(),
    bucket: scope.bucket,
    generatedAt: new Date(now).toISOString(),
    models: models.map((row) => ({ apiVersion: row.api_version, model: row.model_key })),
    confirmations: decided,
    corrections: { documentsConfirmed: decided.byOperator, ...corrections },
    time: await workTime(db, database.engine, scope),
    queue: await queueAge(db, scope.model, now),
  };
}
