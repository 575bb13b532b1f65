/**
 * The seam between "a stored file" and "words with positions": a PDF's text layer (pdf.js), OCR
 * (tesseract.js) for pictures and for PDF pages without text. Everything downstream (lines, raw text,
 * field finding) only ever sees a `DocumentText`. docs/reference-documents.md says how each type is read.
 */
import type { Box } from './geometry';

export interface Word {
  text: string;
  /** Normalised to the upright page, origin top-left (see geometry.ts). */
  box: Box;
  /**
   * How sure the reader is of the text, 0..1: 1 for a PDF text layer, the OCR engine's word
   * confidence otherwise. Field confidence is derived from it.
   */
  confidence: number;
}

export interface PageText {
  /** 0-based, as the API's `FieldLocation.page`. */
  index: number;
  /** The upright page's size in its own units (points for PDFs, pixels for images): only the ratio matters. */
  width: number;
  height: number;
  /** Possibly none: a blank page, or a picture without text. */
  words: Word[];
  /** Where the words come from: the PDF's text layer, or OCR of the page as displayed. */
  source?: 'text-layer' | 'ocr';
}

export interface DocumentText {
  pageCount: number;
  pages: PageText[];
}

export interface StoredFile {
  path: string;
  /** Detected from the bytes at upload time (see sniff-mime-type.ts, inspect-document.ts). */
  mimeType: string;
}

export interface Extractor {
  /** Whether this extractor reads files of this detected type. */
  accepts(mimeType: string): boolean;
  /**
   * Throws a `ProblemError` when the file cannot be read (broken, encrypted, unsupported). Stops early,
   * throwing the signal's reason, once `signal` is aborted (the job timed out).
   */
  extract(file: StoredFile, signal?: AbortSignal): Promise<DocumentText>;
  /** Loads heavy dependencies ahead of the first job, so that job does not pay for them. */
  warmUp?(): Promise<void>;
  /** Releases what the extractor holds (threads); no call may follow. */
  close?(): Promise<void>;
}
