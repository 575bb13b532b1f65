// Entry of every worker thread of ours (extraction threads, test workers). Worker threads do not
// inherit tsx's loader, so this plain module registers it and imports the TypeScript entry named in
// workerData.entry (a file URL).
import { workerData } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

await tsImport(workerData.entry, import.meta.url);
