/**
 * A v1 document restated as a v2 extraction result, so that the review (values list, viewer, exports),
 * which speaks v2, shows it unchanged. Pure: no I/O, and it never throws on the document's content (a shape
 * it does not know is kept as well as it can be, or left out, never a crash of the review).
 *
 * Fields, from the document-level `prediction` (it carries `page_id` on every field; the page-level
 * predictions repeat it page by page, without page ids, custom/response_v1/complete.json):
 * - `{ value, confidence, polygon, page_id }` → a simple field. `raw_value`, `raw` and `is_computed` describe
 *   that value (its printed form, whether it was computed) and are left out: the value is what is reviewed,
 *   and v1 feedback takes `{ value }` alone (V1FeedbackValue).
 * - the same with other keys (locale `language`/`currency`/`country`, address `city`/`postal_code` ...,
 *   invoices/response_v4/complete.json) → an object field: `value` first, then each key as a sub-field.
 * - an array (line items, taxes, registrations, receipts ...) → a list field; an item with keys besides
 *   `value` is an object of them (line item `description`, `quantity`, `unit_price` ...; tax `value`,
 *   `rate`, `base`, `code`), else a simple item. One object item makes every item an object (a v2 list
 *   never mixes kinds, API-FACTS).
 * - `{ values: [{ content, polygon, page_id }] }` (custom APIs) → a simple field: the words joined with
 *   spaces, one location per word.
 * - a field with neither a value nor keys of its own (a receipt's `bounding_box`, a cropper zone, a
 *   signature position) → a simple field with a null value and its location: the reviewer sees where it is.
 * Sub-fields take the confidence and the polygon of the field they belong to: v1 gives one per field.
 * Lists have no confidence of their own in v1, so none is made up (null).
 *
 * Locations: the field's `polygon` (else its `bounding_box`, `quadrangle`, `rectangle`, for zones) on page
 * `page_id`, turned upright with geometry.ts (`v1PolygonToUpright`, the page's orientation and the
 * inference's `is_rotation_applied`), the frame `pageRotations` shows the stored page in.
 */
import {
  V1Polygon,
  type V1Document,
  type V1Extras,
  type V1Inference,
  type V1Product,
} from '@extraction-review/contract/v1/schemas';
import type {
  ExtractionResponse,
  FieldConfidence,
  FieldLocation,
  FieldMap,
  FieldResult,
  ObjectFieldResult,
  Point,
  RawText,
  SimpleFieldResult,
  SimpleValue,
} from '@extraction-review/contract/v2/schemas';
import { v1PolygonToUpright, v1UprightRotation, type Rotation } from '../viewer/geometry';
import { ConfidenceThresholds, DEFAULT_CONFIDENCE_THRESHOLDS, v1ConfidenceLevel } from './v1-confidence';

export interface V1ToReviewOptions {
  /** Score bounds of the levels; checked with `ConfidenceThresholds` (a bad set is a caller's error and throws). */
  thresholds?: ConfidenceThresholds;
  /** The model id to show, when the caller knows better than the document (a synchronous result has no `product`). */
  modelId?: string;
  /** The v1 job, for an asynchronous result; else the document id stands in for it. */
  jobId?: string;
}

export interface V1Review {
  response: ExtractionResponse;
  /** Per page (0-based), the clockwise turn that shows its stored image upright: the locations' frame. */
  pageRotations: Rotation[];
}

export function v1DocumentToReview(document: V1Document, options: V1ToReviewOptions = {}): V1Review {
  const thresholds = ConfidenceThresholds.parse(options.thresholds ?? DEFAULT_CONFIDENCE_THRESHOLDS);
  const { inference } = document;
  // v2 wants at least one page; `n_pages` and the pages listed should agree, the larger is kept if not.
  const pageCount = Math.max(1, document.n_pages, inference.pages.length);
  const orientations = pageOrientations(inference, pageCount);
  const ctx: Context = {
    level: (score) => v1ConfidenceLevel(typeof score === 'number' ? score : null, thresholds),
    pageCount,
    orientations,
    isRotationApplied: inference.is_rotation_applied,
  };

  // fromEntries defines keys: a field named `__proto__` cannot reach the object's prototype.
  const fields: FieldMap = Object.fromEntries(
    predictionEntries(inference, pageCount).map(({ name, raw, page }) => [
      name,
      convert(raw, ctx, { page, confidence: null, locations: [] }),
    ]),
  );
  const rawText = rawTextOf(inference, pageCount);

  const response: ExtractionResponse = {
    inference: {
      id: document.id,
      job: { id: options.jobId ?? document.id },
      model: { id: options.modelId ?? modelIdOf(inference.product) },
      file: {
        name: document.name,
        alias: null,
        page_count: pageCount,
        mime_type: mimeTypeOf(document.name),
      },
      result: { fields, raw_text: rawText, rag: null },
      active_options: {
        raw_text: rawText !== null,
        // v1 always answers with polygons and confidence scores: nothing to switch on.
        polygon: true,
        confidence: true,
        rag: false,
        multipage_context: false,
        text_context: false,
        // No v2 data schema was replaced: the fields are the v1 product's own.
        data_schema: { replace: false },
      },
    },
  };
  return {
    response,
    pageRotations: orientations.map((o) => v1UprightRotation(o, inference.is_rotation_applied)),
  };
}

// ─── Document ────────────────────────────────────────────────────────────────────────────────────

interface Context {
  level: (score: unknown) => FieldConfidence | null;
  pageCount: number;
  /** Per page, its orientation when it is a quarter turn, else null (geometry.ts rejects other angles). */
  orientations: readonly (number | null)[];
  isRotationApplied: V1Inference['is_rotation_applied'];
}

/** What a field takes from the field it sits in when it does not say itself. */
interface Inherited {
  /** The page of a field without `page_id`; null or undefined: none known. */
  page: number | null | undefined;
  confidence: FieldConfidence | null;
  locations: FieldLocation[];
}

function pageOrientations(inference: V1Inference, pageCount: number): (number | null)[] {
  const orientations = Array.from({ length: pageCount }, (): number | null => null);
  for (const page of inference.pages) {
    const value = page.orientation.value;
    if (page.id >= pageCount) continue;
    // Anything but a quarter turn is unusable (geometry.ts throws on it): shown as stored, like null.
    if (value != null && Number.isInteger(value) && value % 90 === 0) orientations[page.id] = value;
  }
  return orientations;
}

interface Entry {
  name: string;
  raw: unknown;
  page: number | null | undefined;
}

/**
 * The fields: the document-level prediction; when it is empty and pages have predictions (cropper,
 * us_w9, mindee_vision in the corpus), the pages' own, each item marked with its page. A key found on
 * several pages becomes one list of what each page found, so nothing is dropped.
 */
function predictionEntries(inference: V1Inference, pageCount: number): Entry[] {
  const documentLevel = Object.entries(inference.prediction);
  if (documentLevel.length > 0) {
    // A one-page document's fields without `page_id` can only be on that page (financial_document/
    // response_v1/complete_invoice.json addresses, invoices/response_v3 registrations).
    const page = pageCount === 1 ? 0 : undefined;
    return documentLevel.map(([name, raw]) => ({ name, raw, page }));
  }
  const byName = new Map<string, unknown[]>();
  for (const page of inference.pages) {
    for (const [name, raw] of Object.entries(page.prediction)) {
      // The page's orientation restated (us_w9 `{ confidence, degrees }`): pageRotations shows it, not a value.
      if (name === 'orientation') continue;
      const found = byName.get(name) ?? [];
      found.push(withPage(raw, page.id));
      byName.set(name, found);
    }
  }
  return [...byName].map(([name, found]) => ({
    name,
    raw: found.length === 1 ? found[0] : found.flatMap((f) => (Array.isArray(f) ? f : [f])),
    page: undefined,
  }));
}

/** A page-level field (or list of them) with `page_id` set where it is missing. */
function withPage(raw: unknown, page: number): unknown {
  if (Array.isArray(raw)) return raw.map((item) => withPage(item, page));
  if (isRecord(raw) && raw.page_id === undefined) return { ...raw, page_id: page };
  return raw;
}

function modelIdOf(product: V1Product | undefined): string {
  if (!product) return 'v1';
  return product.version ? `${product.name}/v${product.version}` : product.name;
}

const MIME_TYPES: Readonly<Record<string, string>> = {
  pdf: 'application/pdf',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  heic: 'image/heic',
  heif: 'image/heif',
};

/** v1 does not report the file's type: read from the name (the viewer prefers the stored file's own). */
function mimeTypeOf(name: string): string {
  const extension = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase();
  return (extension && MIME_TYPES[extension]) ?? 'application/octet-stream';
}

/** The `full_text_ocr` extra, page by page; the document-level one as a single page when pages have none. */
function rawTextOf(inference: V1Inference, pageCount: number): RawText | null {
  const pages = Array.from({ length: pageCount }, (): string | null => null);
  for (const page of inference.pages) if (page.id < pageCount) pages[page.id] = fullText(page.extras);
  if (pages.some((p) => p !== null)) return { pages: pages.map((content) => ({ content: content ?? '' })) };
  const whole = fullText(inference.extras);
  return whole === null ? null : { pages: [{ content: whole }] };
}

function fullText(extras: V1Extras): string | null {
  return extras.full_text_ocr?.content ?? null;
}

// ─── Fields ──────────────────────────────────────────────────────────────────────────────────────

/** Keys that say how or where a value was read, not values of their own. */
const DESCRIPTIVE_KEYS: ReadonlySet<string> = new Set([
  'confidence',
  'page_id',
  'polygon',
  'bounding_box',
  'quadrangle',
  'rectangle',
  'values',
  'raw_value',
  'raw',
  'is_computed',
]);

/** Where a field's outline is: its own polygon first, the zones' boxes when it has none. */
const POLYGON_KEYS = ['polygon', 'bounding_box', 'quadrangle', 'rectangle'] as const;

function convert(raw: unknown, ctx: Context, parent: Inherited): FieldResult {
  if (Array.isArray(raw)) return convertList(raw, ctx, parent);
  if (isRecord(raw)) return convertRecord(raw, ctx, parent);
  // A plain key of a field (a locale's `currency`, a tax's `rate`): read with the field, so placed with it.
  return simple(raw, parent.confidence, parent.locations);
}

function convertRecord(field: Record<string, unknown>, ctx: Context, parent: Inherited): FieldResult {
  const page = pageOf(field, parent.page);
  const confidence = ctx.level(field.confidence);
  const own = locationsOf(field, page, ctx);

  if (Array.isArray(field.values)) {
    const words = field.values.filter(isRecord);
    const text = words
      .map((w) => w.content)
      .filter((c): c is string => typeof c === 'string' && c !== '')
      .join(' ');
    const located = words.flatMap((w) => locationsOf(w, pageOf(w, page), ctx));
    return simple(text === '' ? null : text, confidence, located.length > 0 ? located : own);
  }

  const keys = Object.keys(field).filter((k) => k !== 'value' && !DESCRIPTIVE_KEYS.has(k));
  if (keys.length === 0) return simple(field.value ?? null, confidence, own);

  const inherited: Inherited = { page, confidence, locations: own };
  const fields: FieldMap = Object.fromEntries([
    ...('value' in field ? [['value', simple(field.value, confidence, own)] as const] : []),
    ...keys.map((key) => [key, convert(field[key], ctx, inherited)] as const),
  ]);
  return { fields, confidence, locations: own };
}

function convertList(raw: readonly unknown[], ctx: Context, parent: Inherited): FieldResult {
  const items = raw.map((item) => convert(item, ctx, parent));
  const objects = items.some((item) => !('value' in item));
  return { items: objects ? items.map(asObject) : items, confidence: null };
}

/** An item of a list of objects that came as a simple value (or a list): wrapped under its own name. */
function asObject(field: FieldResult): ObjectFieldResult {
  if ('fields' in field) return field;
  if ('items' in field) return { fields: { items: field }, confidence: field.confidence, locations: [] };
  return { fields: { value: field }, confidence: field.confidence, locations: field.locations };
}

function simple(
  value: unknown,
  confidence: FieldConfidence | null,
  locations: FieldLocation[],
): SimpleFieldResult {
  return { value: toSimpleValue(value), confidence, locations };
}

/** Scalars as they are; anything else (not seen in the corpus) as its JSON text, still reviewable. */
function toSimpleValue(value: unknown): SimpleValue {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  return JSON.stringify(value) ?? null;
}

/** `page_id` when given; an explicit null means no page (no location); absent: the enclosing field's. */
function pageOf(
  field: Record<string, unknown>,
  inherited: number | null | undefined,
): number | null | undefined {
  const id = field.page_id;
  if (id === null) return null;
  return typeof id === 'number' && Number.isInteger(id) ? id : inherited;
}

// ─── Locations ───────────────────────────────────────────────────────────────────────────────────

/**
 * How far past the page edge a v1 point may lie and still be a page point (clamped to it): a detected
 * document outline reaches a little past it (us_driver_license/response_v1/complete.json `contour`,
 * -0.046..1.045). Beyond, the numbers are not normalised at all (idcard_fr/response_v1/complete.json
 * `mrz1` is in pixels, up to 713) and no location is given rather than one in the wrong place.
 */
const EDGE_TOLERANCE = 0.1;

function locationsOf(
  field: Record<string, unknown>,
  page: number | null | undefined,
  ctx: Context,
): FieldLocation[] {
  if (page == null || page < 0 || page >= ctx.pageCount) return [];
  for (const key of POLYGON_KEYS) {
    const parsed = V1Polygon.safeParse(field[key]);
    if (!parsed.success || parsed.data.length === 0) continue;
    const upright = v1PolygonToUpright(parsed.data, ctx.orientations[page], ctx.isRotationApplied);
    const polygon = onPage(upright);
    return polygon ? [{ page, polygon }] : [];
  }
  return [];
}

/** A polygon in the v2 page frame (≥ 3 points, 0..1), or null when the points are not page points. */
function onPage(polygon: readonly (readonly [number, number])[]): Point[] | null {
  if (polygon.length < 3) return null;
  const fits = (c: number) => Number.isFinite(c) && c >= -EDGE_TOLERANCE && c <= 1 + EDGE_TOLERANCE;
  if (!polygon.every(([x, y]) => fits(x) && fits(y))) return null;
  const clamp = (c: number) => Math.min(1, Math.max(0, c));
  return polygon.map(([x, y]): Point => [clamp(x), clamp(y)]);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
