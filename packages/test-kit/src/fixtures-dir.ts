/** Where the recorded corpus is: FIXTURES_DIR, or `<repo>/../shared/fixtures/mindee-test-data`. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export const fixturesDir = path.resolve(
  process.env.FIXTURES_DIR ?? path.join(repoRoot, '..', 'shared', 'fixtures', 'mindee-test-data'),
);
