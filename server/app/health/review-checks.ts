/**
 * What `/api/health/ready` checks on a copy with a review store (server/main.ts; the tests build the
 * same): the store answers, its schema is one this code serves on (the upgrade's compatibility rules,
 * review/db/migrate.ts), the queue's LISTEN connection (PostgreSQL), the file storage takes a write,
 * and the upstreams (reported only). A check whose dependency cannot tell (a bus without
 * `connected()`, a storage without `check()`) is left out.
 */
import type { UpstreamTarget } from '../upstream/upstream-target';
import { describeSchema, isServable, readSchemaStatus } from '../review/db/migrate';
import type { OpenedReview } from '../review/open-review';
import { databaseCheck, fileStorageCheck, listenCheck, migrationsCheck, upstreamCheck } from './checks';
import type { ReadinessCheck } from './readiness';

export function reviewReadinessChecks(
  review: Pick<OpenedReview, 'database' | 'bus' | 'files'>,
  upstream: { v2?: UpstreamTarget | undefined; v1?: UpstreamTarget | undefined },
): ReadinessCheck[] {
  const checks: (ReadinessCheck | undefined)[] = [
    databaseCheck(review.database),
    migrationsCheck(async () => {
      const status = await readSchemaStatus(review.database);
      return isServable(status)
        ? { ok: true, ...(status.state === 'current' ? {} : { detail: describeSchema(status) }) }
        : { ok: false, detail: describeSchema(status) };
    }),
    listenCheck(review.bus),
    fileStorageCheck(review.files),
  ];
  // One check when both versions go to the same service (the embedded one, or one reference service).
  const { v2, v1 } = upstream;
  if (v2 !== undefined && v1 !== undefined && v2.url === v1.url) checks.push(upstreamCheck('upstream', v2));
  else {
    if (v2 !== undefined) checks.push(upstreamCheck('upstreamV2', v2));
    if (v1 !== undefined) checks.push(upstreamCheck('upstreamV1', v1));
  }
  return checks.filter((check) => check !== undefined);
}
