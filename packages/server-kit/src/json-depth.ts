/**
 * How deep a JSON text nests, checked on the text before it is parsed: `JSON.parse` copes with deep
 * nesting, but the recursive code after it (zod's validation, the stores' walkers) overflows the stack
 * at a few thousand levels, which answered a 500. No request of ours nests anywhere near 64 levels.
 *
 * The scan is linear and allocates nothing but the path of the containers open at the deepest point:
 * it counts `[` and `{` outside strings, and follows keys and indices so that the refusal points at
 * where the text went too deep (a JSON Pointer, as the other 422s do).
 */
import { ProblemError } from '@extraction-review/contract/problem';

export const MAX_JSON_DEPTH = 64;

type Open = { kind: 'array'; index: number } | { kind: 'object'; key: string | undefined };

const escapeSegment = (segment: string): string => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * The JSON Pointer of the first container opened deeper than `maxDepth` (`#/a/0/b`), or undefined
 * when the text stays within it. Text that is not JSON is scanned as far as it goes: JSON.parse
 * refuses it afterwards.
 */
export function tooDeepAt(text: string, maxDepth = MAX_JSON_DEPTH): string | undefined {
  const open: Open[] = [];
  let expectingKey = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text.charCodeAt(i);
    if (char === 0x22 /* " */) {
      const start = i;
      i = closingQuote(text, i);
      const top = open.at(-1);
      if (expectingKey && top?.kind === 'object') {
        top.key = keyOf(text.slice(start, i + 1));
        expectingKey = false;
      }
    } else if (char === 0x5b /* [ */ || char === 0x7b /* { */) {
      if (open.length >= maxDepth) return pointer(open);
      open.push(char === 0x5b ? { kind: 'array', index: 0 } : { kind: 'object', key: undefined });
      expectingKey = char === 0x7b;
    } else if (char === 0x5d /* ] */ || char === 0x7d /* } */) {
      open.pop();
      expectingKey = false;
    } else if (char === 0x2c /* , */) {
      const top = open.at(-1);
      if (top?.kind === 'array') top.index += 1;
      expectingKey = top?.kind === 'object';
    }
  }
  return undefined;
}

/**
 * Where the string opened at `open` ends: the next quote not escaped (an odd run of backslashes before
 * it). Found with indexOf, so that a long string (a base64 document) costs a scan, not a loop.
 */
function closingQuote(text: string, open: number): number {
  let at = open;
  for (;;) {
    at = text.indexOf('"', at + 1);
    if (at === -1) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === 0x5c) backslashes += 1;
    if (backslashes % 2 === 0) return at;
  }
}

function keyOf(quoted: string): string {
  try {
    return String(JSON.parse(quoted));
  } catch {
    return quoted.slice(1, -1);
  }
}

/** Where the next value sits: each open container's current index or key, outermost first. */
function pointer(open: readonly Open[]): string {
  const segments = open.map((container) =>
    container.kind === 'array' ? String(container.index) : escapeSegment(container.key ?? ''),
  );
  return `#/${segments.join('/')}`;
}

/** Throws 422 `422-010` when the text nests deeper than `maxDepth`, with a pointer to where. */
export function checkJsonDepth(text: string, maxDepth = MAX_JSON_DEPTH): void {
  const at = tooDeepAt(text, maxDepth);
  if (at === undefined) return;
  throw new ProblemError(
    '422-010',
    `The request body nests deeper than ${maxDepth} levels of arrays and objects; no request here needs more.`,
    { errors: [{ pointer: at, detail: `Nested deeper than ${maxDepth} levels from here.` }] },
  );
}
