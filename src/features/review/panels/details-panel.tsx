import type { ExtractionInference } from '@extraction-review/contract/v2/schemas';

interface Props {
  inference: ExtractionInference;
  /** The model's name, when the app knows it. */
  modelName: string | null;
  /** The document as kept in this browser, when it is. */
  stored: { filename: string; size: number | null; mimeType: string | null } | null;
  /** Each value's title as shown, with its path in the API (what exports and rules name). */
  fields?: readonly { path: string; title: string }[] | undefined;
}

const onOff = (on: boolean) => (on ? 'on' : 'off');

/** What was asked (the active options), what RAG found, and the file. */
export function DetailsPanel({ inference, modelName, stored, fields = [] }: Props) {
  const options = inference.active_options;
  const rag = inference.result.rag;
  return (
    <div className="flex flex-col gap-4 text-sm text-slate-900">
      <section aria-labelledby="review-rag">
        <h2 id="review-rag" className="font-semibold">
          RAG
        </h2>
        <p className="mt-1">
          {!options.rag
            ? 'Off: no validated document was looked for.'
            : rag?.retrieved_document_id
              ? 'A similar validated document was found and used: '
              : 'On, but no similar document was found: the values come from this document alone.'}
          {options.rag && rag?.retrieved_document_id && (
            <code className="font-mono text-xs break-all">{rag.retrieved_document_id}</code>
          )}
        </p>
      </section>
      <section aria-labelledby="review-options">
        <h2 id="review-options" className="font-semibold">
          Active options
        </h2>
        <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-4 gap-y-0.5">
          <Item term="raw_text" value={onOff(options.raw_text)} />
          <Item term="polygon" value={onOff(options.polygon)} />
          <Item term="confidence" value={onOff(options.confidence)} />
          <Item term="rag" value={onOff(options.rag)} />
          <Item term="multipage_context" value={onOff(options.multipage_context)} />
          <Item term="text_context" value={onOff(options.text_context)} />
          <Item term="data_schema" value={options.data_schema.replace ? 'replaced' : "the model's own"} />
        </dl>
      </section>
      <section aria-labelledby="review-file">
        <h2 id="review-file" className="font-semibold">
          File
        </h2>
        <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-4 gap-y-0.5 break-all">
          <Item term="Name" value={inference.file.name} />
          {inference.file.alias && <Item term="Alias" value={inference.file.alias} />}
          <Item term="Pages" value={String(inference.file.page_count)} />
          <Item term="Type" value={inference.file.mime_type} />
          {stored?.size != null && <Item term="Size" value={formatBytes(stored.size)} />}
          <Item term="In this browser" value={stored ? 'yes' : 'no (only the values can be reviewed)'} />
          <Item
            term="Model"
            value={modelName ? `${modelName} (${inference.model.id})` : inference.model.id}
          />
          <Item term="Inference" value={inference.id} />
          <Item term="Job" value={inference.job.id} />
        </dl>
      </section>
      {fields.length > 0 && (
        <section aria-labelledby="review-fields">
          <h2 id="review-fields" className="font-semibold">
            Fields
          </h2>
          <p className="mt-1 text-xs text-slate-700">
            Each value as titled in the list, and its path in the API (exports and rules use the path).
          </p>
          <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-4 gap-y-0.5 break-all">
            {fields.map((field) => (
              <Item key={field.path} term={field.path} value={field.title} />
            ))}
          </dl>
        </section>
      )}
    </div>
  );
}

function Item({ term, value }: { term: string; value: string }) {
  return (
    <>
      <dt className="font-mono text-xs leading-5 text-slate-700">{term}</dt>
      <dd>{value}</dd>
    </>
  );
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
