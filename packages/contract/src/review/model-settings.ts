/**
 * Per model (v2) or product (v1): when a document sent by an integration goes to an operator rather
 * than being confirmed on its own (routing), the business rules its values must pass (checked at
 * intake and in the review), and whether v1 feedback is sent upstream on confirmation.
 *
 *   GET /api/review/models                                 → ModelsResponse
 *   GET /api/review/models/{apiVersion}/{model}/settings   → ModelSettings
 *   PUT /api/review/models/{apiVersion}/{model}/settings   ModelSettingsRequest (admins) → ModelSettings
 *
 * They also hold the reasons the review offers for a rejection, a postponement and an override.
 *
 * `{model}` is URL-encoded (a v1 product `account/name/vN` is one segment: `account%2Fname%2Fv4`).
 * The evaluation is src/features/review/rule-failures/ (pure: the app server and the review run the same code).
 */
import { z } from 'zod';
import { FieldConfidence } from '../v2/schemas';
import { patternError } from './rule-pattern';
import { ApiVersion } from './schemas';

/**
 * A field of the review tree: `total_amount`, `supplier_address.city`, `line_items[0].description`, or
 * `line_items[*].description` for every item of a list.
 */
const SEGMENT = String.raw`[^\s.[\]]+(?:\[(?:\d+|\*)\])*`;
export const FIELD_PATH = new RegExp(`^${SEGMENT}(?:\\.${SEGMENT})*$`);

export const FieldPath = z
  .string({ error: 'Name a field' })
  .trim()
  .min(1, { error: 'Name a field' })
  .max(300)
  .regex(FIELD_PATH, {
    error: 'A field path: total_amount, supplier_address.city, line_items[*].description',
  });

/** A plain field name (no dots, no brackets): a list's item field. */
const FieldName = z
  .string({ error: 'Name a field' })
  .trim()
  .min(1, { error: 'Name a field' })
  .max(100)
  .regex(/^[^\s.[\]]+$/, { error: 'One field name, without dots or brackets' });

const IsoDate = z.iso.date({ error: 'A date as YYYY-MM-DD' });

const Tolerance = z
  .number({ error: 'A tolerance is a number' })
  .min(0, { error: 'A tolerance is 0 or more' })
  .max(1e9)
  .default(0.01);

const RuleId = z
  .string({ error: 'Give the rule an id' })
  .trim()
  .min(1, { error: 'Give the rule an id' })
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, { error: 'Letters, digits, - and _ only' });

/**
 * Why a rule's regular expression is refused, or null: the check of a save (the form and the server).
 * RE2 runs it (rule-pattern.ts): backreferences and lookaround have no linear-time form.
 */
export function regexError(pattern: string): string | null {
  return patternError(pattern);
}

const RequiredRule = z.strictObject({ id: RuleId, kind: z.literal('required'), field: FieldPath });

/** JavaScript syntax, Unicode mode, run by RE2; found anywhere in the value unless anchored (`^…$`). */
const PatternText = z
  .string({ error: 'Give a regular expression' })
  .min(1, { error: 'Give a regular expression' })
  .max(500);

/**
 * As stored and read back: a pattern saved before RE2 ran them (a backreference) still reads, so its
 * model keeps its other rules, and the rule fails on every document, saying the pattern is not valid.
 */
const StoredPatternRule = z.strictObject({
  id: RuleId,
  kind: z.literal('pattern'),
  field: FieldPath,
  pattern: PatternText,
});

/** As saved: the pattern must compile with RE2 (422 `422-008` at `#/rules/N/pattern` otherwise). */
const PatternRule = StoredPatternRule.extend({
  pattern: PatternText.superRefine((pattern, context) => {
    const error = regexError(pattern);
    if (error !== null) context.addIssue({ code: 'custom', message: `Not a regular expression: ${error}` });
  }),
});

const DateRangeRule = z
  .strictObject({
    id: RuleId,
    kind: z.literal('date_range'),
    field: FieldPath,
    /** Inclusive bounds, YYYY-MM-DD; at least one. */
    min: IsoDate.optional(),
    max: IsoDate.optional(),
  })
  .superRefine((rule, context) => {
    if (rule.min === undefined && rule.max === undefined)
      context.addIssue({ code: 'custom', path: ['min'], message: 'Give a first date, a last date, or both' });
    if (rule.min !== undefined && rule.max !== undefined && rule.min > rule.max)
      context.addIssue({ code: 'custom', path: ['max'], message: 'The last date comes before the first' });
  });

const OneOfRule = z.strictObject({
  id: RuleId,
  kind: z.literal('one_of'),
  field: FieldPath,
  /** Compared with the value as text, exactly (after trimming spaces). */
  values: z
    .array(z.string().trim().min(1, { error: 'An allowed value cannot be empty' }).max(500))
    .min(1, { error: 'Give at least one allowed value' })
    .max(500),
});

const SumRule = z.strictObject({
  id: RuleId,
  kind: z.literal('sum'),
  /** The list (`line_items`) and the field of its items added up (`total_price`). */
  list: FieldPath,
  item: FieldName,
  /** The field the sum must equal (`total_net`), within `tolerance`. */
  equals: FieldPath,
  tolerance: Tolerance,
});

const AddRule = z.strictObject({
  id: RuleId,
  kind: z.literal('add'),
  /** Fields added up (`total_net`, `total_tax`) … */
  terms: z.array(FieldPath).min(1, { error: 'Give at least one field to add' }).max(50),
  /** … must equal this one (`total_amount`), within `tolerance`. */
  equals: FieldPath,
  tolerance: Tolerance,
});

const DateOrderRule = z.strictObject({
  id: RuleId,
  kind: z.literal('date_order'),
  /** `later` may not come before `earlier` (the due date not before the date); the same day passes. */
  earlier: FieldPath,
  later: FieldPath,
});

const otherRules = [DateRangeRule, OneOfRule, SumRule, AddRule, DateOrderRule] as const;

/** A rule as saved (its pattern checked). */
export const BusinessRule = z.discriminatedUnion('kind', [RequiredRule, PatternRule, ...otherRules]);
/** A rule as stored and served (a pattern that RE2 refuses still reads: the rule fails, saying so). */
export const StoredBusinessRule = z.discriminatedUnion('kind', [
  RequiredRule,
  StoredPatternRule,
  ...otherRules,
]);
export type BusinessRule = z.infer<typeof StoredBusinessRule>;
export type BusinessRuleInput = z.input<typeof BusinessRule>;
export type RuleKind = BusinessRule['kind'];

function uniqueIds(rules: readonly { id: string }[], context: z.RefinementCtx) {
  const seen = new Set<string>();
  rules.forEach((rule, index) => {
    if (seen.has(rule.id))
      context.addIssue({
        code: 'custom',
        path: [index, 'id'],
        message: `Another rule is called ${rule.id}`,
      });
    seen.add(rule.id);
  });
}

export const BusinessRules = z.array(BusinessRule).max(200).superRefine(uniqueIds);
export const StoredBusinessRules = z.array(StoredBusinessRule).max(200).superRefine(uniqueIds);
export type BusinessRules = z.infer<typeof StoredBusinessRules>;

/**
 * When a document sent by an integration goes to an operator. With `autoConfirm` off (the default)
 * every document does; on, a document is confirmed on its own unless a value is below `minConfidence`
 * (or has none), a `requiredFields` field has no value, a business rule fails (`onRuleFailure`), or it
 * is drawn in the random sample of `samplePercent` %. The app's own uploads always go to an operator.
 */
export const RoutingRules = z.strictObject({
  autoConfirm: z.boolean().default(false),
  minConfidence: FieldConfidence.nullable().default('High'),
  requiredFields: z.array(FieldPath).max(200).default([]),
  onRuleFailure: z.boolean().default(true),
  samplePercent: z
    .number({ error: 'A percentage is a number' })
    .min(0, { error: 'From 0 to 100' })
    .max(100, { error: 'From 0 to 100' })
    .default(0),
});
export type RoutingRules = z.infer<typeof RoutingRules>;

export const DEFAULT_ROUTING: RoutingRules = Object.freeze({
  autoConfirm: false,
  minConfidence: 'High',
  requiredFields: [],
  onRuleFailure: true,
  samplePercent: 0,
}) as RoutingRules;

/**
 * The reasons offered in the review, per model (issue 21): for a rejection, a postponement and a
 * confirmation although a business rule fails. The operator picks one (it fills the reason, which
 * stays editable) or writes their own; the decision keeps one text as before. Trimmed, no two alike
 * (letter case aside), at most 30 of 200 characters each per kind, in the order shown.
 */
export const PRESET_REASON_KINDS = ['reject', 'postpone', 'override'] as const;
export type PresetReasonKind = (typeof PRESET_REASON_KINDS)[number];

const PresetReason = z
  .string({ error: 'A reason is text' })
  .trim()
  .min(1, { error: 'A reason cannot be empty' })
  .max(200, { error: 'At most 200 characters' });

const PresetReasonList = z
  .array(PresetReason)
  .max(30, { error: 'At most 30 reasons' })
  .superRefine((reasons, context) => {
    const seen = new Set<string>();
    reasons.forEach((reason, index) => {
      const key = reason.toLocaleLowerCase();
      if (seen.has(key))
        context.addIssue({ code: 'custom', path: [index], message: 'The same reason is offered above' });
      seen.add(key);
    });
  });

export const PresetReasons = z.strictObject({
  reject: PresetReasonList,
  postpone: PresetReasonList,
  override: PresetReasonList,
});
export type PresetReasons = z.infer<typeof PresetReasons>;

/** A model's reasons until an admin saves some. */
export const DEFAULT_REASONS: PresetReasons = Object.freeze({
  reject: ['Not an invoice / wrong document type', 'Unreadable', 'Duplicate'],
  postpone: ['Waiting for the supplier', 'Needs a colleague'],
  override: ['Checked against the paper original'],
}) as PresetReasons;

/** A fresh copy of the default reasons (DEFAULT_REASONS is frozen). */
export function defaultReasons(): PresetReasons {
  return {
    reject: [...DEFAULT_REASONS.reject],
    postpone: [...DEFAULT_REASONS.postpone],
    override: [...DEFAULT_REASONS.override],
  };
}

/**
 * How long a model's decided documents are kept (issue 22, retention): the kept file `filesAfterDays`
 * days after the decision (the document stays, its file marked removed), the whole document
 * `documentsAfterDays` days after it (a tombstone stays in the audit log). Null: kept for ever. Only
 * confirmed and rejected documents are ever purged (server/app/review/store/retention-sweep.ts).
 */
const RetentionDays = z
  .int({ error: 'A whole number of days' })
  .min(1, { error: 'At least 1 day' })
  .max(3650, { error: 'At most 3650 days (10 years)' })
  .nullable();

export const RetentionSettings = z
  .strictObject({
    filesAfterDays: RetentionDays,
    documentsAfterDays: RetentionDays,
  })
  .superRefine((retention, context) => {
    // A document deleted before its file would be: the file's rule would never apply.
    if (
      retention.filesAfterDays !== null &&
      retention.documentsAfterDays !== null &&
      retention.documentsAfterDays < retention.filesAfterDays
    )
      context.addIssue({
        code: 'custom',
        path: ['documentsAfterDays'],
        message: 'Documents cannot go before their files: at least as many days as for the files',
      });
  });
export type RetentionSettings = z.infer<typeof RetentionSettings>;

/** Kept for ever: a model's retention until an admin sets one. */
export const NO_RETENTION: RetentionSettings = Object.freeze({
  filesAfterDays: null,
  documentsAfterDays: null,
}) as RetentionSettings;

/**
 * A business rule that fails on a document: in the review (each field marked), and in the 422
 * `422-009` of a confirmation without an override reason (its `failures`, beside `errors[]`).
 */
export const RuleFailure = z.object({
  ruleId: z.string(),
  kind: z.enum(['required', 'pattern', 'date_range', 'one_of', 'sum', 'add', 'date_order']),
  /** For a person: what is wrong, with the values. */
  message: z.string(),
  /** The fields concerned, as review paths (`line_items[1].total_price`, `total_amount`). */
  fields: z.array(z.string()),
});
export type RuleFailure = z.infer<typeof RuleFailure>;

/** `GET …/settings`: the model's settings (the defaults, version 0, until an admin saves some). */
export const ModelSettings = z.object({
  apiVersion: ApiVersion,
  model: z.string(),
  /** 0: never saved (the defaults). Send it back with the PUT. */
  version: z.int().nonnegative(),
  routing: RoutingRules,
  rules: StoredBusinessRules,
  feedbackEnabled: z.boolean(),
  /** The reasons offered in the review (the defaults until saved; a server without them, the defaults). */
  reasons: PresetReasons.default(defaultReasons),
  /** How long its decided documents and their files are kept (kept for ever until set). */
  retention: RetentionSettings.default(() => ({ ...NO_RETENTION })),
  updatedAt: z.iso.datetime().nullable(),
  updatedBy: z.object({ id: z.string(), name: z.string().nullable() }).nullable(),
});
export type ModelSettings = z.infer<typeof ModelSettings>;

/** `PUT …/settings` (admins): the whole settings, on the version read (409 when it moved on). */
export const ModelSettingsRequest = z.strictObject({
  version: z.int({ error: 'Send the version you read' }).nonnegative(),
  routing: RoutingRules,
  rules: BusinessRules,
  feedbackEnabled: z.boolean().default(false),
  /** The reasons offered in the review; left out, the saved ones stay. */
  reasons: PresetReasons.optional(),
  /** How long decided documents and their files are kept; left out, the saved retention stays. */
  retention: RetentionSettings.optional(),
});
export type ModelSettingsRequest = z.input<typeof ModelSettingsRequest>;

/** `GET /api/review/models`: every model or product seen in the store or with settings. */
export const ModelsResponse = z.object({
  models: z.array(
    ModelSettings.extend({
      /** Documents of this model in the store. */
      documents: z.int().nonnegative(),
    }),
  ),
});
export type ModelsResponse = z.infer<typeof ModelsResponse>;
export type ModelSummary = ModelsResponse['models'][number];

/**
 * `GET …/fields`: the field paths a model's rules may name, from its data schema (a v2 model's, when
 * the upstream offers it) and as seen in its documents' results (the latest ones), a list's items
 * written `[*]` (`line_items[*].description`), each with its title.
 */
export const ModelFields = z.object({
  fields: z.array(z.object({ path: z.string(), title: z.string() })),
  /** How many documents were read for them. */
  documentsRead: z.int().nonnegative(),
  /** Whether the model's data schema was read for them. Neither, and the rules' fields cannot be checked yet. */
  dataSchema: z.boolean().default(false),
});
export type ModelFields = z.infer<typeof ModelFields>;

/** A field path as the known fields write it: every list index `[3]` as `[*]`. */
export function fieldPathPattern(path: string): string {
  return path.trim().replace(/\[\d+\]/g, '[*]');
}
