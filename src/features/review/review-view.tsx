import {
  lazy,
  Suspense,
  useEffect,
  useMemo,
  useRef,
  useState,
  type CSSProperties,
  type ReactNode,
} from 'react';
import type { ExtractionResponse } from '@extraction-review/contract/v2/schemas';
import { Spinner } from '../../components/ui/spinner';
import { CorrectionsBar } from './corrections/corrections-bar';
import { FeedbackPanel } from './feedback/feedback-panel';
import type { Edits } from '@extraction-review/review-domain/fields/review-tree';
import { FieldTitlesContext, useTitleLookup } from './field-titles';
import { ShortcutsDialog } from './keyboard/shortcuts-dialog';
import { ReviewPanels, type ReviewTab } from './panels/review-panels';
import type { TabSpec } from './panels/review-tabs';
import { SplitHandle } from './layout/split-handle';
import { useFillViewport, useMediaQuery } from './layout/use-fill-viewport';
import { readValuesWidth, writeValuesWidth } from './layout/values-width';
import { useFieldActions } from './use-field-actions';
import { useFieldFocus } from './use-field-focus';
import { useFieldFromUrl, useFieldUrlSync } from './use-field-url';
import { useReviewKeys } from './use-review-keys';
import { isForReview, isStillToReview, useReviewModel } from './use-review-model';
import { RuleMarksContext, NO_MARKS, type RuleMarks } from './rule-failures/rule-marks';
import { useReviewSelection } from './use-review-selection';
import { useScrollToSelected } from './use-scroll-to-selected';
import { useValuesAfterPage } from './use-values-after-page';
import { PickContext, type PageWordsSource } from './pick/pick-context';
import { useTextLayerFirst } from './pick/text-layer-first';
import { usePick } from './pick/use-pick';
import { ValuesPanel } from './values-panel';
import { useViewerState, viewerActions } from './viewer-state';
import type { Rotation } from '@extraction-review/review-domain/viewer/geometry';
import { documentViewerForLazy } from './viewer/preload';
import { turnLeaves, usePhotoTurns } from './viewer/photo-turns';

// pdf.js is over a megabyte: it loads only when a document is opened (without suspending once
// preloaded, preload.ts).
const DocumentViewer = lazy(documentViewerForLazy);

interface Props {
  jobId: string;
  result: ExtractionResponse;
  /** The document as kept in this browser, or null when it is not (uploaded elsewhere, sent by URL). */
  document: { file: Blob; filename: string; mimeType: string | null; size: number | null } | null;
  /**
   * Said above the tabs (the result shown is the draft's copy, the save status, a conflict): keep it
   * to a line or two, the values keep the height.
   */
  notice?: ReactNode;
  /** Tabs the page adds after the values (a queued document's history). */
  tabs?: readonly TabSpec<ReviewTab>[] | undefined;
  /** Beside the tabs, one short line: whether the corrections are saved. */
  status?: ReactNode;
  /** At the panel's foot, always in view: the decisions on a queued document. */
  footer?: ReactNode;
  /** A saved result opened from files: the review makes no request (no model schema, no RAG). */
  offline?: boolean | undefined;
  /** v1 pages stored turned: the clockwise turn that shows each upright (polygons are upright). */
  pageTurns?: readonly Rotation[] | undefined;
  /** A v1 prediction: its document and product, to send feedback for (instead of "Send to RAG"). */
  v1Feedback?: { documentId: string; product: string } | undefined;
  /** The IndexedDB draft's key, when not the job id (the team queue's `review:<document id>`). */
  draftKey?: string | undefined;
  /** Corrections to start from instead of the stored draft, which is then not read (read at mount; followed when read-only). */
  initialCorrections?: Edits | undefined;
  /** Told the corrections once loaded, then at every change. */
  onCorrectionsChange?: ((edits: Edits) => void) | undefined;
  /** Values shown, not editable: the editors are disabled and the corrections bar is left out. */
  readOnly?: boolean | undefined;
  /** Said in place of the page when `document` is null, instead of the message about this browser. */
  documentMissing?: ReactNode;
  /** The document is on its way (`documentMissing` says so meanwhile): the values wait for its page. */
  documentLoading?: boolean | undefined;
  /** The business rules failing, by field: each field shows why (a queue review). */
  ruleMarks?: RuleMarks | undefined;
  /** Where the pages' words come from, for picking values on the page and checking typed ones. */
  pageWords?: PageWordsSource | undefined;
}

/** The document with its polygons beside the values, linked both ways; panels; corrections; keys. */
export function ReviewView({
  jobId,
  result,
  document: stored,
  notice,
  offline = false,
  pageTurns,
  v1Feedback,
  draftKey,
  initialCorrections,
  onCorrectionsChange,
  readOnly = false,
  documentMissing,
  documentLoading = false,
  ruleMarks = NO_MARKS,
  pageWords,
  tabs: pageTabs = [],
  status,
  footer,
}: Props) {
  const { inference } = result;
  const model = useReviewModel(jobId, result, {
    offline,
    draftKey,
    initial: initialCorrections,
    onChange: onCorrectionsChange,
    readOnly,
  });
  const [viewer, dispatchViewer] = useViewerState({ selected: useFieldFromUrl() ?? undefined });
  const [filter, setFilter] = useState(false);
  const [tab, setTab] = useState<ReviewTab>('values');
  const [helpOpen, setHelpOpen] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const valuesRoot = useRef<HTMLDivElement>(null);
  const layout = useRef<HTMLDivElement>(null);
  // Side by side (xl, as the grid's classes): the review reaches the window's foot, no further.
  const sideBySide = useMediaQuery('(min-width: 80rem)');
  const height = useFillViewport(layout, sideBySide);
  const [valuesWidth, setValuesWidth] = useState(readValuesWidth);
  useEffect(() => writeValuesWidth(valuesWidth), [valuesWidth]);
  const focusField = useFieldFocus(valuesRoot);

  const { highlight, select } = useReviewSelection(viewer, dispatchViewer, model.leaves);
  const filtered = useMemo(() => (filter ? model.values.filter(isForReview) : null), [filter, model.values]);
  // Details lists each value's title with what it belongs to, beside its API path.
  // Every other place that names a field (polygons, rule marks, a conflict, the history) reads the same.
  const titleOf = useTitleLookup(model.nodes);
  const titled = useMemo(
    () => model.values.map((n) => ({ path: n.path, title: titleOf(n.path) })),
    [titleOf, model.values],
  );
  const navFields = useMemo(
    () => (filtered ?? model.values).map((n) => ({ path: n.path, toReview: isStillToReview(n) })),
    [filtered, model.values],
  );
  const selectAndFocus = (path: string, target: 'row' | 'editor') => {
    setTab('values');
    select(path);
    focusField(path, target);
  };

  const selectedNode = useMemo(
    () => (readOnly ? null : (model.values.find((n) => n.path === viewer.selected) ?? null)),
    [readOnly, model.values, viewer.selected],
  );
  // A PDF's text layer is read here; the source given serves scanned pages and pictures (OCR).
  const words = useTextLayerFirst(stored, pageWords);
  // A v2 photo taken sideways is shown upright as its text says (v1 pages come with their turns).
  const photoTurns = usePhotoTurns(stored, pageTurns ? null : (pageWords ?? null), inference.file.page_count);
  const turns = pageTurns ?? photoTurns;
  const shownLeaves = useMemo(() => turnLeaves(model.leaves, photoTurns), [model.leaves, photoTurns]);
  const pick = usePick({
    source: stored ? words : null,
    pageTurns: turns,
    storedTurns: photoTurns,
    node: selectedNode,
    page: viewer.page,
    rotation: viewer.rotation,
    correct: model.correct,
    onAnnounce: setAnnouncement,
    titleOf,
  });

  useFieldUrlSync(viewer.selected, select);
  // Page 1 first: the values are drawn once it is (use-values-after-page.ts).
  const valuesWait = useValuesAfterPage(stored != null || documentLoading);
  // Scrolled to once the values are there.
  useScrollToSelected(valuesRoot, valuesWait.waiting ? null : viewer.selected);
  useReviewKeys({
    fields: navFields,
    selected: viewer.selected,
    onSelect: selectAndFocus,
    dispatchViewer,
    onHelp: () => setHelpOpen(true),
    onPick: pick.available && !readOnly ? pick.toggle : undefined,
    onAnnounce: setAnnouncement,
    enabled: !helpOpen,
  });

  const actions = useFieldActions({ dispatchViewer, correct: model.correct, select, focusField });

  const schemaNote = model.schema.isError
    ? "The model's data schema could not be read: classification values are edited as text."
    : inference.active_options.data_schema.replace
      ? 'This extraction replaced the data schema: editors follow the values as returned.'
      : null;

  const values = (
    <RuleMarksContext value={ruleMarks}>
      <ValuesPanel
        rootRef={valuesRoot}
        nodes={model.nodes}
        filtered={filtered}
        onFilterChange={setFilter}
        forReview={model.values.filter(isForReview).length}
        stillToReview={navFields.filter((f) => f.toReview).length}
        total={model.values.length}
        actions={actions}
        highlight={highlight}
        schemaNote={schemaNote}
        onHelp={() => setHelpOpen(true)}
      />
    </RuleMarksContext>
  );

  return (
    <FieldTitlesContext value={titleOf}>
      <PickContext value={pick.context}>
        <div
          ref={layout}
          style={{ height, '--values-width': `${String(valuesWidth)}%` } as CSSProperties}
          className="grid min-h-0 flex-1 grid-cols-1 gap-4 xl:flex-none xl:grid-cols-[minmax(0,1fr)_auto_minmax(24rem,var(--values-width))] xl:grid-rows-[minmax(0,1fr)] xl:gap-1"
        >
          <section
            aria-label="Document"
            className="relative min-h-[24rem] min-w-0 overflow-hidden rounded-md bg-slate-200 xl:min-h-0"
          >
            {stored ? (
              <Suspense fallback={<Spinner label="Loading the viewer…" />}>
                <DocumentViewer
                  file={stored.file}
                  mimeType={stored.mimeType ?? inference.file.mime_type}
                  leaves={shownLeaves}
                  state={viewer}
                  dispatch={dispatchViewer}
                  pageCount={inference.file.page_count}
                  pageTurns={turns}
                  onPageDrawn={valuesWait.onPageDrawn}
                />
                {pick.available && !readOnly && (
                  <button
                    type="button"
                    aria-pressed={pick.on}
                    disabled={selectedNode === null}
                    title={
                      selectedNode
                        ? `Pick ${titleOf(selectedNode.path)} from the page (p)`
                        : 'Select a value first'
                    }
                    onClick={() => pick.toggle()}
                    className="absolute right-3 bottom-3 z-30 rounded-md border border-blue-800 bg-white px-3 py-1.5 text-sm font-medium text-blue-900 shadow hover:bg-blue-50 disabled:border-slate-400 disabled:text-slate-500 aria-pressed:bg-blue-800 aria-pressed:text-white"
                  >
                    {pick.on ? 'Picking… (Esc to stop)' : 'Pick from page'}
                  </button>
                )}
              </Suspense>
            ) : (
              <p className="p-4 text-sm text-slate-800">
                {documentMissing ??
                  "This browser does not hold the document of this job (it was uploaded elsewhere, sent by URL, or the browser's storage was cleared), so only the values are shown."}
              </p>
            )}
          </section>
          <SplitHandle value={valuesWidth} onChange={setValuesWidth} containerRef={layout} />
          {/* The tabs' panel is the one region that scrolls: what is above it is kept to a line or
            two, the decisions and corrections sit at the foot, always in view. */}
          <aside aria-label="Review" className="flex min-h-0 min-w-0 flex-col gap-2">
            {notice}
            {model.storageError != null && (
              <p
                role="alert"
                className="rounded border border-amber-600 bg-amber-50 p-2 text-sm text-slate-900"
              >
                Your corrections cannot be saved in this browser (its storage refused them), so a reload would
                lose them. Export them as JSON before leaving.
              </p>
            )}
            <ReviewPanels
              tab={tab}
              onTab={setTab}
              extra={pageTabs}
              fields={titled}
              status={status}
              result={result}
              modelName={model.schema.data?.name ?? null}
              stored={stored}
              onGoToPage={(page) => dispatchViewer(viewerActions.goToPage(page))}
              values={
                valuesWait.waiting ? (
                  <Spinner label="Loading the values…" />
                ) : readOnly ? (
                  <fieldset disabled className="contents">
                    {values}
                  </fieldset>
                ) : (
                  values
                )
              }
            />
            {(footer != null || !readOnly) && (
              // The decision bar is drawn by its own module as a boxed section: at the foot it is one
              // compact row, without the box (Ctrl+Enter is said on a wide window, and in the
              // shortcuts' dialog and the button's aria-keyshortcuts always).
              <div className="sticky bottom-0 z-10 flex shrink-0 flex-col gap-1 border-t border-slate-300 bg-white pt-2 pb-1 xl:static xl:bg-transparent xl:pb-0 [&>section]:border-0 [&>section]:p-0 [&>section_button]:px-2.5 [&>section_button]:py-1 [&>section_kbd]:hidden min-[90rem]:[&>section_kbd]:inline">
                {footer}
                {!readOnly && (
                  <CorrectionsBar
                    nodes={model.nodes}
                    changes={model.changes}
                    documentName={stored?.filename ?? inference.file.name}
                    inferenceId={inference.id}
                    modelId={inference.model.id}
                    offline={offline}
                    v1={v1Feedback !== undefined}
                    ragOnConfirm={footer != null}
                    onRevertAll={() => model.correct({ type: 'revertAll' })}
                  />
                )}
                {/* v1: feedback for the service, folded to one line under the corrections; unfolded,
                  it scrolls within a bounded height rather than push the values out. */}
                {v1Feedback && !readOnly && (
                  <div className="max-h-[40vh] overflow-y-auto">
                    <FeedbackPanel
                      nodes={model.nodes}
                      documentId={v1Feedback.documentId}
                      product={v1Feedback.product}
                    />
                  </div>
                )}
              </div>
            )}
          </aside>
          <p role="status" className="sr-only">
            {announcement}
          </p>
          <ShortcutsDialog open={helpOpen} onClose={() => setHelpOpen(false)} />
        </div>
      </PickContext>
    </FieldTitlesContext>
  );
}
