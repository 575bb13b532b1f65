/**
 * A minor garbage collection (a scavenge), now, then a turn of the event loop for the finalizers it
 * scheduled. @napi-rs/canvas 1.0 hands its pixel copies (`data()`, `getImageData`) to V8 as external
 * buffers without telling V8 their size, so V8 feels no pressure and keeps them until some later
 * collection: 15 MB a Letter page at 200 dpi, ~900 MB over 60 pages drawn in a row (once read as a
 * native leak, Brooooooklyn/canvas#819). The copy is young and dropped at once, so a scavenge frees it.
 * Measured in one run, 60 pages at 200 dpi: this 44 ms a page and +0 MB; a full collection instead
 * 93 ms; the pixels escaped through a PNG and sharp 233 ms; nothing 68 ms and +905 MB.
 *
 * `gc` is not exposed without `--expose-gc`; the flag may be set at run time, and a new context then
 * has it (the flag is the process's: every thread sees it). Where that fails, nothing is collected
 * here and V8's own pace applies.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type Gc = (options?: { type?: 'minor' | 'major'; execution?: 'sync' | 'async' }) => void;

let gc: Gc | null | undefined;

function exposedGc(): Gc | null {
  if (gc !== undefined) return gc;
  try {
    setFlagsFromString('--expose-gc');
    const found: unknown = runInNewContext('gc');
    gc = typeof found === 'function' ? (found as Gc) : null;
  } catch {
    gc = null;
  }
  return gc;
}

export async function collectYoung(): Promise<void> {
  exposedGc()?.({ type: 'minor' });
  await new Promise<void>((resolve) => setImmediate(resolve));
}
