/**
 * `npm run bench`: performance figures, each beside a baseline measured in the same run on the same
 * machine. Figures are printed, never asserted (see the issues for the figures to reach).
 *
 *   npm run bench                 every suite
 *   npm run bench -- reference    only the reference service
 *   npm run bench -- viewer       only the document viewer (Chromium, production build)
 *   npm run bench -- queue        the team queue on SQLite and PostgreSQL (100,000 documents, 20 operators),
 *                                 and the job follower's upstream polls per job with 1 and 3 app-server copies,
 *                                 then the review's next document in Chromium (queue-browser, below);
 *                                 `--documents 1000000` (or `100000,1000000`: side by side), `--engines
 *                                 postgres`, `--server-only`, `--analyze-sqlite` (bench/queue-options.ts)
 *   npm run bench -- queue-browser  only that last part: "Confirm and next", Reject and Postpone → the next
 *                                 document's page 1 drawn (prefetched while the current one is reviewed),
 *                                 beside cold opens (Chromium, production build, the real app server)
 *   npm run bench -- gateway      what the gateway adds to a pipeline's calls, beside the upstream straight
 *   npm run bench -- app-memory   the app server's resident memory at rest with hosted upstreams, beside the
 *                                 same server with its embedded reference service
 */
import { parseArgs } from 'node:util';
import { benchAppServerMemory } from './app-server-memory';
import { benchGateway } from './gateway';
import { benchQueue } from './queue';
import { benchQueueBrowser } from './queue-browser';
import { benchReferenceService } from './reference-service';
import { benchViewer } from './viewer';
import { parseQueueOptions, type QueueOptions } from './queue-options';

// The app server's access log (a line per request) would bury the figures: warnings and errors only.
process.env.LOG_LEVEL ??= 'warn';

let queueOptions: QueueOptions;
let chosen: string[];
try {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      documents: { type: 'string' },
      engines: { type: 'string' },
      'server-only': { type: 'boolean' },
      'analyze-sqlite': { type: 'boolean' },
    },
  });
  queueOptions = parseQueueOptions({
    documents: values.documents,
    engines: values.engines,
    serverOnly: values['server-only'],
    analyzeSqlite: values['analyze-sqlite'],
  });
  chosen = positionals;
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(2);
}

const suites: Record<string, () => Promise<void>> = {
  reference: benchReferenceService,
  viewer: benchViewer,
  queue: () => benchQueue(queueOptions),
  'queue-browser': benchQueueBrowser,
  gateway: benchGateway,
  'app-memory': benchAppServerMemory,
};

const unknown = chosen.filter((name) => !(name in suites));
if (unknown.length > 0) {
  console.error(`Unknown suite(s): ${unknown.join(', ')}. Suites: ${Object.keys(suites).join(', ')}.`);
  process.exit(2);
}

for (const name of chosen.length > 0 ? chosen : Object.keys(suites)) {
  console.log(`\n=== ${name} ===`);
  await suites[name]?.();
}
// Extraction threads and the OCR engine keep handles open; the figures are printed.
process.exit(0);
