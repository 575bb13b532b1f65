import { useId, useState, type DragEvent } from 'react';

interface Props {
  file: File | null;
  onFile: (file: File) => void;
  accept: string;
}

/** A file picker that also takes a file dropped on it. */
export function DropZone({ file, onFile, accept }: Props) {
  const inputId = useId();
  const [over, setOver] = useState(false);

  function onDrop(event: DragEvent<HTMLLabelElement>) {
    event.preventDefault();
    setOver(false);
    const dropped = event.dataTransfer.files[0];
    if (dropped) onFile(dropped);
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
      className={`flex cursor-pointer flex-col items-center justify-center gap-2 rounded-lg border-2 border-dashed p-10 text-center ${
        over ? 'border-blue-700 bg-blue-50' : 'border-slate-300 bg-white hover:border-slate-400'
      }`}
    >
      <span className="text-sm font-medium">{file ? file.name : 'Drop a PDF here, or choose one'}</span>
      <span className="text-xs text-slate-600">
        {file ? `${(file.size / 1024).toFixed(1)} KB` : 'PDF with a text layer'}
      </span>
      <input
        id={inputId}
        type="file"
        accept={accept}
        aria-label="Document"
        className="sr-only"
        onChange={(e) => {
          const chosen = e.target.files?.[0];
          if (chosen) onFile(chosen);
        }}
      />
    </label>
  );
}
