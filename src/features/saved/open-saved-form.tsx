import { useId, useState, type FormEvent } from 'react';
import { useLocation } from 'wouter';
import { ProblemAlert } from '../../components/problem-alert';
import { Button } from '../../components/ui/button';
import { checkDocument } from '../../lib/check-document';
import { ACCEPT_ATTRIBUTE } from '../../lib/sniff-file';
import { parseSavedResult } from './parse-saved-result';
import { saveSavedResult } from './saved-result-store';

/** A result larger than this is not an extraction result (the largest recorded one is under 1 MB). */
const MAX_RESULT_BYTES = 50 * 1024 * 1024;

interface Problem {
  title: string;
  detail: string;
  errors?: { pointer: string; detail: string }[];
}

/**
 * A document and the result JSON saved for it, opened in the review without calling any API: both
 * are checked here (the document's type from its bytes, the result against the API's schemas), then
 * kept in this browser so that the review and its draft survive a reload.
 */
export function OpenSavedForm() {
  const [, navigate] = useLocation();
  const [document, setDocument] = useState<File | null>(null);
  const [result, setResult] = useState<File | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [busy, setBusy] = useState(false);
  const documentHelp = useId();
  const resultHelp = useId();

  async function open(event: FormEvent) {
    event.preventDefault();
    if (!document || !result) {
      setProblem({
        title: 'Two files are needed',
        detail: 'Choose the document and the result JSON saved for it.',
      });
      return;
    }
    setBusy(true);
    try {
      const checked = await checkDocument(document);
      if (checked.problem && !checked.problem.overridable) {
        setProblem({ title: 'This document cannot be shown', detail: checked.problem.message });
        return;
      }
      if (result.size > MAX_RESULT_BYTES) {
        setProblem({
          title: 'This result file is too large',
          detail: 'An extraction result is a JSON file of a few megabytes at most.',
        });
        return;
      }
      const text = await result.text();
      const parsed = parseSavedResult(text);
      if (!parsed.ok) {
        setProblem({
          title: parsed.title,
          detail: parsed.detail,
          errors: parsed.issues.map((i) => ({ pointer: i.pointer, detail: i.message })),
        });
        return;
      }
      await saveSavedResult({
        key: parsed.content.key,
        filename: document.name,
        mimeType: checked.mimeType === 'unknown' ? null : checked.mimeType,
        file: document,
        resultText: text,
        openedAt: new Date().toISOString(),
      });
      navigate(`/saved/${encodeURIComponent(parsed.content.key)}`);
    } catch (error) {
      setProblem({
        title: 'The files could not be opened',
        detail: error instanceof Error ? error.message : String(error),
      });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form aria-label="Open a saved result" className="flex flex-col gap-4" onSubmit={(e) => void open(e)}>
      <div className="flex flex-col gap-1">
        <label htmlFor="saved-document" className="font-medium">
          Document
        </label>
        <input
          id="saved-document"
          type="file"
          accept={ACCEPT_ATTRIBUTE}
          aria-describedby={documentHelp}
          onChange={(e) => setDocument(e.target.files?.[0] ?? null)}
          className="text-sm"
        />
        <p id={documentHelp} className="text-xs text-slate-600">
          The file the result was extracted from: PDF, JPEG, PNG, WebP or TIFF.
        </p>
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor="saved-result" className="font-medium">
          Result JSON
        </label>
        <input
          id="saved-result"
          type="file"
          accept="application/json,.json"
          aria-describedby={resultHelp}
          onChange={(e) => setResult(e.target.files?.[0] ?? null)}
          className="text-sm"
        />
        <p id={resultHelp} className="text-xs text-slate-600">
          A v2 result (<code>{'{ "inference": … }'}</code>) or a v1 document (
          <code>{'{ "document": … }'}</code>), as the API answered it.
        </p>
      </div>
      <div>
        <Button type="submit" disabled={busy}>
          Open
        </Button>
      </div>
      {problem && <ProblemAlert error={problem} action="Choose the right files, then open them again." />}
    </form>
  );
}
