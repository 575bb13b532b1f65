import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openReview } from '@extraction-review/app-server/review/open-review';
import { seedQueue } from './queue-seed';

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'scratch-plan-'));
const review = await openReview({ dataDir, leaseMs: 600_000 });
const op = await review.operators.create({ name: 'x', role: 'operator', passwordHash: 'x' }, Date.now());
const N = Number(process.argv[2] ?? 20000);
console.log(await seedQueue(review, N, [op.id]));
for (const f of [
  { limit: 50, sort: '-received' },
  { limit: 50, sort: '-received', state: 'to_review' },
]) {
  const t = performance.now();
  for (let i = 0; i < 5; i++) await review.queue.listDocuments(f as never, Date.now());
  console.log(JSON.stringify(f), ((performance.now() - t) / 5).toFixed(1), 'ms');
}
console.log(dataDir);
await review.close();
process.exit(0);
