/**
 * Business rules (packages/contract/src/review/model-settings.ts) checked on the review tree: the same code at
 * intake (routing, server/app/review/routing/) and in the review (the fields marked, confirm asking for an
 * override). Pure: no I/O, nothing thrown on any document.
 *
 * A rule checks the values that are there: a field with no value fails `required` only (and routing's
 * required fields); the others pass it by, so one missing value is reported once. A value that is
 * there but cannot be read as the rule needs (a number, a date) fails the rule, saying so. Patterns
 * run by RE2 (packages/contract/src/review/rule-pattern.ts), in time linear in the value; one stored before RE2 ran
 * them that it cannot compile (a backreference) fails on every document, saying why.
 */
import type { BusinessRule, RuleFailure } from '@extraction-review/contract/review/model-settings';
import { compileRulePattern } from '@extraction-review/contract/review/rule-pattern';
import type { ReviewNode } from '../fields/review-tree';
import { dateOf, hasValue, numberOf, quote, resolve, textOf, type Match } from './field-values';

export type { RuleFailure };

export function evaluateRules(nodes: readonly ReviewNode[], rules: readonly BusinessRule[]): RuleFailure[] {
  return rules.flatMap((rule) => {
    const failure = check(nodes, rule);
    return failure === null ? [] : [{ ruleId: rule.id, kind: rule.kind, ...failure }];
  });
}

type Outcome = { message: string; fields: string[] } | null;

function check(nodes: readonly ReviewNode[], rule: BusinessRule): Outcome {
  switch (rule.kind) {
    case 'required': {
      const missing = resolve(nodes, rule.field).filter((m) => !hasValue(m.node));
      if (missing.length === 0) return null;
      const paths = missing.map((m) => m.path);
      return { message: `${list(paths)} ${paths.length === 1 ? 'has' : 'have'} no value`, fields: paths };
    }
    case 'pattern': {
      // RE2 (linear time): a document's text cannot stall intake or the review, whatever the pattern.
      const compiled = compileRulePattern(rule.pattern);
      if (!compiled.ok)
        return { message: `The pattern ${rule.pattern} is not valid: ${compiled.error}`, fields: [] };
      const regex = compiled.pattern;
      return each(nodes, rule.field, (m) => {
        const text = textOf(m.node);
        return text === undefined || regex.test(text)
          ? null
          : `${m.path} ${quote(text)} does not match ${rule.pattern}`;
      });
    }
    case 'date_range':
      return each(nodes, rule.field, (m) => {
        const date = dateOf(m.node);
        if (date.kind === 'none') return null;
        if (date.kind === 'bad') return `${m.path} ${quote(date.text)} is not a date (YYYY-MM-DD)`;
        if (rule.min !== undefined && date.value < rule.min)
          return `${m.path} ${date.value} is before ${rule.min}`;
        if (rule.max !== undefined && date.value > rule.max)
          return `${m.path} ${date.value} is after ${rule.max}`;
        return null;
      });
    case 'one_of':
      return each(nodes, rule.field, (m) => {
        const text = textOf(m.node);
        return text === undefined || rule.values.includes(text)
          ? null
          : `${m.path} ${quote(text)} is not one of ${rule.values.join(', ')}`;
      });
    case 'sum':
      return checkSum(nodes, rule);
    case 'add':
      return checkAdd(nodes, rule);
    case 'date_order':
      return checkDateOrder(nodes, rule);
  }
}

/** A rule on one field (or every item of a list): one failure with every value that fails it. */
function each(nodes: readonly ReviewNode[], field: string, fails: (m: Match) => string | null): Outcome {
  const failing = resolve(nodes, field).flatMap((m) => {
    const message = fails(m);
    return message === null ? [] : [{ path: m.path, message }];
  });
  if (failing.length === 0) return null;
  return { message: failing.map((f) => f.message).join('; '), fields: failing.map((f) => f.path) };
}

function checkSum(nodes: readonly ReviewNode[], rule: Extract<BusinessRule, { kind: 'sum' }>): Outcome {
  const items = resolve(nodes, `${rule.list}[*].${rule.item}`).filter((m) => hasValue(m.node));
  const target = single(nodes, rule.equals);
  const total = numberOf(target.node);
  // Nothing to add up, or nothing to compare with: the rule does not apply.
  if (items.length === 0 || total.kind === 'none') return null;
  const unreadable = notNumbers([...items, target]);
  if (unreadable !== null) return unreadable;
  const sum = items.reduce((s, m) => s + read(m), 0);
  const expected = read(target);
  if (close(sum, expected, rule.tolerance)) return null;
  const d = decimals(rule.tolerance);
  return {
    message: `${rule.list}[*].${rule.item} add up to ${sum.toFixed(d)}, not ${rule.equals} ${expected.toFixed(d)} (tolerance ${String(rule.tolerance)})`,
    fields: [...items.map((m) => m.path), target.path],
  };
}

function checkAdd(nodes: readonly ReviewNode[], rule: Extract<BusinessRule, { kind: 'add' }>): Outcome {
  const terms = rule.terms.map((t) => single(nodes, t));
  const target = single(nodes, rule.equals);
  if ([...terms, target].some((m) => numberOf(m.node).kind === 'none')) return null;
  const unreadable = notNumbers([...terms, target]);
  if (unreadable !== null) return unreadable;
  const sum = terms.reduce((s, m) => s + read(m), 0);
  const expected = read(target);
  if (close(sum, expected, rule.tolerance)) return null;
  const d = decimals(rule.tolerance);
  const shown = terms.map((m) => `${m.path} ${read(m).toFixed(d)}`).join(' + ');
  return {
    message: `${shown} = ${sum.toFixed(d)}, not ${rule.equals} ${expected.toFixed(d)} (tolerance ${String(rule.tolerance)})`,
    fields: [...terms.map((m) => m.path), target.path],
  };
}

function checkDateOrder(
  nodes: readonly ReviewNode[],
  rule: Extract<BusinessRule, { kind: 'date_order' }>,
): Outcome {
  const earlier = single(nodes, rule.earlier);
  const later = single(nodes, rule.later);
  const a = dateOf(earlier.node);
  const b = dateOf(later.node);
  const bad = [
    { m: earlier, d: a },
    { m: later, d: b },
  ].flatMap(({ m, d }) =>
    d.kind === 'bad' ? [`${m.path} ${quote(d.text)} is not a date (YYYY-MM-DD)`] : [],
  );
  if (bad.length > 0) return { message: bad.join('; '), fields: [earlier.path, later.path] };
  if (a.kind !== 'ok' || b.kind !== 'ok' || b.value >= a.value) return null;
  return {
    message: `${later.path} ${b.value} is before ${earlier.path} ${a.value}`,
    fields: [later.path, earlier.path],
  };
}

/** The one field a path names (its first match when it names several). */
function single(nodes: readonly ReviewNode[], path: string): Match {
  return resolve(nodes, path)[0] ?? { path, node: undefined };
}

function notNumbers(matches: readonly Match[]): Outcome {
  const bad = matches.flatMap((m) => {
    const n = numberOf(m.node);
    return n.kind === 'bad' ? [{ path: m.path, text: n.text }] : [];
  });
  if (bad.length === 0) return null;
  return {
    message: bad.map((b) => `${b.path} ${quote(b.text)} is not a number`).join('; '),
    fields: bad.map((b) => b.path),
  };
}

function read(m: Match): number {
  const n = numberOf(m.node);
  return n.kind === 'ok' ? n.value : 0;
}

/** Within the tolerance, forgiving the last bits of binary fractions (0.1 + 0.2). */
function close(a: number, b: number, tolerance: number): boolean {
  return Math.abs(a - b) <= tolerance + 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}

/** Decimals to show amounts with: 2, or the tolerance's own when finer. */
function decimals(tolerance: number): number {
  const fraction = /\.(\d+)$/.exec(String(tolerance))?.[1]?.length ?? 0;
  return Math.min(6, Math.max(2, fraction));
}

function list(paths: readonly string[]): string {
  if (paths.length <= 1) return paths.join('');
  return `${paths.slice(0, -1).join(', ')} and ${paths.at(-1) ?? ''}`;
}
