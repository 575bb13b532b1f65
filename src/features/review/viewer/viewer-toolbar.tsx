import type { ReactNode } from 'react';
import { MAX_ZOOM, MIN_ZOOM, viewerActions, type ViewerDispatch } from '../viewer-state';
import { ConfidenceLegend } from './confidence-legend';

interface Props {
  page: number;
  pageCount: number;
  zoom: number;
  dispatch: ViewerDispatch;
}

function ToolButton({
  label,
  onClick,
  disabled,
  children,
}: {
  label: string;
  onClick: () => void;
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      disabled={disabled}
      onClick={onClick}
      className="inline-flex h-8 min-w-8 items-center justify-center rounded-md border border-slate-300 bg-white px-2 text-sm text-slate-900 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 disabled:cursor-not-allowed disabled:text-slate-400"
    >
      {children}
    </button>
  );
}

/** Page, zoom and rotation controls, and the legend of the outlines. */
export function ViewerToolbar({ page, pageCount, zoom, dispatch }: Props) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-2 border-b border-slate-300 bg-slate-50 px-2 py-1.5">
      <div role="toolbar" aria-label="Document view" className="flex flex-wrap items-center gap-1">
        <ToolButton
          label="Previous page"
          disabled={page <= 0}
          onClick={() => dispatch(viewerActions.previousPage())}
        >
          ‹
        </ToolButton>
        <span className="min-w-24 px-1 text-center text-sm text-slate-900" aria-live="polite">
          Page {Math.min(page + 1, pageCount)} of {pageCount}
        </span>
        <ToolButton
          label="Next page"
          disabled={page >= pageCount - 1}
          onClick={() => dispatch(viewerActions.nextPage())}
        >
          ›
        </ToolButton>
        <span aria-hidden="true" className="mx-1 h-5 w-px bg-slate-300" />
        <ToolButton
          label="Zoom out"
          disabled={zoom <= MIN_ZOOM}
          onClick={() => dispatch(viewerActions.zoomOut())}
        >
          −
        </ToolButton>
        <span className="w-12 text-center text-sm text-slate-900">
          <span className="sr-only">Zoom </span>
          {Math.round(zoom * 100)}%
        </span>
        <ToolButton
          label="Zoom in"
          disabled={zoom >= MAX_ZOOM}
          onClick={() => dispatch(viewerActions.zoomIn())}
        >
          +
        </ToolButton>
        <ToolButton
          label="Fit width"
          disabled={zoom === 1}
          onClick={() => dispatch(viewerActions.fitWidth())}
        >
          Fit
        </ToolButton>
        <span aria-hidden="true" className="mx-1 h-5 w-px bg-slate-300" />
        <ToolButton label="Rotate left" onClick={() => dispatch(viewerActions.rotate(-90))}>
          ↺
        </ToolButton>
        <ToolButton label="Rotate right" onClick={() => dispatch(viewerActions.rotate(90))}>
          ↻
        </ToolButton>
      </div>
      <ConfidenceLegend />
    </div>
  );
}
