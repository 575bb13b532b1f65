import { useId, useState } from 'react';
import { ConfidenceBadge } from './confidence-badge';
import { useHighlighted } from '../viewer/highlight-store';
import { FieldNode } from './field-node';
import { isWithin, simpleNodes, type ObjectNode } from '@extraction-review/review-domain/fields/review-tree';

/**
 * An object's sub-fields as a section, as the data schema nests them: under its title (the API's path
 * on hover), collapsible. A group holding the selected field
 * stays open, so the keyboard never selects a value the operator cannot see.
 */
export function ObjectGroup({ node, disabled }: { node: ObjectNode; disabled?: boolean | undefined }) {
  const { selected } = useHighlighted();
  const listId = useId();
  const [collapsed, setCollapsed] = useState(false);
  const holdsSelection = selected != null && isWithin(selected, node.path);
  const open = !collapsed || holdsSelection;
  const edited = simpleNodes([node]).filter((n) => n.edited).length;
  return (
    <li className="rounded-md border border-slate-200 bg-white">
      <div className="flex flex-wrap items-center justify-between gap-2 px-2 py-1">
        <button
          type="button"
          aria-expanded={open}
          aria-controls={listId}
          onClick={() => setCollapsed(open)}
          title={node.path}
          className="flex min-w-0 items-center gap-1 rounded px-1 text-sm font-semibold text-slate-900 hover:bg-slate-100"
        >
          <span aria-hidden="true">{open ? '▾' : '▸'}</span>
          <span className="truncate">{node.title}</span>
          <span className="shrink-0 text-xs font-normal text-slate-700">
            ({node.children.length} sub-field{node.children.length === 1 ? '' : 's'})
          </span>
        </button>
        <span className="flex items-center gap-2 text-xs">
          {edited > 0 && <span className="font-semibold text-violet-800">{edited} edited</span>}
          {node.confidence && <ConfidenceBadge confidence={node.confidence} />}
        </span>
      </div>
      {open && (
        <ul
          id={listId}
          aria-label={node.title}
          className="flex flex-col gap-1 border-t border-slate-100 py-1 pl-3"
        >
          {node.children.map((child) => (
            <FieldNode key={child.path} node={child} disabled={disabled} />
          ))}
        </ul>
      )}
    </li>
  );
}
