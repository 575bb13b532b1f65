// The hooks of module-record.mjs: each resolved URL appended to the record file (synchronously, so
// that a reader sees every module resolved before it looked).
import { appendFileSync } from 'node:fs';

let file;

export function initialize(data) {
  file = data.file;
}

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  appendFileSync(file, `${resolved.url}\n`);
  return resolved;
}
