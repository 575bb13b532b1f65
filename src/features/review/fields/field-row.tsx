import { memo, useId } from 'react';
import { PageCheckNote, useConfirmChecked, usePageCheck } from '../pick/page-check-note';
import { RuleMark } from '../rule-failures/rule-mark';
import { ConfidenceBadge } from './confidence-badge';
import { sameItemRef, type ItemRef } from './field-actions';
import { firstPageOf } from '@extraction-review/review-domain/fields/flatten-fields';
import { ItemButton } from './item-button';
import { isValidValue, type SimpleNode } from '@extraction-review/review-domain/fields/review-tree';
import { sameSimpleNode } from './same-node';
import { useFieldTarget } from './use-field-target';
import { ValueEditor } from './value-editor';

interface Props {
  node: SimpleNode;
  /** The value belongs to a removed list item: shown struck through, not editable. */
  disabled?: boolean | undefined;
  /** The value is an item of a list of simple values: it gets a remove (or restore) button. */
  item?: ItemRef | undefined;
}

/** One simple value: its title (the API path on hover), confidence, page, markers, the typed editor and a revert button. */
export const FieldRow = memo(function FieldRow({ node, disabled, item }: Props) {
  const id = useId();
  const { actions: a, highlight, targetProps } = useFieldTarget(node.path);
  const page = firstPageOf(node);
  const invalid = !isValidValue(node);
  const check = usePageCheck(node);
  const onConfirm = useConfirmChecked(node, check, a.onConfirm, a.onLeaveEditor);
  return (
    <li
      {...targetProps}
      className={`rounded-md border px-3 py-2 focus:outline-2 focus:outline-blue-700 ${
        highlight !== '' ? 'border-blue-700 bg-blue-50' : 'border-transparent hover:bg-slate-100'
      }`}
    >
      <div className="flex flex-wrap items-center justify-between gap-x-2 gap-y-1">
        <label
          htmlFor={id}
          title={node.path}
          className={`min-w-40 flex-1 text-sm font-medium [overflow-wrap:anywhere] text-slate-900 ${disabled ? 'line-through' : ''}`}
        >
          {node.title}
        </label>
        <span className="flex shrink-0 flex-wrap items-center gap-2 text-xs text-slate-700">
          {disabled && <span className="font-semibold text-slate-800">removed</span>}
          {node.edited && <span className="font-semibold text-violet-800">edited</span>}
          {node.reviewed && !node.edited && <span className="font-semibold text-teal-800">✓ checked</span>}
          {node.picked && <span className="font-semibold text-sky-800">picked on the page</span>}
          {invalid && <span className="font-semibold text-red-800">not a number</span>}
          {page != null && <span>p. {page + 1}</span>}
          {!node.added && <ConfidenceBadge confidence={node.confidence} />}
          {node.edited && (
            <button
              type="button"
              onClick={() => a.onRevert(node.path)}
              aria-label={`Revert ${node.title}`}
              title={`Back to the extracted value: ${node.original ?? 'no value'}`}
              className="rounded px-1 text-blue-800 underline hover:bg-blue-100"
            >
              Revert
            </button>
          )}
          {item && <ItemButton item={item} disabled={disabled && !item.removed} />}
        </span>
      </div>
      <ValueEditor
        node={node}
        id={id}
        disabled={disabled}
        onFocus={() => a.onFieldSelect(node.path)}
        onChange={(value) => a.onFieldChange(node, value)}
        onConfirm={onConfirm}
        onLeave={() => a.onLeaveEditor(node.path)}
      />
      <PageCheckNote node={node} state={check} />
      <RuleMark path={node.path} />
    </li>
  );
}, sameRow);

function sameRow(a: Props, b: Props): boolean {
  return sameSimpleNode(a.node, b.node) && a.disabled === b.disabled && sameItemRef(a.item, b.item);
}
