import { useId, useRef } from 'react';
import { Button } from '../../components/ui/button';
import type { DataSchemaCheck } from './data-schema-check';

export interface SchemaTemplate {
  label: string;
  text: string;
}

interface Props {
  value: string;
  onChange: (text: string) => void;
  /** The check of `value` (checkDataSchemaEditor), run on every change. */
  check: DataSchemaCheck;
  /** What the operator can start again from: the model's own schema, the invoice template. */
  templates: readonly SchemaTemplate[];
}

const LINE_HEIGHT_PX = 20;

/**
 * A JSON editor for `data_schema`: a plain textarea with a line-number gutter, checked as you type with
 * the request's own schema. Every problem names its line, column and path; choosing it puts the caret
 * there. No editor library: the text is small, and a textarea is accessible as it is.
 */
export function DataSchemaEditor({ value, onChange, check, templates }: Props) {
  const editorId = useId();
  const statusId = useId();
  const issuesId = useId();
  const textarea = useRef<HTMLTextAreaElement>(null);
  const gutter = useRef<HTMLDivElement>(null);
  const lineCount = value.split('\n').length;
  const badLines = new Set(check.ok ? [] : check.issues.map((issue) => issue.line));

  function goTo(offset: number, line: number) {
    const el = textarea.current;
    if (!el) return;
    el.focus();
    el.setSelectionRange(offset, offset);
    el.scrollTop = Math.max(0, (line - 3) * LINE_HEIGHT_PX);
  }

  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center gap-2">
        <label htmlFor={editorId} className="text-sm font-medium">
          Data schema (JSON)
        </label>
        <span className="flex-1" />
        {templates.map((template) => (
          <Button
            key={template.label}
            variant="secondary"
            className="px-2 py-1 text-xs"
            onClick={() => onChange(template.text)}
          >
            Start from {template.label}
          </Button>
        ))}
      </div>
      <div className="flex overflow-hidden rounded-md border border-slate-300 bg-white focus-within:outline-2 focus-within:outline-blue-700">
        <div
          ref={gutter}
          aria-hidden="true"
          className="overflow-hidden bg-slate-100 py-2 text-right font-mono text-xs text-slate-600 select-none"
          style={{ lineHeight: `${LINE_HEIGHT_PX}px`, height: `${16 * LINE_HEIGHT_PX + 16}px` }}
        >
          {Array.from({ length: lineCount }, (_, i) => (
            <div
              key={i}
              data-line={i + 1}
              data-invalid={badLines.has(i + 1) || undefined}
              className="px-2 data-invalid:bg-red-200 data-invalid:font-bold data-invalid:text-red-900"
            >
              {i + 1}
            </div>
          ))}
        </div>
        <textarea
          id={editorId}
          ref={textarea}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          onScroll={(e) => {
            if (gutter.current) gutter.current.scrollTop = e.currentTarget.scrollTop;
          }}
          wrap="off"
          spellCheck={false}
          autoCapitalize="off"
          autoComplete="off"
          aria-invalid={!check.ok}
          aria-describedby={`${statusId} ${issuesId}`}
          className="min-w-0 flex-1 resize-none bg-white p-2 font-mono text-xs outline-none"
          style={{ lineHeight: `${LINE_HEIGHT_PX}px`, height: `${16 * LINE_HEIGHT_PX + 16}px` }}
        />
      </div>
      <p
        id={statusId}
        aria-live="polite"
        className={`text-xs ${check.ok ? 'text-green-800' : 'text-red-800'}`}
      >
        {check.ok
          ? `Valid: ${check.fieldCount} field${check.fieldCount === 1 ? '' : 's'} will replace the model’s.${check.hint ? ` ${check.hint}` : ''}`
          : `${check.issues.length} problem${check.issues.length === 1 ? '' : 's'}: nothing is sent until ${check.issues.length === 1 ? 'it is' : 'they are'} fixed.`}
      </p>
      <ul id={issuesId} className="flex flex-col gap-1" aria-label="Data schema problems">
        {!check.ok &&
          check.issues.map((issue, i) => (
            <li key={i}>
              <button
                type="button"
                onClick={() => goTo(issue.offset, issue.line)}
                className="w-full rounded bg-red-50 px-2 py-1 text-left text-xs text-red-950 hover:bg-red-100 focus-visible:outline-2 focus-visible:outline-blue-700"
              >
                <span className="font-semibold">
                  Line {issue.line}, column {issue.column}
                </span>
                {issue.path !== '(root)' && <code className="ml-1 font-mono">{issue.path}</code>}:{' '}
                {issue.message}
              </button>
            </li>
          ))}
      </ul>
    </div>
  );
}
