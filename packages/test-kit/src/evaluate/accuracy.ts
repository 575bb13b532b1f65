/**
 * Field-by-field accuracy of one extraction against a recorded one (the hosted service's answer for
 * the same document). Every comparable value is one unit:
 *
 * - a simple field is one unit: strings match when equal without case, accents, spaces or punctuation
 *   ("New York, NY 10031" = "new york ny 10031", "0207 494 0834" = "02074940834"); numbers when
 *   within `tolerance` (default 0.005, money to the cent); dates and booleans exactly; null matches
 *   null (a correct "absent");
 * - an object counts each of its sub-fields;
 * - a list is matched item by item, best pairs first (order does not matter): a list of simple values
 *   counts one unit per item of the longer list; a list of objects counts the sub-fields of each
 *   item of the longer list (a missing or extra item counts all its sub-fields unmatched); two
 *   empty lists count one matched unit.
 *
 * Beside the total, the "valued" figures count only units where the reference has a value, which
 * says how much of what is printed was read, unflattered by fields both sides leave empty.
 */

export interface FieldAccuracy {
  name: string;
  matched: number;
  total: number;
  /** Units where the reference has a value, and how many of them we read right. */
  valuedMatched: number;
  valuedTotal: number;
  /** Human-readable differences: `line_items[1].quantity: 2 ≠ 3`. */
  differences: string[];
}

export interface AccuracyReport {
  fields: FieldAccuracy[];
  matched: number;
  total: number;
  valuedMatched: number;
  valuedTotal: number;
  /** matched / total, 0..1 (1 when there is nothing to compare). */
  accuracy: number;
  /** Fields of the reference that our schema does not have (not counted). */
  onlyInReference: string[];
  /** Fields we answered that the reference does not have (not counted). */
  onlyInOurs: string[];
}

export interface AccuracyOptions {
  /** Largest difference between two equal numbers. */
  tolerance?: number;
  /** Only these fields (default: every field both sides have). */
  fields?: readonly string[];
}

/** Anything shaped like an ExtractionResponse (ours, or a recorded JSON). */
export interface ExtractionLike {
  inference: { result: { fields: Record<string, unknown> } };
}

interface Tally {
  matched: number;
  total: number;
  valuedMatched: number;
  valuedTotal: number;
  differences: string[];
}

const emptyTally = (): Tally => ({ matched: 0, total: 0, valuedMatched: 0, valuedTotal: 0, differences: [] });

export function scoreExtraction(
  ours: ExtractionLike,
  reference: ExtractionLike,
  options: AccuracyOptions = {},
): AccuracyReport {
  const tolerance = options.tolerance ?? 0.005;
  const ourFields = ours.inference.result.fields;
  const refFields = reference.inference.result.fields;
  const names = options.fields ?? Object.keys(refFields).filter((name) => name in ourFields);
  const fields: FieldAccuracy[] = names.map((name) => {
    const tally = emptyTally();
    compare(ourFields[name], refFields[name], name, tally, tolerance);
    return { name, ...tally };
  });
  return {
    ...totalsOf(fields),
    onlyInReference: Object.keys(refFields).filter((name) => !(name in ourFields)),
    onlyInOurs: Object.keys(ourFields).filter((name) => !(name in refFields)),
  };
}

type Json = unknown;

const record = (v: Json): Record<string, Json> | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, Json>) : undefined;

function compare(ours: Json, ref: Json, path: string, tally: Tally, tolerance: number): void {
  const r = record(ref);
  const o = record(ours);
  if (r && Array.isArray(r['items'])) {
    compareLists(
      Array.isArray(o?.['items']) ? (o['items'] as Json[]) : [],
      r['items'] as Json[],
      path,
      tally,
      tolerance,
    );
    return;
  }
  if (r && record(r['fields'])) {
    const refSubs = record(r['fields']) ?? {};
    const ourSubs = record(o?.['fields']) ?? {};
    for (const [name, sub] of Object.entries(refSubs))
      compare(ourSubs[name], sub, `${path}.${name}`, tally, tolerance);
    return;
  }
  const refValue = r ? r['value'] : ref;
  const ourValue = o ? o['value'] : null;
  const valued = refValue !== null && refValue !== undefined;
  const same = valuesMatch(ourValue ?? null, refValue ?? null, tolerance);
  tally.total++;
  if (same) tally.matched++;
  if (valued) {
    tally.valuedTotal++;
    if (same) tally.valuedMatched++;
  }
  if (!same) tally.differences.push(`${path}: ${show(ourValue)} ≠ ${show(refValue)}`);
}

function compareLists(ours: Json[], ref: Json[], path: string, tally: Tally, tolerance: number): void {
  if (ours.length === 0 && ref.length === 0) {
    tally.total++;
    tally.matched++;
    return;
  }
  // Best pairs first: the pair that matches most units, then the next among the rest.
  const scores = ref.map((r) => ours.map((o) => unitsOf(o, r, tolerance)));
  const pairs: [number, number][] = [];
  const usedRef = new Set<number>();
  const usedOurs = new Set<number>();
  const all = scores
    .flatMap((row, i) => row.map((s, j) => ({ i, j, score: s.valuedMatched + 0.001 * s.matched })))
    .sort((a, b) => b.score - a.score || a.i - b.i || a.j - b.j);
  for (const { i, j, score } of all) {
    if (usedRef.has(i) || usedOurs.has(j) || score === 0) continue;
    usedRef.add(i);
    usedOurs.add(j);
    pairs.push([i, j]);
  }
  for (const [i, j] of pairs.sort((a, b) => a[0] - b[0]))
    compare(ours[j], ref[i], `${path}[${i}]`, tally, tolerance);
  ref.forEach((item, i) => {
    if (usedRef.has(i)) return;
    // A missing item: each of its units counts once, unmatched.
    const missing = unitsOf(undefined, item, tolerance);
    tally.total += missing.total;
    tally.valuedTotal += missing.valuedTotal;
    tally.differences.push(`${path}[${i}]: missing ${show(valueOf(item))}`);
  });
  ours.forEach((item, j) => {
    if (usedOurs.has(j)) return;
    // An extra item: each of its units counts once, unmatched.
    const extra = emptyTally();
    compare(item, emptyLike(item), `${path}[+${j}]`, extra, tolerance);
    tally.total += extra.total;
    tally.differences.push(`${path}: extra item ${show(valueOf(item))}`);
  });
}

function unitsOf(ours: Json, ref: Json, tolerance: number): Tally {
  const t = emptyTally();
  compare(ours, ref, '', t, tolerance);
  return t;
}

/** The same shape with every value null (to count the units of an extra item). */
function emptyLike(item: Json): Json {
  const r = record(item);
  if (!r) return { value: null };
  if (record(r['fields'])) {
    return {
      fields: Object.fromEntries(Object.keys(record(r['fields']) ?? {}).map((k) => [k, { value: null }])),
    };
  }
  return { value: null };
}

function valueOf(item: Json): Json {
  const r = record(item);
  if (!r) return item;
  if ('value' in r) return r['value'];
  const fields = record(r['fields']);
  return fields
    ? Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, record(v)?.['value'] ?? null]))
    : item;
}

export function valuesMatch(ours: Json, ref: Json, tolerance = 0.005): boolean {
  if (ref === null || ours === null) return ref === ours;
  if (typeof ref === 'number' || typeof ours === 'number') {
    const [a, b] = [toNumber(ours), toNumber(ref)];
    return a !== undefined && b !== undefined && Math.abs(a - b) <= tolerance + 1e-9;
  }
  if (typeof ref === 'boolean' || typeof ours === 'boolean') return ours === ref;
  return foldString(String(ours)) === foldString(String(ref));
}

const toNumber = (v: Json): number | undefined => {
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : undefined;
};

/** Lower case, no accents, no spaces or punctuation. */
export function foldString(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

const show = (v: Json): string => (v === undefined ? 'missing' : JSON.stringify(v));

/** A short text table of a report, for benches and logs. */
export function formatReport(report: AccuracyReport): string {
  const rows = report.fields.map(
    (f) =>
      `${f.name.padEnd(28)} ${`${f.matched}/${f.total}`.padStart(7)} ${`${f.valuedMatched}/${f.valuedTotal}`.padStart(7)}` +
      (f.differences.length > 0 ? `  ${f.differences.slice(0, 3).join('; ')}` : ''),
  );
  const pct = (a: number, b: number): string => (b > 0 ? `${((100 * a) / b).toFixed(0)}%` : 'n/a');
  return [
    `${'field'.padEnd(28)} ${'all'.padStart(7)} ${'valued'.padStart(7)}`,
    ...rows,
    `${'TOTAL'.padEnd(28)} ${`${report.matched}/${report.total}`.padStart(7)} ${`${report.valuedMatched}/${report.valuedTotal}`.padStart(7)}  ` +
      `(${pct(report.matched, report.total)} all, ${pct(report.valuedMatched, report.valuedTotal)} of printed values)`,
    ...(report.onlyInReference.length > 0 ? [`not in our schema: ${report.onlyInReference.join(', ')}`] : []),
  ].join('\n');
}

/**
 * Several reports as one: per field, the sums of its units over the documents (a field is listed in
 * the order it is first met), each difference prefixed with its document's name.
 */
export function mergeReports(reports: readonly { name: string; report: AccuracyReport }[]): AccuracyReport {
  const byField = new Map<string, FieldAccuracy>();
  for (const { name, report } of reports) {
    for (const f of report.fields) {
      const known = byField.get(f.name) ?? {
        ...f,
        matched: 0,
        total: 0,
        valuedMatched: 0,
        valuedTotal: 0,
        differences: [],
      };
      known.matched += f.matched;
      known.total += f.total;
      known.valuedMatched += f.valuedMatched;
      known.valuedTotal += f.valuedTotal;
      known.differences.push(...f.differences.map((d) => `${name}: ${d}`));
      byField.set(f.name, known);
    }
  }
  const fields = [...byField.values()];
  return {
    ...totalsOf(fields),
    onlyInReference: [...new Set(reports.flatMap((r) => r.report.onlyInReference))],
    onlyInOurs: [],
  };
}

/** A report's fields and their totals: matched/total over all, and over the printed values. */
function totalsOf(fields: FieldAccuracy[]) {
  const sum = (key: 'matched' | 'total' | 'valuedMatched' | 'valuedTotal'): number =>
    fields.reduce((n, f) => n + f[key], 0);
  const [matched, total] = [sum('matched'), sum('total')];
  return {
    fields,
    matched,
    total,
    valuedMatched: sum('valuedMatched'),
    valuedTotal: sum('valuedTotal'),
    accuracy: total > 0 ? matched / total : 1,
  };
}
