// Module hooks for our worker threads (worker-bootstrap.mjs): pdf.js's own ES modules are loaded as
// they are, not through tsx. tsx rewrites every ES module that has a dynamic import() (pdf.js has,
// to load its worker module) and attaches a word-level source map: for pdf.js's 3.4 MB of JavaScript
// that cost ~300 MB of memory per thread (measured: a thread that opened one PDF peaked at ~500 MB of
// resident memory, ~175 MB without it). pdf.js is plain JavaScript for Node and needs no transform.
import { readFile } from 'node:fs/promises';
import { URL } from 'node:url';

const UNTRANSFORMED = /\/node_modules\/pdfjs-dist\/.+\.mjs$/;

export async function load(url, context, nextLoad) {
  if (url.startsWith('file:') && UNTRANSFORMED.test(new URL(url).pathname)) {
    return { format: 'module', source: await readFile(new URL(url)), shortCircuit: true };
  }
  return nextLoad(url, context);
}
