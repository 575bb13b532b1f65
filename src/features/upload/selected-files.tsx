import { Button } from '../../components/ui/button';
import { formatBytes, type DocumentCheck } from '../../lib/check-document';
import { TYPE_NAMES, isAcceptedType } from '../../lib/sniff-file';

export interface Candidate {
  id: string;
  file: File;
  /** null while the checks run. */
  check: DocumentCheck | null;
  /** The operator chose to send it despite an overridable problem (an encrypted PDF). */
  override: boolean;
}

/** A candidate that will be sent: checked, and either without problem or overridden. */
export function isSendable(candidate: Candidate): boolean {
  const { check } = candidate;
  return check !== null && (check.problem === null || (check.problem.overridable && candidate.override));
}

interface Props {
  candidates: readonly Candidate[];
  onRemove: (id: string) => void;
  onOverride: (id: string, override: boolean) => void;
}

/** The files chosen for this extraction, each with the outcome of its checks before sending. */
export function SelectedFiles({ candidates, onRemove, onOverride }: Props) {
  if (candidates.length === 0) return null;
  return (
    <ul className="flex flex-col divide-y divide-slate-200 rounded-md border border-slate-200 bg-white">
      {candidates.map((candidate) => {
        const { file, check } = candidate;
        const type = check && isAcceptedType(check.mimeType) ? TYPE_NAMES[check.mimeType] : null;
        return (
          <li
            key={candidate.id}
            data-file={file.name}
            data-check={check === null ? 'checking' : check.problem ? check.problem.kind : 'ok'}
            className="flex flex-col gap-1 px-3 py-2 text-sm"
          >
            <div className="flex items-center gap-3">
              <span className="min-w-0 flex-1 truncate font-medium" title={file.name}>
                {file.name}
              </span>
              <span className="text-xs text-slate-600">
                {[type, formatBytes(file.size)].filter(Boolean).join(' · ')}
              </span>
              <span className="text-xs">
                {check === null ? (
                  'Checking…'
                ) : check.problem === null ? (
                  <span className="text-green-800">Ready</span>
                ) : (
                  <span className={candidate.override ? 'text-amber-900' : 'text-red-800'}>
                    {!check.problem.overridable
                      ? 'Not sendable'
                      : candidate.override
                        ? 'Sent anyway'
                        : 'Check this'}
                  </span>
                )}
              </span>
              <Button
                variant="ghost"
                className="px-2 py-1"
                onClick={() => onRemove(candidate.id)}
                aria-label={`Remove ${file.name}`}
              >
                Remove
              </Button>
            </div>
            {check?.problem && (
              <div className="rounded bg-amber-50 px-2 py-1 text-xs text-amber-950">
                <p>{check.problem.message}</p>
                {check.problem.overridable && (
                  <label className="mt-1 flex items-center gap-2">
                    <input
                      type="checkbox"
                      checked={candidate.override}
                      onChange={(e) => onOverride(candidate.id, e.target.checked)}
                    />
                    It opens without a password: send it anyway
                  </label>
                )}
              </div>
            )}
          </li>
        );
      })}
    </ul>
  );
}
