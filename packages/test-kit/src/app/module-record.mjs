// `node --import <this file>`: records the URL of every module the process resolves, one a line, in the
// file MODULE_RECORD_FILE names (app-server-modules.test.ts). The hooks run in Node's hooks thread and
// apply to the main thread and the worker threads alike, so a module loaded only by a thread (the
// page-words thread's sharp and tesseract) is recorded too. Test only: every resolution costs a write.
import { register } from 'node:module';
import process from 'node:process';
import { URL } from 'node:url';

const file = process.env.MODULE_RECORD_FILE;
if (file) register(new URL('./module-record-hooks.mjs', import.meta.url), { data: { file } });
