/**
 * Retrieval: the validated document of the same model whose text is most like the new document's,
 * or none when no document is similar enough.
 *
 * Similarity is the cosine of the two documents' term SETS (document-terms.ts), each term weighted by
 * its inverse document frequency over the model's N validated documents, smoothed so that it is never
 * below 1 (ln((1 + N) / (1 + df)) + 1; 1 for a term none of them has):
 * - sets, not counts: a word repeated down a table of line items would otherwise outweigh the header,
 *   the labels and the footer, which are what a template keeps from one document to the next;
 * - IDF: once a model holds documents of several suppliers, the labels they all share ("Invoice",
 *   "Total") weigh less than what tells them apart (a name, an address, bank details). With one stored
 *   document every term weighs the same: a plain token-set cosine.
 *
 * The threshold, 0.5 by default, was set on the layouts of rag/retrieval.test.ts: identical text
 * scores 1; invoices of one template with other numbers, customer and line items 0.66–0.70 (a table of
 * 15 rows included); another supplier's invoice with the same generic labels 0.31; a letter 0.08.
 * Known limits: a long table of line items made of words the validated document does not have lowers
 * the score (about 45 such words bring a 36-term template to 0.5), and two short documents that share
 * little more than their labels can pass.
 */
import type { Terms } from './document-terms';

export const DEFAULT_SIMILARITY_THRESHOLD = 0.5;

export interface RetrievalCandidate {
  id: string;
  terms: Terms;
  /** ISO 8601; the most recent wins a tie. */
  createdAt: string;
}

export interface RetrievalMatch {
  id: string;
  /** Cosine similarity, 0..1. */
  score: number;
}

export function findSimilarDocument(
  query: Terms,
  candidates: readonly RetrievalCandidate[],
  threshold = DEFAULT_SIMILARITY_THRESHOLD,
): RetrievalMatch | null {
  if (candidates.length === 0) return null;
  const documentFrequency = new Map<string, number>();
  for (const candidate of candidates) {
    for (const term of Object.keys(candidate.terms)) {
      documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
    }
  }
  const n = candidates.length;
  // A term no stored document has says nothing about which one is closest: it takes the lowest weight
  // (that of a term they all have), so a new document's own words (its customer, its line items) lower
  // the similarity no more than in a plain token-set cosine.
  const idf = (term: string): number => {
    const df = documentFrequency.get(term);
    return df === undefined ? 1 : Math.log((1 + n) / (1 + df)) + 1;
  };
  const vector = (terms: Terms): Map<string, number> =>
    new Map(Object.keys(terms).map((term) => [term, idf(term)]));

  const q = vector(query);
  const qNorm = norm(q);
  if (qNorm === 0) return null;
  let best: (RetrievalMatch & { createdAt: string }) | null = null;
  for (const candidate of candidates) {
    const d = vector(candidate.terms);
    const dNorm = norm(d);
    if (dNorm === 0) continue;
    let dot = 0;
    for (const [term, weight] of q) dot += weight * (d.get(term) ?? 0);
    // Rounded so that identical texts score exactly 1 despite floating-point sums.
    const score = Math.min(1, Math.round((dot / (qNorm * dNorm)) * 1e9) / 1e9);
    if (!best || score > best.score || (score === best.score && candidate.createdAt > best.createdAt)) {
      best = { id: candidate.id, score, createdAt: candidate.createdAt };
    }
  }
  return best && best.score >= threshold ? { id: best.id, score: best.score } : null;
}

function norm(vector: Map<string, number>): number {
  let sum = 0;
  for (const weight of vector.values()) sum += weight * weight;
  return Math.sqrt(sum);
}
