/**
 * The Rules page's form: the settings as the inputs hold them (text), turned into the request the
 * server takes and checked with the same zod schema (packages/contract/src/review/model-settings.ts) at every
 * keystroke, its messages keyed by input (`rules.2.pattern`, `routing.samplePercent`). Pure.
 */
import {
  ModelSettingsRequest,
  PRESET_REASON_KINDS,
  type BusinessRule,
  type ModelSettings,
  type PresetReasonKind,
  type RuleKind,
} from '@extraction-review/contract/review/model-settings';
import type { FieldConfidence } from '@extraction-review/contract/v2/schemas';

export interface RuleDraft {
  /** React's key: stays while the id is edited. */
  key: string;
  kind: RuleKind;
  id: string;
  field: string;
  pattern: string;
  min: string;
  max: string;
  /** One allowed value per line. */
  values: string;
  list: string;
  item: string;
  equals: string;
  /** Field paths separated by commas or `+`. */
  terms: string;
  tolerance: string;
  earlier: string;
  later: string;
}

export interface SettingsDraft {
  autoConfirm: boolean;
  minConfidence: FieldConfidence | '';
  /** One field path per line. */
  requiredFields: string;
  onRuleFailure: boolean;
  samplePercent: string;
  feedbackEnabled: boolean;
  rules: RuleDraft[];
  /** The reasons the review offers, per kind, in their order. */
  reasons: Record<PresetReasonKind, ReasonDraft[]>;
  /** Retention, days after the decision as typed; empty: kept for ever. */
  filesAfterDays: string;
  documentsAfterDays: string;
}

export interface ReasonDraft {
  /** React's key: stays while the text is edited or moved. */
  key: string;
  text: string;
}

export const REASON_KIND_LABELS: Readonly<Record<PresetReasonKind, string>> = {
  reject: 'Reject',
  postpone: 'Postpone',
  override: 'Confirm although a rule fails',
};

let reasonKeys = 0;
/** A reason as the form holds it (a new one is empty). */
export function reasonDraft(text = ''): ReasonDraft {
  return { key: `reason-${String((reasonKeys += 1))}`, text };
}

export const KIND_LABELS: Readonly<Record<RuleKind, string>> = {
  required: 'Required field',
  pattern: 'Format (regular expression)',
  date_range: 'Date range',
  one_of: 'One of a list',
  sum: 'Line items add up to a total',
  add: 'Fields add up to a total',
  date_order: 'Dates in order',
};

let keys = 0;
const nextKey = () => `rule-${String((keys += 1))}`;

const EMPTY_RULE: Omit<RuleDraft, 'key' | 'kind' | 'id'> = {
  field: '',
  pattern: '',
  min: '',
  max: '',
  values: '',
  list: '',
  item: '',
  equals: '',
  terms: '',
  tolerance: '0.01',
  earlier: '',
  later: '',
};

/** A new rule of this kind, with the usual invoice fields filled in, and an id not used yet. */
export function newRule(kind: RuleKind, taken: readonly string[]): RuleDraft {
  let n = 1;
  while (taken.includes(`${kind.replace('_', '-')}-${String(n)}`)) n += 1;
  const id = `${kind.replace('_', '-')}-${String(n)}`;
  const examples: Partial<RuleDraft> =
    kind === 'sum'
      ? { list: 'line_items', item: 'total_price', equals: 'total_net' }
      : kind === 'add'
        ? { terms: 'total_net + total_tax', equals: 'total_amount' }
        : kind === 'date_order'
          ? { earlier: 'date', later: 'due_date' }
          : {};
  return { ...EMPTY_RULE, ...examples, key: nextKey(), kind, id };
}

export function draftFromSettings(settings: ModelSettings): SettingsDraft {
  return {
    autoConfirm: settings.routing.autoConfirm,
    minConfidence: settings.routing.minConfidence ?? '',
    requiredFields: settings.routing.requiredFields.join('\n'),
    onRuleFailure: settings.routing.onRuleFailure,
    samplePercent: String(settings.routing.samplePercent),
    feedbackEnabled: settings.feedbackEnabled,
    rules: settings.rules.map(ruleDraft),
    reasons: {
      reject: settings.reasons.reject.map((text) => reasonDraft(text)),
      postpone: settings.reasons.postpone.map((text) => reasonDraft(text)),
      override: settings.reasons.override.map((text) => reasonDraft(text)),
    },
    filesAfterDays:
      settings.retention.filesAfterDays === null ? '' : String(settings.retention.filesAfterDays),
    documentsAfterDays:
      settings.retention.documentsAfterDays === null ? '' : String(settings.retention.documentsAfterDays),
  };
}

function ruleDraft(rule: BusinessRule): RuleDraft {
  const draft: RuleDraft = { ...EMPTY_RULE, key: nextKey(), kind: rule.kind, id: rule.id };
  switch (rule.kind) {
    case 'required':
      return { ...draft, field: rule.field };
    case 'pattern':
      return { ...draft, field: rule.field, pattern: rule.pattern };
    case 'date_range':
      return { ...draft, field: rule.field, min: rule.min ?? '', max: rule.max ?? '' };
    case 'one_of':
      return { ...draft, field: rule.field, values: rule.values.join('\n') };
    case 'sum':
      return {
        ...draft,
        list: rule.list,
        item: rule.item,
        equals: rule.equals,
        tolerance: String(rule.tolerance),
      };
    case 'add':
      return {
        ...draft,
        terms: rule.terms.join(' + '),
        equals: rule.equals,
        tolerance: String(rule.tolerance),
      };
    case 'date_order':
      return { ...draft, earlier: rule.earlier, later: rule.later };
  }
}

const lines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');

/** A number as typed: empty is left out (the default applies), anything else goes to the schema. */
const number = (text: string): number | string | undefined => {
  const t = text.trim();
  if (t === '') return undefined;
  const n = Number(t);
  return Number.isFinite(n) ? n : t;
};

function ruleInput(rule: RuleDraft): Record<string, unknown> {
  const base = { id: rule.id.trim(), kind: rule.kind };
  switch (rule.kind) {
    case 'required':
      return { ...base, field: rule.field };
    case 'pattern':
      return { ...base, field: rule.field, pattern: rule.pattern };
    case 'date_range':
      return {
        ...base,
        field: rule.field,
        ...(rule.min.trim() === '' ? {} : { min: rule.min.trim() }),
        ...(rule.max.trim() === '' ? {} : { max: rule.max.trim() }),
      };
    case 'one_of':
      return { ...base, field: rule.field, values: lines(rule.values) };
    case 'sum':
      return {
        ...base,
        list: rule.list,
        item: rule.item,
        equals: rule.equals,
        tolerance: number(rule.tolerance),
      };
    case 'add':
      return {
        ...base,
        terms: rule.terms
          .split(/[,+]/)
          .map((t) => t.trim())
          .filter((t) => t !== ''),
        equals: rule.equals,
        tolerance: number(rule.tolerance),
      };
    case 'date_order':
      return { ...base, earlier: rule.earlier, later: rule.later };
  }
}

export function requestInput(draft: SettingsDraft, version: number): Record<string, unknown> {
  return {
    version,
    routing: {
      autoConfirm: draft.autoConfirm,
      minConfidence: draft.minConfidence === '' ? null : draft.minConfidence,
      requiredFields: lines(draft.requiredFields),
      onRuleFailure: draft.onRuleFailure,
      samplePercent: number(draft.samplePercent) ?? 0,
    },
    rules: draft.rules.map(ruleInput),
    feedbackEnabled: draft.feedbackEnabled,
    reasons: {
      reject: draft.reasons.reject.map((r) => r.text),
      postpone: draft.reasons.postpone.map((r) => r.text),
      override: draft.reasons.override.map((r) => r.text),
    },
    retention: {
      filesAfterDays: days(draft.filesAfterDays),
      documentsAfterDays: days(draft.documentsAfterDays),
    },
  };
}

/** Days as typed: empty is for ever (null); anything not a number is left for the schema to refuse. */
function days(text: string): number | string | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  return /^\d+$/.test(trimmed) ? Number(trimmed) : trimmed;
}

export type FormErrors = ReadonlyMap<string, string>;

/** The request, or what is wrong, by input: `rules.2.pattern`, `routing.requiredFields`, `rules.1`. */
export function checkDraft(
  draft: SettingsDraft,
  version: number,
): { ok: true; request: ModelSettingsRequest } | { ok: false; errors: FormErrors } {
  const input = requestInput(draft, version);
  const checked = ModelSettingsRequest.safeParse(input);
  if (checked.success) return { ok: true, request: input as ModelSettingsRequest };
  const errors = new Map(errorsOf(checked.error.issues));
  // The schema tells of an id used twice only once every rule is valid: told here at once.
  const seen = new Set<string>();
  draft.rules.forEach((rule, index) => {
    const id = rule.id.trim();
    const key = `rules.${String(index)}.id`;
    if (id !== '' && seen.has(id) && !errors.has(key)) errors.set(key, `Another rule is called ${id}`);
    seen.add(id);
  });
  // The same for a reason offered twice (letter case aside), at once.
  for (const kind of PRESET_REASON_KINDS) {
    const said = new Set<string>();
    draft.reasons[kind].forEach((reason, index) => {
      const text = reason.text.trim().toLocaleLowerCase();
      const key = `reasons.${kind}.${String(index)}`;
      if (text !== '' && said.has(text) && !errors.has(key))
        errors.set(key, 'The same reason is offered above');
      said.add(text);
    });
  }
  return { ok: false, errors };
}

/**
 * Each issue under its input's key (the first message wins): a rule's input and a reason by their
 * index (`reasons.reject.1`); other lists (required fields, values) by list.
 */
export function errorsOf(issues: readonly { path: readonly PropertyKey[]; message: string }[]): FormErrors {
  const errors = new Map<string, string>();
  for (const issue of issues) {
    const path = issue.path.map(String);
    const key =
      path[0] === 'rules' || path[0] === 'reasons' ? path.slice(0, 3).join('.') : path.slice(0, 2).join('.');
    if (!errors.has(key)) errors.set(key, issue.message);
  }
  return errors;
}

/** A server's pointer (`#/rules/2/pattern`) as the form's key. */
export function keyOfPointer(pointer: string | null): string | null {
  if (pointer === null || !pointer.startsWith('#/')) return null;
  return (
    errorsOf([{ path: pointer.slice(2).split('/'), message: '' }])
      .keys()
      .next().value ?? null
  );
}
