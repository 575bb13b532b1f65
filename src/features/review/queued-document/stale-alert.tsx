import { Button } from '../../../components/ui/button';
import { ProblemAlert } from '../../../components/problem-alert';
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
 * The document changed on the server since the review read it (another tab, an admin): what changed
 * that differs from the operator's corrections, both values side by side, and the two ways on.
 */
export function StaleAlert({ error, conflict, onKeepMine, onTakeTheirs }: Props) {
  const { differences } = conflict;
  return (
    <section aria-label="Changed since you read it" className="flex flex-col gap-2">
      <ProblemAlert
        error={error}
        action={`It changed since you read it (it is now version ${conflict.version}): ${
          differences.length === 0
            ? 'none of its corrections differs from yours.'
            : `${differences.length} of its corrections differ${differences.length === 1 ? 's' : ''} from yours, listed below.`
        } Nothing of yours is lost: choose which to keep.`}
      />
      {differences.length > 0 && (
        <table className="w-full border-collapse bg-white text-left text-xs text-slate-900">
          <caption className="pb-1 text-left text-sm font-semibold">What changed on the server</caption>
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
                <th scope="row" className={`${cell} font-mono font-normal`}>
                  {correctionLabel(d.path)}
                </th>
                <td className={cell}>{describeValue(d.mine, d.path)}</td>
                <td className={cell}>{describeValue(d.theirs, d.path)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <div className="flex flex-wrap items-center gap-2">
        <Button onClick={onKeepMine}>Keep mine</Button>
        <Button variant="secondary" onClick={onTakeTheirs}>
          Take theirs
        </Button>
      </div>
      <p className="text-xs text-slate-700">
        Keep mine sends your corrections again on the new version. Take theirs uses the server’s values where
        they differ and keeps your other corrections.
      </p>
    </section>
  );
}
