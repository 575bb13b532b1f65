// Entry of every extraction thread. Worker threads do not inherit tsx's loader, so this plain module
// registers it and imports the TypeScript entry named in workerData (relative to this file).
import { workerData } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

await tsImport(workerData.entry, import.meta.url);
