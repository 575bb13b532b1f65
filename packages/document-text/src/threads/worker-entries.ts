/**
 * The extraction and inspection threads' code as plain JavaScript, so that a thread starts without
 * tsx. A thread that registers tsx's module hooks (packages/document-text/src/threads/worker-bootstrap.mjs) gets, in Node
 * 20, a hooks thread of its own (a second Node environment, tsx and esbuild's service in it): measured
 * ~35–40 MB of resident memory per thread beyond a bare thread's ~8 MB, for TypeScript that never
 * changes while the process runs.
 *
 * Once per process, the two entries are bundled with esbuild (our modules only, ~0.1 s; packages stay
 * imports) and written, with pdf.js's two modules patched as the hooks patched them (fixed RGB chunk
 * conversion, no `sourceMappingURL`), under `node_modules/.cache/reference-threads/`, where the
 * bundles' package imports resolve as from the sources. Files are named by their content's hash
 * (written whole, then renamed): processes of the same code share them, another version's never
 * clash. Bundles untouched for a day are removed.
 */
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, buildSync, stop as stopEsbuild, type BuildOptions, type OutputFile } from 'esbuild';
import { patchPdfJs, withoutSourceMap } from './untransformed-modules-hooks.mjs';
import { componentLogger } from '@extraction-review/server-kit/logger';

const logger = componentLogger('document text');

export type ThreadKind = 'extraction' | 'inspection';

const SOURCES: Record<ThreadKind, string> = {
  extraction: fileURLToPath(new URL('./extraction-worker.ts', import.meta.url)),
  inspection: fileURLToPath(new URL('./inspection-worker.ts', import.meta.url)),
};

/** The one specifier of pdf.js our modules import (pdfjs.ts); the bundles import the patched copy. */
const PDFJS_SPECIFIER = 'pdfjs-dist/legacy/build/pdf.mjs';
/** Kept bundles of other versions of the code at most this long after their last use. */
const STALE_MS = 24 * 60 * 60_000;

const require = createRequire(import.meta.url);

let entries: Record<ThreadKind, URL> | undefined;
let unwritable = false;

/** How a thread of a kind starts: its entry and what the Worker constructor needs beside it. */
export interface ThreadStart {
  url: URL;
  workerData?: { entry: string };
}

const BOOTSTRAP = new URL('./worker-bootstrap.mjs', import.meta.url);

/**
 * How to start each thread kind: the bundled entry, or, where the bundles cannot be written (a
 * read-only `node_modules`, as in some container images), the TypeScript entry through tsx's hooks
 * (packages/document-text/src/threads/worker-bootstrap.mjs): the same code, ~35–40 MB more per thread. Said once.
 */
export function threadStart(
  kind: ThreadKind,
  entriesOf: () => Record<ThreadKind, URL> = workerEntries,
): ThreadStart {
  if (!unwritable) {
    try {
      return { url: entriesOf()[kind] };
    } catch (error) {
      unwritable = true;
      logger.warn(unwritableWarning(error));
    }
  }
  return { url: BOOTSTRAP, workerData: { entry: pathToFileURL(SOURCES[kind]).href } };
}

/**
 * The file URL of each thread kind's entry. The first call builds and writes them (synchronously:
 * ~0.1–0.2 s, at the first thread's start, which warm-up does at service start); a later one writes
 * them again if they have gone (removed as stale by another process after a day).
 */
export function workerEntries(): Record<ThreadKind, URL> {
  if (entries && !Object.values(entries).every((url) => existsSync(url))) entries = undefined;
  entries ??= writeEntries();
  return entries;
}

let preparing: Promise<void> | undefined;

/**
 * Writes the entries with esbuild's asynchronous build, so that the first thread's start does not
 * hold the calling thread's event loop for the bundling (~0.15–0.45 s measured, on the app server's
 * thread when the first page-words read or job starts a thread). The pool awaits it before starting
 * a thread; `workerEntries()` then answers at once. Where the entries cannot be written, said once
 * and left to `threadStart`'s fallback.
 */
export function workerEntriesReady(): Promise<void> {
  if (unwritable || (entries && Object.values(entries).every((url) => existsSync(url)))) {
    return Promise.resolve();
  }
  preparing ??= (async () => {
    try {
      const { options, finish } = prepareEntries();
      entries = finish((await build(options)).outputFiles ?? []);
      void stopEsbuild();
    } catch (error) {
      void stopEsbuild();
      unwritable = true;
      logger.warn(unwritableWarning(error));
    }
  })().finally(() => {
    preparing = undefined;
  });
  return preparing;
}

const unwritableWarning = (error: unknown): string =>
  `[reference] the threads' bundled entries could not be written (${error instanceof Error ? error.message : String(error)}): threads run their TypeScript through tsx instead, ~35–40 MB more each.`;

function writeEntries(): Record<ThreadKind, URL> {
  const { options, finish } = prepareEntries();
  const built = buildSync(options);
  // buildSync runs esbuild in a thread of this process and a child process, both kept for the next
  // call (~10 MB here, ~20 MB there): there is none.
  void stopEsbuild();
  return finish(built.outputFiles);
}

/** pdf.js's patched copy written, and what esbuild is to build and what to do with its output. */
function prepareEntries(): {
  options: BuildOptions & { write: false };
  finish: (outputFiles: OutputFile[]) => Record<ThreadKind, URL>;
} {
  const pdfjsBuild = path.dirname(require.resolve(PDFJS_SPECIFIER));
  const cacheDir = path.join(pdfjsBuild, '..', '..', '..', '.cache', 'reference-threads');

  // pdf.mjs imports its worker module as ./pdf.worker.mjs: both go in one directory.
  const pdfjs = ['pdf.mjs', 'pdf.worker.mjs'].map((name) => ({
    name,
    text: withoutSourceMap(patchPdfJs(readFileSync(path.join(pdfjsBuild, name), 'utf8'))),
  }));
  const pdfjsDir = `pdfjs-${hashOf(pdfjs.map((file) => file.text))}`;
  for (const file of pdfjs) writeOnce(path.join(cacheDir, pdfjsDir, file.name), file.text);

  const kinds = Object.keys(SOURCES) as ThreadKind[];
  const options = {
    entryPoints: kinds.map((kind) => SOURCES[kind]),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    // Not minified: a failure's stack (sent back as the job's failure) still names our functions.
    write: false,
    outdir: cacheDir,
    logLevel: 'silent',
  } satisfies BuildOptions;
  const finish = (outputFiles: OutputFile[]): Record<ThreadKind, URL> => {
    const result = {} as Record<ThreadKind, URL>;
    kinds.forEach((kind, index) => {
      const output = outputFiles[index];
      if (!output) throw new Error(`esbuild wrote no ${kind} thread entry`);
      const text = output.text.replaceAll(`"${PDFJS_SPECIFIER}"`, `"./${pdfjsDir}/pdf.mjs"`);
      if (kind === 'extraction' && text === output.text)
        throw new Error(`The ${kind} thread's bundle does not import ${PDFJS_SPECIFIER} as expected.`);
      const file = path.join(cacheDir, `${kind}-${hashOf([text])}.mjs`);
      writeOnce(file, text);
      result[kind] = pathToFileURL(file);
    });
    removeStale(cacheDir, new Set(Object.values(result).map((url) => path.basename(url.pathname))));
    return result;
  };
  return { options, finish };
}

const hashOf = (texts: string[]): string => {
  const hash = createHash('sha256');
  for (const text of texts) hash.update(text);
  return hash.digest('hex').slice(0, 16);
};

/** Writes `text` to `file` unless it is there (its name is its content's hash); marks it used. */
function writeOnce(file: string, text: string): void {
  // Files' mtimes are the file system's wall clock: the system's (server-kit/clock.ts), as in removeStale.
  const now = new Date();
  try {
    utimesSync(file, now, now);
    return;
  } catch {
    // Not there yet.
  }
  mkdirSync(path.dirname(file), { recursive: true });
  // Another process may write the same file at once: each writes its own and renames it over.
  const partial = `${file}.${process.pid}-${Math.random().toString(36).slice(2)}.partial`;
  writeFileSync(partial, text);
  renameSync(partial, file);
}

/** Bundles of other versions of the code unused for a day (pdf.js's copies change with pdf.js only). */
function removeStale(cacheDir: string, keep: Set<string>): void {
  for (const name of readdirSync(cacheDir)) {
    if (keep.has(name) || !name.endsWith('.mjs')) continue;
    const file = path.join(cacheDir, name);
    try {
      if (Date.now() - statSync(file).mtimeMs > STALE_MS) rmSync(file, { force: true });
    } catch {
      // Removed by another process meanwhile.
    }
  }
}
