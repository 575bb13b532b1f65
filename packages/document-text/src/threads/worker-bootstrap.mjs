// Entry of worker threads that run TypeScript as is (test workers). Worker threads do not
// inherit tsx's loader, so this plain module registers it and imports the TypeScript entry named in
// workerData.entry (a file URL). Each such thread gets a hooks thread of its own (Node 20): ~35–40 MB
// of resident memory, which is why the extraction threads run bundled JavaScript instead
// (packages/document-text/src/threads/worker-entries.ts).
import { randomUUID } from 'node:crypto';
import { register as registerHooks } from 'node:module';
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

// What tsImport() does, split so that our hooks can be registered after tsx's: the last registered
// runs first, and untransformed-modules-hooks.mjs must see pdf.js's modules before tsx does.
const tsx = register({ namespace: randomUUID() });
registerHooks('./untransformed-modules-hooks.mjs', import.meta.url);
await tsx.import(workerData.entry, import.meta.url);
