/** One entry of a document's timeline (`GET …/timeline`, docs/review-store.md) in words. */
import type { TimelineEntry } from '@extraction-review/contract/review/schemas';
import { titleFromPath, type TitleOf } from '@extraction-review/review-domain/fields/review-tree';
import { ruleMessageInWords } from '../rule-failures/rule-words';
import { correctionLabel, describeValue } from './describe-correction';

export interface EventText {
  who: string;
  what: string;
  /** The API path of the field a correction changed (shown on hover: `what` names it by its title). */
  path?: string;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** The strings of a list in an event's data (reasons), anything else left out. */
const texts = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v !== '') : [];

/**
 * The messages of the failing business rules an event keeps (`failing: [{ ruleId, message, fields }]`),
 * their fields named by their titles.
 */
const failing = (value: unknown, titleOf: TitleOf): string[] =>
  Array.isArray(value)
    ? value.flatMap((f: unknown) => {
        if (typeof f !== 'object' || f === null) return [];
        const { ruleId, message, fields } = f as { ruleId?: unknown; message?: unknown; fields?: unknown };
        const m = text(message);
        if (m === null) return [];
        const words = ruleMessageInWords({ message: m, fields: texts(fields) }, titleOf);
        return [text(ruleId) === null ? words : `${String(ruleId)}: ${words}`];
      })
    : [];

/**
 * The unchecked values a confirmation kept (the unchecked-values gate): how many the server counted,
 * and whether the operator was told and confirmed anyway. Empty when there were none.
 */
function uncheckedNote(counted: unknown, told: unknown): string {
  const n = typeof counted === 'number' && counted > 0 ? counted : null;
  const asked = typeof told === 'number' && told > 0 ? told : null;
  if (n === null && asked === null) return '';
  const count = n ?? asked ?? 0;
  const values = count === 1 ? '1 value' : `${String(count)} values`;
  return asked !== null
    ? `, with ${values} not checked (asked, and confirmed anyway)`
    : `, with ${values} not checked`;
}

/** The fields a correction names, by their titles (the review's field-titles; else the path made human). */
export function describeEvent(entry: TimelineEntry, titleOf: TitleOf = titleFromPath): EventText {
  const described = describeOnly(entry, titleOf);
  // A decision ends an assignment (the server clears it): said with the decision.
  const assignee =
    entry.data?.assignedTo == null ? null : (text(entry.data.assignedToName) ?? 'a removed operator');
  return assignee === null
    ? described
    : { ...described, what: `${described.what} (assigned to ${assignee}: the assignment ends)` };
}

function describeOnly({ kind, actor, data }: TimelineEntry, titleOf: TitleOf): EventText {
  const who = actor === null ? 'The app server' : (actor.name ?? 'A removed operator');
  const reason = text(data?.reason);
  switch (kind) {
    case 'received':
      return { who, what: 'Received the document' };
    case 'extracted':
      return { who, what: 'Extraction done: ready for review' };
    case 'failed':
      return { who, what: 'The extraction failed' };
    case 'taken':
      return { who, what: data?.how === 'next' ? 'Took it from the queue' : 'Opened it for review' };
    case 'lease_expired':
      return { who, what: 'Left it idle: the lease ran out, and another operator took it' };
    case 'corrected': {
      const field = text(data?.field) ?? '(unknown field)';
      // `before` is null when the field had no correction yet (the server cannot tell it from a null).
      const before = describeValue(data?.before ?? undefined, field, titleOf);
      const after = describeValue(data?.after, field, titleOf);
      return { who, what: `${correctionLabel(field, titleOf)}: ${before} → ${after}`, path: field };
    }
    case 'released':
      return { who, what: 'Released it to the queue, undecided' };
    case 'confirmed': {
      const override = text(data?.override);
      const unchecked = uncheckedNote(data?.unchecked, data?.uncheckedConfirmed);
      if (override === null) return { who, what: `Confirmed it${unchecked}` };
      const rules = failing(data?.failing, titleOf);
      return {
        who,
        what: `Confirmed it although ${rules.length === 1 ? 'a business rule fails' : 'business rules fail'}. Reason: ${override}${rules.length > 0 ? ` (${rules.join('; ')})` : ''}${unchecked}`,
      };
    }
    case 'auto_confirmed': {
      const reasons = texts(data?.reasons);
      return {
        who,
        what: `Confirmed automatically by the routing rules${reasons.length > 0 ? `: ${reasons.join('; ')}` : ''}`,
      };
    }
    case 'routed_to_review': {
      const reasons = texts(data?.reasons);
      return { who, what: `Sent to review${reasons.length > 0 ? `: ${reasons.join('; ')}` : ''}` };
    }
    case 'rejected':
      return { who, what: reason ? `Rejected it: ${reason}` : 'Rejected it' };
    case 'postponed':
      return { who, what: reason ? `Postponed it: ${reason}` : 'Postponed it' };
    case 'reopened':
      return { who, what: 'Reopened it for review' };
    case 'reassigned':
      return { who, what: 'Reassigned it to another operator' };
    case 'assigned': {
      const to = text(data?.toName) ?? 'a removed operator';
      const from = text(data?.fromName);
      return { who, what: `Assigned it to ${to}${from === null ? '' : ` (was ${from})`}` };
    }
    case 'unassigned': {
      const from = text(data?.fromName) ?? 'a removed operator';
      return {
        who,
        what:
          data?.why === 'operator_left'
            ? `Unassigned it from ${from}, who left the team: back to the team`
            : `Unassigned it from ${from}: back to the team`,
      };
    }
    case 'prioritised':
      return { who, what: `Set its priority from ${String(data?.from ?? 0)} to ${String(data?.to ?? 0)}` };
    case 'imported':
      return { who, what: 'Imported it from a browser’s kept jobs' };
    case 'feedback_sent':
    case 'sent_to_rag': {
      const fields = Array.isArray(data?.fields)
        ? data.fields.filter((f): f is string => typeof f === 'string')
        : [];
      const where =
        kind === 'feedback_sent' ? 'Sent feedback to the service' : 'Sent the corrected values to RAG';
      return { who, what: fields.length === 0 ? where : `${where} (${fields.map(titleOf).join(', ')})` };
    }
    default:
      return { who, what: kind.replaceAll('_', ' ') };
  }
}
