/**
 * The review's corrections (the draft's shape: values, removed, added, reviewed, keyed by field path,
 * fields/review-tree.ts `Edits`) and the review store's (docs/review-store.md: `PUT …/corrections`
 * `{ version, corrections: [{ path, value }] }`, and `document.corrections`, the latest value per path),
 * each turned into the other. Pure: no I/O, nothing thrown on what the server sends.
 *
 *   a corrected value            { path: "total_amount", value: 12.5 }
 *   a correction reverted        { path: "total_amount", value: { "$reverted": true } }
 *   list items removed / added   { path: "#removed", value: ["line_items[2]"] }, { path: "#added", value: { "line_items": 1 } }
 *   values checked               { path: "#reviewed", value: ["date"] }
 *   regions picked on the page   { path: "#locations", value: { "total_amount": [{ page, polygon }] } }
 *   confirmed though not on page { path: "#not-on-page", value: { "total_amount": 1243.5 } }
 *
 * Field paths never start with `#`, so these edits cannot meet a field.
 */
import { z } from 'zod';
import type { CorrectionsRequest } from '@extraction-review/contract/review/schemas';
import { FieldLocation } from '@extraction-review/contract/v2/schemas';
import { CorrectionValueSchema, type CorrectionValue, type DraftInput } from '../fields/draft';
import { orNone } from '../fields/corrections-reducer';
import { NO_EDITS, type Edits } from '../fields/review-tree';

export type ServerCorrection = CorrectionsRequest['corrections'][number];

export const REMOVED = '#removed';
export const ADDED = '#added';
export const REVIEWED = '#reviewed';
export const LOCATIONS = '#locations';
export const NOT_ON_PAGE = '#not-on-page';
export const REVERTED = { $reverted: true } as const;
/** The most one request may carry (CorrectionsRequest); the rest goes with the next. */
export const MAX_PER_SAVE = 1000;

const Paths = z.array(z.string());
const Counts = z.record(z.string(), z.int().min(0));
const Locations = z.record(z.string(), z.array(FieldLocation));
const NotOnPage = z.record(z.string(), CorrectionValueSchema);

/** The server's latest value per path, as the review's corrections. Anything not understood is left out. */
export function draftFromServer(corrections: Readonly<Record<string, unknown>>): Edits {
  return applyCorrections(
    NO_EDITS,
    Object.entries(corrections).map(([path, value]) => ({ path, value: value as ServerCorrection['value'] })),
  );
}

/** The corrections, in order, applied to `edits` (what the server does with a PUT). */
export function applyCorrections(edits: Edits, corrections: readonly ServerCorrection[]): Edits {
  // A Map, so that a path such as `__proto__` is a key like any other.
  const values = new Map<string, CorrectionValue>(Object.entries(edits.values));
  let { removed, added, reviewed, locations, notOnPage } = edits;
  for (const { path, value } of corrections) {
    if (path === REMOVED) removed = Paths.safeParse(value).data ?? removed;
    else if (path === ADDED) added = withoutZeros(Counts.safeParse(value).data ?? added);
    else if (path === REVIEWED) reviewed = Paths.safeParse(value).data ?? reviewed;
    else if (path === LOCATIONS) locations = Locations.safeParse(value).data ?? locations;
    else if (path === NOT_ON_PAGE) notOnPage = NotOnPage.safeParse(value).data ?? notOnPage;
    else if (path.startsWith('#')) continue;
    else {
      const parsed = CorrectionValueSchema.safeParse(value);
      if (parsed.success) values.set(path, parsed.data);
      // `{ "$reverted": true }`, or a value the review cannot show: back to the extracted value.
      else values.delete(path);
    }
  }
  return {
    values: Object.fromEntries(values),
    removed: [...removed],
    added: { ...added },
    reviewed: [...reviewed],
    ...(locations === undefined ? {} : { locations: { ...locations } }),
    ...(notOnPage === undefined ? {} : { notOnPage: { ...notOnPage } }),
  };
}

/** What to send so that the server, holding `acked`, holds `current`: changed values first, list edits last. */
export function changesToSend(acked: Edits, current: Edits): ServerCorrection[] {
  const out: ServerCorrection[] = [];
  for (const [path, value] of Object.entries(current.values))
    if (!Object.hasOwn(acked.values, path) || acked.values[path] !== value) out.push({ path, value });
  for (const path of Object.keys(acked.values))
    if (!Object.hasOwn(current.values, path)) out.push({ path, value: REVERTED });
  if (!sameSet(acked.removed, current.removed)) out.push({ path: REMOVED, value: [...current.removed] });
  if (!sameCounts(acked.added, current.added)) out.push({ path: ADDED, value: withoutZeros(current.added) });
  if (!sameSet(acked.reviewed, current.reviewed)) out.push({ path: REVIEWED, value: [...current.reviewed] });
  if (!sameRecord(acked.locations, current.locations))
    out.push({ path: LOCATIONS, value: structuredClone({ ...current.locations }) });
  if (!sameRecord(acked.notOnPage, current.notOnPage))
    out.push({ path: NOT_ON_PAGE, value: { ...current.notOnPage } });
  return out;
}

/** The corrections as the draft store keeps them. */
export function asDraft(edits: Edits): DraftInput {
  return {
    values: { ...edits.values },
    removed: [...edits.removed],
    added: { ...edits.added },
    reviewed: [...edits.reviewed],
    locations: { ...edits.locations },
    notOnPage: { ...edits.notOnPage },
    updatedAt: new Date().toISOString(),
  };
}

export function sameEdits(a: Edits, b: Edits): boolean {
  return changesToSend(a, b).length === 0;
}

/**
 * Three-way merge of the operator's corrections (`mine`) and the server's (`theirs`), both made from
 * `base`: what only one side changed is kept, what both changed alike is kept, and where both changed
 * a value differently, `prefer` decides. List edits merge item by item (removed, checked) and list by
 * list (added counts).
 */
export function mergeEdits(base: Edits, mine: Edits, theirs: Edits, prefer: 'mine' | 'theirs'): Edits {
  const pick = <T>(b: T | undefined, m: T | undefined, t: T | undefined): T | undefined => {
    if (m === t || m === b) return t;
    if (t === b) return m;
    return prefer === 'mine' ? m : t;
  };
  // Built from entries: a path such as `__proto__` stays a key like any other.
  const values = Object.fromEntries(
    keysOf(base.values, mine.values, theirs.values).flatMap((path) => {
      const value = pick(get(base.values, path), get(mine.values, path), get(theirs.values, path));
      return value === undefined ? [] : [[path, value] as const];
    }),
  );
  const added = Object.fromEntries(
    keysOf(base.added, mine.added, theirs.added).flatMap((list) => {
      const n = pick(get(base.added, list) ?? 0, get(mine.added, list) ?? 0, get(theirs.added, list) ?? 0);
      return n === undefined || n <= 0 ? [] : [[list, n] as const];
    }),
  );
  const members = (b: readonly string[], m: readonly string[], t: readonly string[]) =>
    [...new Set([...m, ...t, ...b])].filter((p) => pick(b.includes(p), m.includes(p), t.includes(p)));
  return {
    values,
    removed: members(base.removed, mine.removed, theirs.removed),
    added,
    reviewed: members(base.reviewed, mine.reviewed, theirs.reviewed),
    locations: orNone(mergeRecords(base.locations, mine.locations, theirs.locations, prefer)),
    notOnPage: orNone(mergeRecords(base.notOnPage, mine.notOnPage, theirs.notOnPage, prefer)),
  };
}

/** Key by key, as values merge: what one side changed is kept; where both did differently, `prefer`. */
function mergeRecords<T>(
  base: Readonly<Record<string, T>> = {},
  mine: Readonly<Record<string, T>> = {},
  theirs: Readonly<Record<string, T>> = {},
  prefer: 'mine' | 'theirs',
): Record<string, T> {
  const key = (v: T | undefined) => canonical(v);
  return Object.fromEntries(
    keysOf(base, mine, theirs).flatMap((path) => {
      const [b, m, t] = [get(base, path), get(mine, path), get(theirs, path)];
      const chosen =
        key(m) === key(t) || key(m) === key(b) ? t : key(t) === key(b) ? m : prefer === 'mine' ? m : t;
      return chosen === undefined ? [] : [[path, chosen] as const];
    }),
  );
}

/** JSON with object keys sorted: a location parsed back from the server is the same location. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );
}

function sameRecord(
  a: Readonly<Record<string, unknown>> = {},
  b: Readonly<Record<string, unknown>> = {},
): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => canonical(a[k]) === canonical(b[k]));
}

/** A correction the server changed since `base` and that is not the operator's value. */
export interface Difference {
  path: string;
  /** Undefined: no correction (the extracted value; for list edits, none). */
  mine: unknown;
  theirs: unknown;
}

/** What changed on the server since `base` and now differs from the operator's corrections. */
export function differences(base: Edits, mine: Edits, theirs: Edits): Difference[] {
  const out: Difference[] = [];
  for (const path of keysOf(base.values, theirs.values)) {
    const t = get(theirs.values, path);
    const m = get(mine.values, path);
    if (t !== get(base.values, path) && t !== m) out.push({ path, mine: m, theirs: t });
  }
  const lists = [
    [REMOVED, base.removed, mine.removed, theirs.removed],
    [REVIEWED, base.reviewed, mine.reviewed, theirs.reviewed],
  ] as const;
  for (const [path, b, m, t] of lists)
    if (!sameSet(b, t) && !sameSet(m, t)) out.push({ path, mine: [...m], theirs: [...t] });
  if (!sameCounts(base.added, theirs.added) && !sameCounts(mine.added, theirs.added))
    out.push({ path: ADDED, mine: withoutZeros(mine.added), theirs: withoutZeros(theirs.added) });
  return out;
}

function get<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

function keysOf(...records: Readonly<Record<string, unknown>>[]): string[] {
  return [...new Set(records.flatMap((r) => Object.keys(r)))];
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const set = new Set(a);
  return set.size === new Set(b).size && b.every((x) => set.has(x));
}

function withoutZeros(counts: Readonly<Record<string, number>>): Record<string, number> {
  return Object.fromEntries(Object.entries(counts).filter(([, n]) => n > 0));
}

function sameCounts(a: Readonly<Record<string, number>>, b: Readonly<Record<string, number>>): boolean {
  const x = withoutZeros(a);
  const y = withoutZeros(b);
  return Object.keys(x).length === Object.keys(y).length && Object.keys(x).every((k) => x[k] === y[k]);
}
