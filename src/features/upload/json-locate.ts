/**
 * Where things are in a JSON text: the offset of every value and every object key by JSON Pointer, and
 * the exact place of a syntax error, so an editor can put a problem on its line. `JSON.parse` gives
 * neither (its messages differ between engines, and a schema issue carries only a path).
 *
 * A small recursive-descent reader of RFC 8259 JSON; it stops at the first syntax error and keeps what
 * it located before it.
 */

export interface TextPosition {
  offset: number;
  /** 1-based. */
  line: number;
  /** 1-based, in UTF-16 code units, as a textarea counts. */
  column: number;
}

export interface JsonLocations {
  /** Pointer (`#/replace/fields/0`) → offset where its value starts. */
  values: Map<string, number>;
  /** Pointer of an object member → offset where its key starts. */
  keys: Map<string, number>;
  syntaxError: { offset: number; message: string } | null;
}

class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

const escapeToken = (token: string) => token.replaceAll('~', '~0').replaceAll('/', '~1');

export function locateJson(text: string): JsonLocations {
  const values = new Map<string, number>();
  const keys = new Map<string, number>();
  let at = 0;

  const describe = (offset: number) => {
    const char = text[offset];
    return char === undefined ? 'the end of the text' : `"${char}"`;
  };
  const fail = (message: string, offset = at): never => {
    throw new JsonSyntaxError(message, offset);
  };
  const skipSpace = () => {
    while (at < text.length && ' \t\n\r'.includes(text[at] ?? '')) at++;
  };

  const readString = (): string => {
    const start = at;
    at++; // opening quote
    let out = '';
    while (at < text.length) {
      const char = text[at] ?? '';
      if (char === '"') {
        at++;
        return out;
      }
      if (char === '\\') {
        const next = text[at + 1];
        if (next === 'u') {
          const hex = text.slice(at + 2, at + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail('Invalid \\u escape: four hexadecimal digits expected', at);
          out += String.fromCharCode(parseInt(hex, 16));
          at += 6;
          continue;
        }
        const escapes: Record<string, string> = {
          '"': '"',
          '\\': '\\',
          '/': '/',
          b: '\b',
          f: '\f',
          n: '\n',
          r: '\r',
          t: '\t',
        };
        const escaped = next === undefined ? undefined : escapes[next];
        if (escaped === undefined) fail(`Invalid escape "\\${next ?? ''}" in a string`, at);
        out += escaped;
        at += 2;
        continue;
      }
      if (char === '\n' || char < ' ')
        fail('A string must end on the line it starts: a closing " is missing', start);
      out += char;
      at++;
    }
    return fail('A string is not closed: a closing " is missing', start);
  };

  const readValue = (pointer: string): void => {
    skipSpace();
    values.set(pointer, at);
    const char = text[at];
    if (char === '{') return readObject(pointer);
    if (char === '[') return readArray(pointer);
    if (char === '"') return void readString();
    const literal = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(
      text.slice(at, at + 64),
    );
    if (literal) {
      at += literal[0].length;
      return;
    }
    if (char === "'") fail('Strings take double quotes (") in JSON, not single ones');
    fail(`A value was expected here, found ${describe(at)}`);
  };

  const readObject = (pointer: string): void => {
    at++; // {
    skipSpace();
    if (text[at] === '}') {
      at++;
      return;
    }
    for (;;) {
      skipSpace();
      if (text[at] === '}') fail('A comma before "}" is not allowed in JSON (trailing comma)', at);
      if (text[at] !== '"')
        fail(
          text[at] === "'" || /[A-Za-z_]/.test(text[at] ?? '')
            ? 'Property names take double quotes in JSON: "name"'
            : `A property name in double quotes was expected, found ${describe(at)}`,
        );
      const keyAt = at;
      const key = readString();
      const member = `${pointer}/${escapeToken(key)}`;
      keys.set(member, keyAt);
      skipSpace();
      if (text[at] !== ':')
        fail(`A ":" was expected after the property name "${key}", found ${describe(at)}`);
      at++;
      readValue(member);
      skipSpace();
      if (text[at] === ',') {
        at++;
        continue;
      }
      if (text[at] === '}') {
        at++;
        return;
      }
      fail(`A "," or a "}" was expected after the value of "${key}", found ${describe(at)}`);
    }
  };

  const readArray = (pointer: string): void => {
    at++; // [
    skipSpace();
    if (text[at] === ']') {
      at++;
      return;
    }
    for (let index = 0; ; index++) {
      skipSpace();
      if (text[at] === ']') fail('A comma before "]" is not allowed in JSON (trailing comma)', at);
      readValue(`${pointer}/${index}`);
      skipSpace();
      if (text[at] === ',') {
        at++;
        continue;
      }
      if (text[at] === ']') {
        at++;
        return;
      }
      fail(`A "," or a "]" was expected after item ${index} of the list, found ${describe(at)}`);
    }
  };

  let syntaxError: JsonLocations['syntaxError'] = null;
  try {
    skipSpace();
    if (at >= text.length) fail('The text is empty: a JSON object was expected');
    readValue('#');
    skipSpace();
    if (at < text.length) fail(`Nothing may follow the JSON value, found ${describe(at)}`);
  } catch (error) {
    if (!(error instanceof JsonSyntaxError)) throw error;
    syntaxError = { offset: Math.min(error.offset, text.length), message: error.message };
  }
  return { values, keys, syntaxError };
}

export function positionAt(text: string, offset: number): TextPosition {
  const before = text.slice(0, offset);
  const lineStart = before.lastIndexOf('\n') + 1;
  return { offset, line: before.split('\n').length, column: offset - lineStart + 1 };
}

/**
 * Where the value at `pointer` is, or its key when it has one (a wrong name is marked on the name). For
 * a member that is not there (a missing required key), its nearest existing ancestor.
 */
export function locatePointer(text: string, locations: JsonLocations, pointer: string): TextPosition {
  let current = pointer;
  for (;;) {
    const offset = locations.keys.get(current) ?? locations.values.get(current);
    if (offset !== undefined) return positionAt(text, offset);
    if (current === '#' || !current.includes('/')) return positionAt(text, 0);
    current = current.slice(0, current.lastIndexOf('/'));
  }
}
