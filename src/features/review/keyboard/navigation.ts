/**
 * Where the selection goes on a key: the next or previous field in the order shown, or the next one
 * still needing review (Medium, Low or unknown confidence, neither corrected nor confirmed), wrapping
 * around. Pure, so it is tested without a browser.
 */
import type { ReviewCommand } from './keymap';

export interface NavField {
  path: string;
  toReview: boolean;
}

type NavCommand = Extract<ReviewCommand, 'nextField' | 'previousField' | 'nextToReview' | 'previousToReview'>;

export function isNavCommand(command: ReviewCommand): command is NavCommand {
  return ['nextField', 'previousField', 'nextToReview', 'previousToReview'].includes(command);
}

/** The path to select, or null when there is nowhere to go (nothing left to review, an empty list). */
export function navigate(
  fields: readonly NavField[],
  current: string | null,
  command: NavCommand,
): string | null {
  if (fields.length === 0) return null;
  const at = current == null ? -1 : fields.findIndex((f) => f.path === current);
  switch (command) {
    case 'nextField':
      return fields[at < 0 ? 0 : Math.min(at + 1, fields.length - 1)]?.path ?? null;
    case 'previousField':
      return fields[at < 0 ? fields.length - 1 : Math.max(at - 1, 0)]?.path ?? null;
    case 'nextToReview':
    case 'previousToReview': {
      const step = command === 'nextToReview' ? 1 : -1;
      const start = at < 0 ? (step === 1 ? -1 : fields.length) : at;
      for (let i = 1; i <= fields.length; i++) {
        const candidate = fields[(start + step * i + fields.length * 2) % fields.length];
        if (candidate?.toReview && candidate.path !== current) return candidate.path;
      }
      return null;
    }
  }
}
