import type { CorrectionValue } from '../../../lib/draft-store';
import type { FieldLeaf } from './flatten-fields';
import { FieldRow } from './field-row';

interface Props {
  leaves: FieldLeaf[];
  corrections: Record<string, CorrectionValue>;
  hovered: string | null;
  selected: string | null;
  onFieldHover: (path: string | null) => void;
  onFieldSelect: (path: string | null) => void;
  onFieldChange: (path: string, value: CorrectionValue) => void;
}

/** Every extracted value as a labelled control, linked both ways with its polygons. */
export function FieldList({ leaves, corrections, ...handlers }: Props) {
  if (leaves.length === 0) {
    return <p className="text-sm text-slate-600">The model returned no fields for this document.</p>;
  }
  return (
    <ul aria-label="Fields" className="flex flex-col gap-1">
      {leaves.map((leaf) => (
        <FieldRow
          key={leaf.path}
          leaf={leaf}
          correction={
            Object.hasOwn(corrections, leaf.path) ? { value: corrections[leaf.path] ?? null } : null
          }
          hovered={handlers.hovered === leaf.path}
          selected={handlers.selected === leaf.path}
          onFieldHover={handlers.onFieldHover}
          onFieldSelect={handlers.onFieldSelect}
          onFieldChange={handlers.onFieldChange}
        />
      ))}
    </ul>
  );
}
