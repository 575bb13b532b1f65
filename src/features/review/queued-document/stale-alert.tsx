import { describeError } from '../../../components/describe-error';
import { Button } from '../../../components/ui/button';
import { useTitleOf } from '../field-titles';
import { correctionLabel, describeValue } from './describe-correction';
import type { Conflict } from './use-corrections-sync';

interface Props {
  /** The 409 `409-001` as the server said it. */
  error: unknown;
  conflict: Conflict;
  onKeepMine: () => void;
  onTakeTheirs: () => void;
}

const cell = 'border border-red-200 px-2 py-1 break-words';

/**
 * The document changed on the server since the review read it (another tab, an admin): a compact
 * banner above the values with the two ways on; what changed (both values side by side) and the
 * server's words unfold under it, so the values are never pushed out of view. Fields by their
 * titles, the API path on hover.
 */
export function StaleAlert({ error, conflict, onKeepMine, onTakeTheirs }: Props) {
  const { differences } = conflict;
  const titleOf = useTitleOf();
  const problem = describeError(error);
  const summary = `It changed since you read it (it is now version ${conflict.version}): ${
    differences.length === 0
      ? 'none of its corrections differs from yours.'
      : `${differences.length} of its corrections differ${differences.length === 1 ? 's' : ''} from yours.`
  } Nothing of yours is lost: choose which to keep.`;
  return (
    <section
      aria-label="Changed since you read it"
      className="shrink-0 rounded-md border-l-4 border-red-700 bg-red-50 px-2 py-1 text-sm text-red-950"
    >
      <div className="flex flex-wrap items-center gap-2">
        <p role="alert" className="min-w-0 flex-1">
          <span className="font-semibold">{problem.title}</span>
          {problem.code && <span className="ml-1 font-mono text-xs">({problem.code})</span>}. {summary}
        </p>
        <span className="flex shrink-0 gap-1">
          <Button className="px-2 py-1 text-xs" onClick={onKeepMine}>
            Keep mine
          </Button>
          <Button variant="secondary" className="px-2 py-1 text-xs" onClick={onTakeTheirs}>
            Take theirs
          </Button>
        </span>
      </div>
      <details className="text-xs">
        <summary className="cursor-pointer py-0.5 font-medium">
          {differences.length > 0 ? 'What changed, and what each choice does' : 'What each choice does'}
        </summary>
        <div className="flex max-h-48 flex-col gap-2 overflow-y-auto pb-1">
          {problem.detail && <p className="break-words">{problem.detail}</p>}
          {differences.length > 0 && (
            <table className="w-full border-collapse bg-white text-left text-slate-900">
              <caption className="pb-1 text-left font-semibold">What changed on the server</caption>
              <thead>
                <tr>
                  <th scope="col" className={cell}>
                    Field
                  </th>
                  <th scope="col" className={cell}>
                    Yours
                  </th>
                  <th scope="col" className={cell}>
                    On the server
                  </th>
                </tr>
              </thead>
              <tbody>
                {differences.map((d) => (
                  <tr key={d.path}>
                    <th scope="row" title={d.path} data-field-path={d.path} className={`${cell} font-normal`}>
                      {correctionLabel(d.path, titleOf)}
                    </th>
                    <td className={cell}>{describeValue(d.mine, d.path, titleOf)}</td>
                    <td className={cell}>{describeValue(d.theirs, d.path, titleOf)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <p className="text-slate-800">
            Keep mine sends your corrections again on the new version. Take theirs uses the server’s values
            where they differ and keeps your other corrections.
          </p>
        </div>
      </details>
    </section>
  );
}
