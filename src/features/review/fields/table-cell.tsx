import { memo } from 'react';
import { PageCheckNote, useConfirmChecked, usePageCheck } from '../pick/page-check-note';
import { RuleMark } from '../rule-failures/rule-mark';
import { ConfidenceBadge } from './confidence-badge';
import { isValidValue, type SimpleNode } from '@extraction-review/review-domain/fields/review-tree';
import { sameSimpleNode } from './same-node';
import { useFieldTarget } from './use-field-target';
import { ValueEditor } from './value-editor';

interface Props {
  node: SimpleNode;
  disabled?: boolean | undefined;
  /** The row's title (`Line item 2`): the editor is named `Description, Line item 2`. */
  row?: string | undefined;
  /** Its place in the line-item grid (grid/), which the grid's keys move between. */
  at?: { row: number; col: number } | undefined;
}

/**
 * One value of a table: its confidence symbol, its editor (named by its column and row), edited and checked
 * marks, and under it, when typed and not on the page, the same note as a value's row.
 */
export const TableCell = memo(
  function TableCell({ node, row, disabled, at }: Props) {
    const { actions: a, highlight, targetProps } = useFieldTarget(node.path);
    const invalid = !isValidValue(node);
    const name = row === undefined ? node.title : `${node.title}, ${row}`;
    const check = usePageCheck(node);
    const onConfirm = useConfirmChecked(node, check, a.onConfirm, a.onLeaveEditor);
    return (
      <td
        {...targetProps}
        data-grid-row={at?.row}
        data-grid-col={at?.col}
        className={`px-1 py-1 focus:outline-2 focus:outline-blue-700 ${highlight !== '' ? 'bg-blue-50' : ''} ${
          node.edited ? 'border-l-4 border-violet-700' : ''
        }`}
      >
        <div className="flex items-center gap-1">
          {!node.added && <ConfidenceBadge confidence={node.confidence} compact />}
          <ValueEditor
            node={node}
            label={name}
            compact
            disabled={disabled}
            onFocus={() => a.onFieldSelect(node.path)}
            onChange={(value) => a.onFieldChange(node, value)}
            onConfirm={onConfirm}
            onLeave={() => a.onLeaveEditor(node.path)}
          />
          {node.edited && (
            <>
              <span title="Edited" className="text-violet-800">
                <span aria-hidden="true">✎</span>
                <span className="sr-only">edited</span>
              </span>
              <button
                type="button"
                onClick={() => a.onRevert(node.path)}
                aria-label={`Revert ${name}`}
                title={`Back to the extracted value: ${node.original ?? 'no value'}`}
                className="rounded px-1 text-blue-800 hover:bg-blue-100"
              >
                <span aria-hidden="true">↺</span>
              </button>
            </>
          )}
          {node.reviewed && !node.edited && (
            <span title="Checked" className="text-teal-800">
              <span aria-hidden="true">✓</span>
              <span className="sr-only">checked</span>
            </span>
          )}
          {invalid && <span className="sr-only">not a number</span>}
          <RuleMark path={node.path} compact />
        </div>
        <PageCheckNote node={node} state={check} compact />
      </td>
    );
  },
  (a, b) =>
    sameSimpleNode(a.node, b.node) &&
    a.disabled === b.disabled &&
    a.row === b.row &&
    a.at?.row === b.at?.row &&
    a.at?.col === b.at?.col,
);
