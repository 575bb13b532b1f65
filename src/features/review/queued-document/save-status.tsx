import type { SaverStatus } from './corrections-saver';

const TEXT: Record<SaverStatus['kind'], string> = {
  saved: 'All changes saved',
  pending: 'Saving…',
  saving: 'Saving…',
  retrying: 'Not saved yet — retrying',
  blocked: 'Not saved: see the message below',
};

/**
 * Whether the server has the operator's corrections, in one line read out as it changes. Unsaved ones
 * are kept in this browser meanwhile, so leaving loses nothing.
 */
export function SaveStatus({ status }: { status: SaverStatus }) {
  const unsaved = status.kind === 'retrying' || status.kind === 'blocked';
  return (
    <p
      role="status"
      className={`text-sm ${unsaved ? 'font-medium text-amber-900' : 'text-slate-700'}`}
      data-save-status={status.kind}
    >
      {TEXT[status.kind]}
      {unsaved && <span className="font-normal"> (kept in this browser meanwhile)</span>}
    </p>
  );
}
