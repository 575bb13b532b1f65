/**
 * Reading the review tree (fields/review-tree.ts) by the paths rules name: `total_amount`,
 * `supplier_address.city`, `line_items[0].description`, `line_items[*].total_price` (every item kept;
 * removed items are left out, as everywhere a value is exported). Values as text, number or date, the
 * way the review's editors and exports read them (`parseNumber`).
 */
import {
  parseNumber,
  simpleNodes,
  type ListNode,
  type ReviewNode,
  type SimpleNode,
} from '../fields/review-tree';

/** One place a path names: the node there, or none when the document has no such field. */
export interface Match {
  /** The concrete path (`line_items[2].total_price`). */
  path: string;
  node: ReviewNode | undefined;
}

type Step = { name: string } | { index: number | '*' };

/** The steps of a path; an unreadable path has none (and matches nothing). */
export function parsePath(pattern: string): Step[] {
  const steps: Step[] = [];
  for (const segment of pattern.split('.')) {
    const match = /^([^[\]]+)((?:\[(?:\d+|\*)\])*)$/.exec(segment);
    if (match === null) return [];
    steps.push({ name: match[1] ?? '' });
    for (const [, index] of (match[2] ?? '').matchAll(/\[(\d+|\*)\]/g))
      steps.push({ index: index === '*' ? '*' : Number(index) });
  }
  return steps;
}

/** Every place `pattern` names in the tree. A field absent from the document is one match without a node. */
export function resolve(nodes: readonly ReviewNode[], pattern: string): Match[] {
  const steps = parsePath(pattern);
  if (steps.length === 0) return [{ path: pattern, node: undefined }];
  let current: { path: string; node: ReviewNode | undefined; children: readonly ReviewNode[] | null }[] = [
    { path: '', node: undefined, children: nodes },
  ];
  steps.forEach((step, i) => {
    const rest = (path: string) => path + restOf(steps.slice(i + 1));
    current = current.flatMap((at) => {
      if (at.path !== '' && at.node === undefined) return [at];
      if ('name' in step) {
        const path = at.path === '' ? step.name : `${at.path}.${step.name}`;
        const found = at.children?.find((child) => child.name === step.name);
        if (found === undefined) return [{ path: rest(path), node: undefined, children: null }];
        return [{ path, node: found, children: found.kind === 'object' ? found.children : null }];
      }
      const list = at.node?.kind === 'list' ? at.node : undefined;
      if (list === undefined)
        return [{ path: rest(`${at.path}[${String(step.index)}]`), node: undefined, children: null }];
      return itemsOf(list, step.index).map((item) => ({
        path: item.path,
        node: item.node,
        children: item.node.kind === 'object' ? item.node.children : null,
      }));
    });
  });
  return current.map(({ path, node }) => ({ path, node }));
}

function itemsOf(list: ListNode, index: number | '*') {
  const kept = list.items.filter((item) => !item.removed);
  if (index === '*') return kept;
  const item = kept.find((i) => i.index === index);
  return item === undefined ? [] : [item];
}

function restOf(steps: readonly Step[]): string {
  return steps.map((s) => ('name' in s ? `.${s.name}` : `[${String(s.index)}]`)).join('');
}

/** The value as text, trimmed; undefined when there is none (null, empty, or not a simple value). */
export function textOf(node: ReviewNode | undefined): string | undefined {
  if (node?.kind !== 'simple') return undefined;
  const { value } = node;
  if (value === null) return undefined;
  const text = typeof value === 'string' ? value.trim() : String(value);
  return text === '' ? undefined : text;
}

/** Whether a field has a value: a simple one that is not empty, or anything inside an object or list. */
export function hasValue(node: ReviewNode | undefined): boolean {
  if (node === undefined) return false;
  if (node.kind === 'simple') return textOf(node) !== undefined;
  return simpleNodes([node]).some((n) => textOf(n) !== undefined);
}

export type Read<T> = { kind: 'none' } | { kind: 'ok'; value: T } | { kind: 'bad'; text: string };

/** The value as a number (as typed by the operator, or as extracted). */
export function numberOf(node: ReviewNode | undefined): Read<number> {
  if (node?.kind === 'simple' && typeof node.value === 'number')
    return Number.isFinite(node.value) ? { kind: 'ok', value: node.value } : { kind: 'none' };
  const text = textOf(node);
  if (text === undefined) return { kind: 'none' };
  const n = parseNumber(text);
  return n === undefined ? { kind: 'bad', text } : { kind: 'ok', value: n };
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ][0-9:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/** The value as a calendar date `YYYY-MM-DD` (a date-time keeps its day). */
export function dateOf(node: ReviewNode | undefined): Read<string> {
  const text = textOf(node);
  if (text === undefined) return { kind: 'none' };
  const match = DATE.exec(text);
  if (match === null) return { kind: 'bad', text };
  const [, y, m, d] = match;
  const day = `${y}-${m}-${d}`;
  const parsed = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(day)
    ? { kind: 'ok', value: day }
    : { kind: 'bad', text };
}

/** Simple values of the tree, as routing reads them. */
export function valuesOf(nodes: readonly ReviewNode[]): SimpleNode[] {
  return simpleNodes(nodes);
}

/** A value quoted in a message: short, on one line. */
export function quote(text: string): string {
  const line = text.replace(/\s+/g, ' ');
  return JSON.stringify(line.length > 60 ? `${line.slice(0, 57)}…` : line);
}
