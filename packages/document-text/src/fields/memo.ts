/**
 * Memoisation for the finder's pure string functions, which run once per word and label token of every
 * document: normalising the same tokens ("total", "date", "invoice") again and again was the largest
 * part of field finding (bench: `npm run bench -- reference`). Bounded: past `limit` entries the cache
 * starts over, so a long-running service never grows it without end.
 */
export function memoizeString<T>(fn: (input: string) => T, limit = 20_000): (input: string) => T {
  let cache = new Map<string, T>();
  return (input) => {
    const hit = cache.get(input);
    if (hit !== undefined || cache.has(input)) return hit as T;
    const value = fn(input);
    if (cache.size >= limit) cache = new Map();
    cache.set(input, value);
    return value;
  };
}

/** Memoises a function of an object by identity (the schema's fields, within a process). */
export function memoizeObject<K extends object, T>(fn: (input: K) => T): (input: K) => T {
  const cache = new WeakMap<K, T>();
  return (input) => {
    if (cache.has(input)) return cache.get(input) as T;
    const value = fn(input);
    cache.set(input, value);
    return value;
  };
}
