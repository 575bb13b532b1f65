import { useEffect, useId, useRef, useState } from 'react';

interface Props {
  label: string;
  /** The committed value (the URL's). */
  value: string;
  /** Called once typing has paused for `delayMs`. */
  onCommit: (value: string) => void;
  hint?: string;
  type?: 'text' | 'search';
  placeholder?: string;
  delayMs?: number;
  className?: string;
}

export const DEBOUNCE_MS = 300;

/**
 * A labelled text input that commits its value after a pause in typing, so the URL and the query
 * change once per thought, not once per key. A change of `value` from outside (back button, "Clear")
 * replaces what is typed.
 */
export function DebouncedTextInput({
  label,
  value,
  onCommit,
  hint,
  type = 'text',
  placeholder,
  delayMs = DEBOUNCE_MS,
  className = '',
}: Props) {
  const id = useId();
  const [draft, setDraft] = useState(value);
  const [seen, setSeen] = useState(value);
  // Adjusting state to a new prop during render (react.dev, "You might not need an effect").
  if (value !== seen) {
    setSeen(value);
    setDraft(value);
  }

  // The latest callback, so a re-render (the queue refetching) does not restart the pause.
  const commit = useRef(onCommit);
  useEffect(() => {
    commit.current = onCommit;
  });
  useEffect(() => {
    if (draft === value) return;
    const timer = setTimeout(() => commit.current(draft), delayMs);
    return () => clearTimeout(timer);
  }, [draft, value, delayMs]);

  return (
    <div className={`flex flex-col gap-1 ${className}`}>
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <input
        id={id}
        type={type}
        value={draft}
        placeholder={placeholder}
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') onCommit(draft);
        }}
        aria-describedby={hint ? `${id}-hint` : undefined}
        spellCheck={false}
        className="rounded-md border border-slate-300 px-3 py-1.5 text-sm"
      />
      {hint && (
        <p id={`${id}-hint`} className="text-xs text-slate-600">
          {hint}
        </p>
      )}
    </div>
  );
}
