import { useId } from 'react';
import { DropZone } from './drop-zone';
import { SelectedFiles, type Candidate } from './selected-files';

export type SourceKind = 'files' | 'url';

interface Props {
  kind: SourceKind;
  onKindChange: (kind: SourceKind) => void;
  candidates: readonly Candidate[];
  onFiles: (files: File[]) => void;
  onRemove: (id: string) => void;
  onOverride: (id: string, override: boolean) => void;
  url: string;
  onUrlChange: (url: string) => void;
  urlProblem: string | null;
  /** Only files can be sent (the v1 form): no choice shown. */
  filesOnly?: boolean;
}

/** What to extract from: files from this computer (several at once), or a public HTTPS URL. */
export function DocumentSource(props: Props) {
  const urlId = useId();
  const urlHint = useId();
  const { kind } = props;
  return (
    <fieldset className="flex flex-col gap-3">
      <legend className="sr-only">Send</legend>
      <div className={`flex gap-4 text-sm ${props.filesOnly ? 'hidden' : ''}`}>
        {(
          [
            ['files', 'Files from this computer'],
            ['url', 'A public URL'],
          ] as const
        ).map(([value, label]) => (
          <label key={value} className="flex items-center gap-2">
            <input
              type="radio"
              name="document-source"
              value={value}
              checked={kind === value}
              onChange={() => props.onKindChange(value)}
            />
            {label}
          </label>
        ))}
      </div>
      {kind === 'files' ? (
        <>
          <DropZone onFiles={props.onFiles} />
          <SelectedFiles
            candidates={props.candidates}
            onRemove={props.onRemove}
            onOverride={props.onOverride}
          />
        </>
      ) : (
        <div className="flex flex-col gap-1">
          <label htmlFor={urlId} className="text-sm font-medium">
            Public HTTPS URL
          </label>
          <input
            id={urlId}
            type="url"
            inputMode="url"
            value={props.url}
            onChange={(e) => props.onUrlChange(e.target.value)}
            placeholder="https://example.com/invoice.pdf"
            aria-invalid={props.urlProblem !== null}
            aria-describedby={urlHint}
            spellCheck={false}
            className="rounded-md border border-slate-300 px-3 py-2 font-mono text-sm aria-invalid:border-red-700"
          />
          <p id={urlHint} className={`text-xs ${props.urlProblem ? 'text-red-800' : 'text-slate-600'}`}>
            {props.urlProblem ??
              'The service downloads it itself: it must be reachable from the internet over HTTPS, without a redirection. This browser never holds the file, so its review shows the values without the page.'}
          </p>
        </div>
      )}
    </fieldset>
  );
}
