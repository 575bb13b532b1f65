/**
 * The result as the operator reviews it: a tree of every field kind (simple, object, list of simple
 * values, list of objects, lists inside objects, at any depth as deep_nested_fields.json shows), with
 * the operator's edits applied: corrected values, list items removed (kept in place, marked, so that
 * paths and polygons stay put and the item can be restored) and items added (after the extracted
 * ones, indices continuing).
 *
 * Every node has a path (`total_amount`, `supplier_address.city`, `line_items[1].description`): the key
 * of corrections, the highlighted polygon, the URL's `?field=` and each control's accessible name.
 */
import { fieldKind } from '@extraction-review/contract/v2/fields';
import type {
  FieldConfidence,
  FieldLocation,
  FieldResult,
  SimpleValue,
} from '@extraction-review/contract/v2/schemas';
import type { CorrectionValue } from './draft';
import type { FieldLeaf } from './flatten-fields';
import { humanFieldName, itemHint, itemTitle, type FieldHint, type SchemaHints } from './schema-hints';

export type ValueType = 'text' | 'number' | 'date' | 'boolean' | 'classification';

export interface Edits {
  values: Readonly<Record<string, CorrectionValue>>;
  removed: readonly string[];
  added: Readonly<Record<string, number>>;
  reviewed: readonly string[];
  /**
   * Regions picked on the page (pick/), by path: they replace the value's extracted locations, in
   * the review, the exports and the way back. Absent in drafts and stores from before picking.
   */
  locations?: Readonly<Record<string, FieldLocation[]>> | undefined;
  /** Values confirmed although they were not found on the page, by path: the value confirmed. */
  notOnPage?: Readonly<Record<string, CorrectionValue>> | undefined;
}

export const NO_EDITS: Edits = { values: {}, removed: [], added: {}, reviewed: [] };

interface NodeBase {
  path: string;
  /** The field's own name; `taxes 2` for the second item of the list `taxes` (as flattenFields names it). */
  name: string;
  /**
   * What the operator reads: the data schema's title, else the name made human (`Supplier address`);
   * `Tax 2` for the second item of `taxes`, `Line item 1` for the first of `line_items`. The name (API path) stays the key.
   */
  title: string;
  confidence: FieldConfidence | null;
  /** Inside an item the operator added: nothing was extracted for it. */
  added: boolean;
}

export interface SimpleNode extends NodeBase {
  kind: 'simple';
  /** What the service extracted; null inside an added item. */
  original: SimpleValue;
  /** What the operator sees: the correction when there is one, else the original. */
  value: CorrectionValue;
  edited: boolean;
  reviewed: boolean;
  /** The operator picked the value's region on the page: `locations` are theirs. */
  picked: boolean;
  /** Confirmed although not found on the page: the value so confirmed. */
  confirmedNotOnPage: CorrectionValue | undefined;
  type: ValueType;
  /** Classification values, when the schema is known. */
  options: string[] | null;
  locations: FieldLocation[];
}

export interface ObjectNode extends NodeBase {
  kind: 'object';
  children: ReviewNode[];
  locations: FieldLocation[];
}

export interface ListItem {
  index: number;
  path: string;
  removed: boolean;
  added: boolean;
  node: ReviewNode;
}

export interface Column {
  name: string;
  /** The sub-field's title (schema-hints), else its name made human. */
  title: string;
  kind: 'simple' | 'object' | 'list';
}

export interface ListNode extends NodeBase {
  kind: 'list';
  /** `empty` when the list has no item and the schema does not say what an item is. */
  itemKind: 'simple' | 'object' | 'empty';
  items: ListItem[];
  /** For lists of objects: the union of the items' sub-fields, in order of appearance, then the schema's. */
  columns: Column[];
  /** How many items the service returned (the added ones follow). */
  extractedCount: number;
  /** What a new item looks like, or null when it cannot be known. */
  template: FieldResult | null;
}

export type ReviewNode = SimpleNode | ObjectNode | ListNode;

const DATE = /^\d{4}-\d{2}-\d{2}$/;

export function buildReviewTree(
  fields: Record<string, FieldResult>,
  edits: Edits = NO_EDITS,
  hints: SchemaHints = new Map(),
): ReviewNode[] {
  const ctx = { edits, removed: new Set(edits.removed), reviewed: new Set(edits.reviewed) };
  return Object.entries(fields).map(([name, field]) => visit(ctx, name, name, field, hints.get(name), false));
}

interface Context {
  edits: Edits;
  removed: ReadonlySet<string>;
  reviewed: ReadonlySet<string>;
}

function visit(
  ctx: Context,
  path: string,
  name: string,
  field: FieldResult,
  hint: FieldHint | undefined,
  added: boolean,
  title: string = hint?.title ?? humanFieldName(name),
): ReviewNode {
  const confidence = added ? null : field.confidence;
  if ('items' in field) return visitList(ctx, path, name, title, field.items, confidence, hint, added);
  if ('fields' in field) {
    const children = Object.entries(field.fields).map(([sub, child]) =>
      visit(ctx, `${path}.${sub}`, sub, child, hint?.nested.get(sub), added),
    );
    return { kind: 'object', path, name, title, confidence, added, children, locations: field.locations };
  }
  const original = added ? null : field.value;
  const edited = Object.hasOwn(ctx.edits.values, path);
  const picked = ctx.edits.locations !== undefined && Object.hasOwn(ctx.edits.locations, path);
  const notOnPage = ctx.edits.notOnPage;
  return {
    kind: 'simple',
    path,
    name,
    title,
    confidence,
    added,
    original,
    value: edited ? (ctx.edits.values[path] ?? null) : original,
    edited,
    reviewed: ctx.reviewed.has(path),
    picked,
    confirmedNotOnPage: notOnPage && Object.hasOwn(notOnPage, path) ? notOnPage[path] : undefined,
    type: valueType(original, hint),
    options: hint?.type === 'classification' ? hint.options : null,
    locations: picked ? (ctx.edits.locations?.[path] ?? []) : added ? [] : field.locations,
  };
}

function visitList(
  ctx: Context,
  path: string,
  name: string,
  title: string,
  extracted: FieldResult[],
  confidence: FieldConfidence | null,
  hint: FieldHint | undefined,
  added: boolean,
): ListNode {
  const columns = columnsOf(extracted, hint);
  const template = templateOf(extracted, columns, hint);
  const addedCount = ctx.edits.added[path] ?? 0;
  const all = [
    ...extracted.map((field) => ({ field, added })),
    ...(template ? Array.from({ length: addedCount }, () => ({ field: template, added: true })) : []),
  ];
  const items = all.map(({ field, added: itemAdded }, index) => {
    const itemPath = `${path}[${index}]`;
    return {
      index,
      path: itemPath,
      removed: ctx.removed.has(itemPath),
      added: itemAdded,
      node: visit(
        ctx,
        itemPath,
        `${name} ${index + 1}`,
        field,
        itemHint(hint),
        itemAdded,
        `${itemTitle(title)} ${index + 1}`,
      ),
    };
  });
  const itemKind = template == null ? 'empty' : 'fields' in template ? 'object' : 'simple';
  return {
    kind: 'list',
    path,
    name,
    title,
    confidence,
    added,
    itemKind,
    items,
    columns,
    extractedCount: extracted.length,
    template,
  };
}

function columnsOf(items: FieldResult[], hint: FieldHint | undefined): Column[] {
  const columns = new Map<string, Column>();
  for (const item of items) {
    if (!('fields' in item)) continue;
    for (const [name, sub] of Object.entries(item.fields))
      if (!columns.has(name))
        columns.set(name, {
          name,
          title: hint?.nested.get(name)?.title ?? humanFieldName(name),
          kind: fieldKind(sub),
        });
  }
  if (hint?.type === 'nested_object')
    for (const [name, sub] of hint.nested)
      if (!columns.has(name))
        columns.set(name, {
          name,
          title: sub.title ?? humanFieldName(name),
          kind: sub.isArray ? 'list' : 'simple',
        });
  return [...columns.values()];
}

const EMPTY_SIMPLE: FieldResult = { value: null, locations: [], confidence: null };

/** An empty item of the list's shape, from its extracted items, else from the schema. */
function templateOf(
  items: FieldResult[],
  columns: Column[],
  hint: FieldHint | undefined,
): FieldResult | null {
  const first = items[0];
  if (first && !('fields' in first)) return EMPTY_SIMPLE;
  if (first || hint?.type === 'nested_object') {
    const fields: Record<string, FieldResult> = {};
    for (const column of columns) {
      const sample = items.flatMap((i) =>
        'fields' in i && i.fields[column.name] ? [i.fields[column.name]] : [],
      )[0];
      const subHint = hint?.nested.get(column.name);
      fields[column.name] = sample ? emptied(sample) : subHint ? templateFromHint(subHint) : EMPTY_SIMPLE;
    }
    return { fields, locations: [], confidence: null };
  }
  return hint ? EMPTY_SIMPLE : null;
}

function templateFromHint(hint: FieldHint): FieldResult {
  if (hint.isArray) return { items: [], confidence: null };
  return EMPTY_SIMPLE;
}

function emptied(field: FieldResult): FieldResult {
  if ('items' in field) return { items: [], confidence: null };
  if ('fields' in field) {
    const fields = Object.fromEntries(Object.entries(field.fields).map(([k, v]) => [k, emptied(v)]));
    return { fields, locations: [], confidence: null };
  }
  return EMPTY_SIMPLE;
}

function valueType(original: SimpleValue, hint: FieldHint | undefined): ValueType {
  switch (hint?.type) {
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'classification':
      return hint.options ? 'classification' : 'text';
    case 'date':
      // `YYYY-MM-DD HH:mm:ss` (API-FACTS) does not fit a date input: kept as text.
      return original == null || (typeof original === 'string' && DATE.test(original)) ? 'date' : 'text';
    case undefined:
      break;
    default:
      return 'text';
  }
  if (typeof original === 'boolean') return 'boolean';
  if (typeof original === 'number') return 'number';
  if (typeof original === 'string' && DATE.test(original)) return 'date';
  return 'text';
}

// ─── Walking the tree ──────────────────────────────────────────────────────────────────────────────

/** Every simple value in document order, skipping removed items. */
export function simpleNodes(nodes: readonly ReviewNode[]): SimpleNode[] {
  const out: SimpleNode[] = [];
  const walk = (node: ReviewNode) => {
    if (node.kind === 'simple') out.push(node);
    else if (node.kind === 'object') node.children.forEach(walk);
    else for (const item of node.items) if (!item.removed) walk(item.node);
  };
  nodes.forEach(walk);
  return out;
}

/**
 * Each field's title with what it belongs to, by path (`Supplier Address › Street Number`, `Line Item
 * 2 › Unit Price`): a nested title alone does not say which street number. An item's own title
 * (`Line Item 2`) stands for its list's. Values, objects, lists and items alike: a rule may concern
 * a whole list, a correction a whole item.
 */
export function titlesInContext(nodes: readonly ReviewNode[]): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (node: ReviewNode, context: string) => {
    const title = context === '' ? node.title : `${context} › ${node.title}`;
    out.set(node.path, title);
    if (node.kind === 'object') for (const child of node.children) walk(child, title);
    else if (node.kind === 'list') for (const item of node.items) walk(item.node, context);
  };
  for (const node of nodes) walk(node, '');
  return out;
}

/** What an operator reads for a field, by its API path (which stays on hover and in Details). */
export type TitleOf = (path: string) => string;

/**
 * A field's title from its path alone, when the review tree does not know it (no data schema read
 * yet, an item since removed): each part's name made human as the value rows make it, items
 * numbered from 1 in the singular (`supplier_address.street_number` → "Supplier address › Street
 * number", `line_items[1].unit_price` → "Line item 2 › Unit price"), as titlesInContext names them.
 */
export function titleFromPath(path: string): string {
  const parts = path.split('.').map((part) => {
    const m = /^(.*?)((?:\[\d+\])*)$/.exec(part);
    const name = humanFieldName(m?.[1] ?? part);
    const indices = [...(m?.[2] ?? '').matchAll(/\[(\d+)\]/g)].map((i) => String(Number(i[1]) + 1));
    // An item's title stands for its list's (`Line item 2`, not `Line items › Line item 2`).
    return indices.length === 0 ? name : `${itemTitle(name)} ${indices.join(' ')}`;
  });
  return parts.join(' › ');
}

/** Titles by path from the review tree (schema titles), else from the path itself. */
export function titleLookup(nodes: readonly ReviewNode[]): TitleOf {
  const titles = titlesInContext(nodes);
  return (path) => titles.get(path) ?? titleFromPath(path);
}

/** The leaves the viewer draws: values with their polygons, by path. */
export function leavesOf(nodes: readonly ReviewNode[]): FieldLeaf[] {
  return simpleNodes(nodes).map((n) => ({
    path: n.path,
    name: n.name,
    value: n.original,
    confidence: n.confidence,
    locations: n.locations,
  }));
}

/** Whether `path` is `prefix` itself or lies inside it (`a.b` and `a[0]` lie inside `a`). */
export function isWithin(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(`${prefix}.`) || path.startsWith(`${prefix}[`);
}

/** A number typed by the operator, or undefined when the text is not one. */
export function parseNumber(text: string): number | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  const n = Number(trimmed);
  return Number.isFinite(n) ? n : undefined;
}

/** Whether a value fits its type; a number kept as typed may not. */
export function isValidValue(node: Pick<SimpleNode, 'type' | 'value'>): boolean {
  if (node.type !== 'number' || node.value == null || typeof node.value === 'number') return true;
  return typeof node.value === 'string' && parseNumber(node.value) !== undefined;
}
