import { lazy, Suspense, useMemo } from 'react';
import type { ExtractionResponse } from '../../api/v2/schemas';
import { Spinner } from '../../components/ui/spinner';
import { FieldList } from './fields/field-list';
import { flattenFields } from './fields/flatten-fields';
import { useCorrections } from './fields/use-corrections';
import { useViewerState } from './viewer-state';

// pdf.js is over a megabyte: it loads only when a document is opened.
const DocumentViewer = lazy(() => import('./viewer/document-viewer'));

interface Props {
  jobId: string;
  result: ExtractionResponse;
  /** The document as uploaded from this browser, or null when it is not stored here. */
  file: Blob | null;
}

/** The document with its polygons beside the list of values, linked both ways. */
export function ReviewView({ jobId, result, file }: Props) {
  const { inference } = result;
  const leaves = useMemo(() => flattenFields(inference.result.fields), [inference.result.fields]);
  const [viewer, dispatch] = useViewerState();
  const { corrections, setCorrection } = useCorrections(jobId, leaves);
  // The page and the list are linked both ways through the same four props.
  const link = {
    hovered: viewer.hovered,
    selected: viewer.selected,
    onFieldHover: (path: string | null) => dispatch({ type: 'hover', path }),
    onFieldSelect: (path: string | null) => dispatch({ type: 'select', path }),
  };

  return (
    <div className="grid min-h-0 flex-1 grid-cols-1 gap-4 lg:grid-cols-[minmax(0,1fr)_24rem]">
      <section aria-label="Document" className="min-w-0 overflow-auto rounded-md bg-slate-200 p-4">
        {file ? (
          <Suspense fallback={<Spinner label="Loading the viewer…" />}>
            <DocumentViewer file={file} leaves={leaves} {...link} />
          </Suspense>
        ) : (
          <p className="p-4 text-sm text-slate-700">
            This browser does not hold the document of this job (it was uploaded elsewhere, or the browser's
            storage was cleared), so only the values are shown.
          </p>
        )}
      </section>
      <aside aria-label="Extracted values" className="flex min-h-0 flex-col gap-3 overflow-auto">
        <header className="text-sm text-slate-700">
          <p className="font-medium">{inference.file.name}</p>
          <p>
            {inference.file.page_count} page{inference.file.page_count === 1 ? '' : 's'} ·{' '}
            {inference.file.mime_type} · {leaves.length} value{leaves.length === 1 ? '' : 's'}
          </p>
        </header>
        <FieldList leaves={leaves} corrections={corrections} onFieldChange={setCorrection} {...link} />
      </aside>
    </div>
  );
}
