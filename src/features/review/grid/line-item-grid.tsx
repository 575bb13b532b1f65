import {
  useContext,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type PointerEvent,
} from 'react';
import { createPortal } from 'react-dom';
import {
  FIELD_ATTRIBUTE,
  FieldActionsContext,
  useFieldActions,
  type FieldActions,
} from '../fields/field-actions';
import { AddItemButton } from '../fields/item-button';
import { HighlightContext } from '../viewer/highlight-store';
import { isWithin, type ListNode } from '@extraction-review/review-domain/fields/review-tree';
import { GRID_HEIGHT, useGridHeight } from './grid-height';
import { gridMove, type CellAt } from './grid-keys';
import { GridRow } from './grid-row';
import { revealRowAbove } from './reveal-row';
import { useSelectedRow } from './use-row-selected';

interface Props {
  list: ListNode;
  /** Values shown, not editable (a document someone else holds, or decided). */
  readOnly: boolean;
  onClose: () => void;
}

type FocusRequest = { path: string; target: 'cell' | 'editor' } | { at: CellAt; target: 'cell' | 'editor' };

const EDITOR =
  'input:not([disabled]):not([type="checkbox"]), select:not([disabled]), input[type="checkbox"]:not([disabled])';

/**
 * A table of objects (the line items) over the whole width of the window: the lower part of it, so
 * that the page stays in view above, where the selected row's region is drawn. Every column is as
 * wide as its longest value (editors size to their content; the grid scrolls sideways rather than
 * cut a value); the header stays in view while the rows scroll. Cells are the value list's own
 * (table-cell.tsx), with the same corrections; rows can be added, duplicated, removed and restored.
 * Keys: grid-keys.ts. Escape closes, and the focus goes back to what opened it (the caller's).
 *
 * The value list's own table is not drawn while the grid is open, so that the review's focus moves
 * (use-field-focus.ts) find no second copy of a cell: the grid moves the focus within itself.
 */
export function LineItemGrid({ list, readOnly, onClose }: Props) {
  const titleId = useId();
  const root = useRef<HTMLDialogElement>(null);
  const outer = useFieldActions();
  const selectedRow = useSelectedRow();
  const [height, setHeight] = useGridHeight();
  const highlight = useContext(HighlightContext);
  // Opened on the selected value when it is in this table, else on its first row.
  const [focus, setFocus] = useState<FocusRequest | null>(() => {
    const selected = highlight?.current().selected;
    if (selected != null && isWithin(selected, list.path)) return { path: selected, target: 'cell' };
    const first = list.items[0];
    return first ? { path: first.path, target: 'cell' } : null;
  });

  // The review's actions, with the focus kept in the grid: its own moves replace the value list's.
  const actions = useMemo<FieldActions>(
    () => ({
      ...outer,
      onConfirm: (path) => {
        outer.onConfirm(path);
        setFocus({ path, target: 'cell' });
      },
      onLeaveEditor: (path) => setFocus({ path, target: 'cell' }),
      onAddItem: (l) => {
        outer.onAddItem(l);
        setFocus({ path: `${l.path}[${l.items.length}]`, target: 'editor' });
      },
      onDuplicateItem: (l, item) => {
        outer.onDuplicateItem(l, item);
        setFocus({ path: `${l.path}[${l.items.length}]`, target: 'editor' });
      },
    }),
    [outer],
  );

  useEffect(() => {
    if (!focus || !root.current) return;
    const cell = findCell(root.current, focus);
    if (!cell) return;
    const editor = cell.querySelector<HTMLElement>(EDITOR);
    if (focus.target === 'editor' && editor) {
      editor.focus();
      if (editor instanceof HTMLInputElement && editor.type === 'text') editor.select();
    } else cell.focus();
    cell.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
    const path = cell.getAttribute(FIELD_ATTRIBUTE);
    if (path) outer.onFieldSelect(path);
  }, [focus, outer]);

  // The selected row's region, in the strip of page above the grid (after the viewer's own move).
  useEffect(() => {
    if (!selectedRow || !isWithin(selectedRow, list.path)) return;
    const frame = requestAnimationFrame(() => {
      const top = root.current?.getBoundingClientRect().top;
      if (top !== undefined) revealRowAbove(selectedRow, top);
    });
    return () => cancelAnimationFrame(frame);
  }, [selectedRow, list.path, height]);

  const rows = list.items.length;
  const cols = list.itemKind === 'object' ? list.columns.length : 1;

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.defaultPrevented || event.nativeEvent.isComposing) return;
    const target = event.target as HTMLElement;
    const cell = target.closest<HTMLElement>('[data-grid-col]');
    if (!cell) {
      if (event.key === 'Escape') {
        event.preventDefault();
        onClose();
      }
      return;
    }
    const from = { row: Number(cell.dataset.gridRow), col: Number(cell.dataset.gridCol) };
    const on =
      target === cell
        ? 'cell'
        : target instanceof HTMLInputElement && target.type === 'text'
          ? 'textEditor'
          : 'otherEditor';
    const move = gridMove(
      {
        key: event.key,
        on,
        ctrlKey: event.ctrlKey,
        metaKey: event.metaKey,
        altKey: event.altKey,
        shiftKey: event.shiftKey,
      },
      from,
      { rows, cols },
    );
    if (!move) return;
    event.preventDefault();
    if (move.kind === 'close') onClose();
    else if (move.kind === 'edit') setFocus({ at: from, target: 'editor' });
    else setFocus({ at: move.to, target: move.target });
  };

  const kept = list.items.filter((i) => !i.removed).length;
  return createPortal(
    <FieldActionsContext value={actions}>
      <dialog
        ref={root}
        open
        aria-labelledby={titleId}
        onKeyDown={onKeyDown}
        style={{ height: `${height * 100}vh` }}
        className="fixed inset-x-0 top-auto bottom-0 z-40 m-0 flex max-h-none w-full max-w-none flex-col border-t-2 border-slate-400 bg-white p-0 text-slate-900 shadow-[0_-8px_24px_rgb(15_23_42/0.18)]"
      >
        <ResizeEdge height={height} onResize={setHeight} />
        <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 border-b border-slate-200 bg-slate-50 px-4 py-2">
          <h2 id={titleId} className="text-sm font-semibold" title={list.path}>
            {list.title}{' '}
            <span className="font-normal text-slate-700">
              ({kept} row{kept === 1 ? '' : 's'}
              {readOnly ? ', read-only' : ''})
            </span>
          </h2>
          <p className="text-xs text-slate-700">
            <kbd className="font-mono">← ↑ → ↓</kbd> move · <kbd className="font-mono">Enter</kbd> edit, then
            confirm · <kbd className="font-mono">Esc</kbd> close
          </p>
          <span className="flex items-center gap-2">
            {!readOnly && <AddItemButton list={list} />}
            <button
              type="button"
              onClick={onClose}
              className="rounded border border-slate-400 bg-white px-2 py-0.5 text-xs font-medium text-slate-900 hover:bg-slate-100"
            >
              Close grid <span className="sr-only">(Escape)</span>
            </button>
          </span>
        </div>
        <div
          role="region"
          aria-label={`${list.title} grid`}
          className="min-h-0 flex-1 overflow-auto overscroll-contain"
        >
          <table
            aria-labelledby={titleId}
            className="border-separate border-spacing-0 text-left text-sm [&_select]:w-auto [&_td_input]:shrink-0 [&_td_input:not([type=checkbox])]:w-auto [&_td_input:not([type=checkbox])]:[field-sizing:content]"
          >
            <thead>
              <tr>
                <th
                  scope="col"
                  className="sticky top-0 left-0 z-30 border-b border-slate-300 bg-slate-100 px-2 py-1.5 text-right font-semibold"
                >
                  #
                </th>
                {list.columns.map((column) => (
                  <th
                    key={column.name}
                    scope="col"
                    title={column.name}
                    className="sticky top-0 z-20 border-b border-slate-300 bg-slate-100 px-2 py-1.5 font-semibold whitespace-nowrap"
                  >
                    {column.title}
                  </th>
                ))}
                <th
                  scope="col"
                  className="sticky top-0 right-0 z-30 border-b border-slate-300 bg-slate-100 px-2 py-1.5 shadow-[inset_1px_0_0_var(--color-slate-300)]"
                >
                  <span className="sr-only">Row actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.items.map((item, row) => (
                <GridRow key={item.path} list={list} item={item} row={row} readOnly={readOnly} />
              ))}
            </tbody>
          </table>
          {rows === 0 && <p className="px-4 py-3 text-sm text-slate-700">No rows yet.</p>}
        </div>
      </dialog>
    </FieldActionsContext>,
    document.body,
  );
}

/**
 * The grid's top edge: dragged, or ↑ ↓ when focused, it makes the grid taller or shorter (the page
 * above gets the rest).
 */
function ResizeEdge({ height, onResize }: { height: number; onResize: (fraction: number) => void }) {
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (!event.currentTarget.hasPointerCapture(event.pointerId)) return;
    onResize(1 - event.clientY / window.innerHeight);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const by = event.key === 'ArrowUp' ? GRID_HEIGHT.step : event.key === 'ArrowDown' ? -GRID_HEIGHT.step : 0;
    if (by === 0) return;
    event.preventDefault();
    onResize(height + by);
  };
  return (
    <div
      role="separator"
      aria-orientation="horizontal"
      aria-label="Grid height (drag, or ↑ ↓)"
      aria-valuemin={GRID_HEIGHT.min * 100}
      aria-valuemax={GRID_HEIGHT.max * 100}
      aria-valuenow={Math.round(height * 100)}
      aria-valuetext={`${Math.round(height * 100)}% of the window`}
      tabIndex={0}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onKeyDown={onKeyDown}
      className="group absolute inset-x-0 -top-1.5 z-50 flex h-3 cursor-row-resize touch-none items-center justify-center focus-visible:outline-2 focus-visible:outline-blue-700"
    >
      <span aria-hidden="true" className="h-1 w-12 rounded-full bg-slate-400 group-hover:bg-blue-700" />
    </div>
  );
}

function findCell(root: HTMLElement, request: FocusRequest): HTMLElement | null {
  if ('at' in request) {
    return root.querySelector<HTMLElement>(
      `[data-grid-row="${request.at.row}"][data-grid-col="${request.at.col}"]`,
    );
  }
  const cells = root.querySelectorAll<HTMLElement>(`[${FIELD_ATTRIBUTE}]`);
  return [...cells].find((el) => isWithin(el.getAttribute(FIELD_ATTRIBUTE) ?? '', request.path)) ?? null;
}
