/**
 * A multipart part's file name as the client meant it. Browsers, curl and fetch send `filename="…"`
 * as raw UTF-8 bytes (RFC 7578 §4.2, the WHATWG form encoding); some older clients send Latin-1; a
 * few send `filename*=UTF-8''…` (RFC 5987). The parser (busboy) is told to read plain parameters as
 * Latin-1 (`defParamCharset: 'latin1'`), which keeps every byte as one character; this then reads
 * those bytes as UTF-8 when they are valid UTF-8, and keeps them as Latin-1 otherwise. A name decoded
 * from `filename*` already holds characters beyond Latin-1 and is kept as it is.
 */
export const PART_PARAM_CHARSET = 'latin1';

/** Any character past U+00FF: the name cannot have come from single bytes. */
const beyondLatin1 = (name: string): boolean => [...name].some((ch) => (ch.codePointAt(0) ?? 0) > 0xff);

export function partFileName(name: string): string {
  if (beyondLatin1(name)) return name;
  const bytes = Buffer.from(name, 'latin1');
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return name;
  }
}
