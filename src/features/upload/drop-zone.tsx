import { useEffect, useId, useState, type DragEvent } from 'react';
import { ACCEPT_ATTRIBUTE } from '../../lib/sniff-file';

interface Props {
  onFiles: (files: File[]) => void;
  disabled?: boolean;
}

/**
 * Takes documents three ways: dropped on it, chosen with the picker, or pasted from the clipboard
 * anywhere on the page (a screenshot, files copied in a file manager). What they are is decided later,
 * from their bytes (check-document.ts), so nothing is refused here.
 */
export function DropZone({ onFiles, disabled = false }: Props) {
  const inputId = useId();
  const hintId = useId();
  const [over, setOver] = useState(false);

  useEffect(() => {
    if (disabled) return;
    const onPaste = (event: ClipboardEvent) => {
      const files = [...(event.clipboardData?.files ?? [])];
      if (files.length === 0) return; // text: let it reach the field it was pasted into
      event.preventDefault();
      onFiles(files);
    };
    document.addEventListener('paste', onPaste);
    return () => document.removeEventListener('paste', onPaste);
  }, [disabled, onFiles]);

  function onDrop(event: DragEvent<HTMLLabelElement>) {
    event.preventDefault();
    setOver(false);
    const files = [...event.dataTransfer.files];
    if (files.length > 0 && !disabled) onFiles(files);
  }

  return (
    <label
      htmlFor={inputId}
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
      data-drag-over={over}
      className={`flex cursor-pointer flex-col items-center justify-center gap-1 rounded-lg border-2 border-dashed p-8 text-center focus-within:outline-2 focus-within:outline-offset-2 focus-within:outline-blue-700 ${
        over ? 'border-blue-700 bg-blue-50' : 'border-slate-300 bg-white hover:border-slate-400'
      }`}
    >
      <span className="text-sm font-medium">Drop files here, paste them, or choose them</span>
      <span id={hintId} className="text-xs text-slate-600">
        PDF, JPEG, PNG, WebP or TIFF, up to 100 MB each; several at once.
      </span>
      <input
        id={inputId}
        type="file"
        multiple
        accept={ACCEPT_ATTRIBUTE}
        aria-label="Document"
        aria-describedby={hintId}
        disabled={disabled}
        className="sr-only"
        onChange={(e) => {
          const files = [...(e.target.files ?? [])];
          // Cleared so that choosing the same file again is a change too.
          e.target.value = '';
          if (files.length > 0) onFiles(files);
        }}
      />
    </label>
  );
}
