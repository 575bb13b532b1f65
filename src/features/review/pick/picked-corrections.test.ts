/**
 * A value picked on the page carries its region through the corrections: the reducer keeps it, the
 * review tree shows it instead of the extracted one, the server's corrections round-trip it, and the
 * corrected result (exports, the way back) has the new polygon. A value confirmed though not on the
 * page is kept too, and forgotten when the value changes or is reverted.
 */
import { describe, expect, it } from 'vitest';
import type { FieldMap } from '@extraction-review/contract/v2/schemas';
import { correctedFields } from '@extraction-review/review-domain/corrections/corrected-fields';
import {
  correctionsReducer,
  initialCorrections,
} from '@extraction-review/review-domain/fields/corrections-reducer';
import { buildReviewTree, simpleNodes } from '@extraction-review/review-domain/fields/review-tree';
import {
  applyCorrections,
  changesToSend,
  draftFromServer,
  mergeEdits,
} from '@extraction-review/review-domain/queue/corrections-sync';
import { NO_EDITS } from '@extraction-review/review-domain/fields/review-tree';

const extracted = {
  page: 0,
  polygon: [
    [0.1, 0.1],
    [0.2, 0.1],
    [0.2, 0.12],
    [0.1, 0.12],
  ] as [number, number][],
};
const picked = {
  page: 1,
  polygon: [
    [0.6, 0.5],
    [0.7, 0.5],
    [0.7, 0.52],
    [0.6, 0.52],
  ] as [number, number][],
};
const fields: FieldMap = {
  total: { value: 12.5, confidence: 'Low', locations: [extracted] },
  supplier: { value: 'ACME', confidence: 'High', locations: [extracted] },
};
const loaded = correctionsReducer(initialCorrections, { type: 'loaded', draft: null });

describe('a value picked on the page', () => {
  const state = correctionsReducer(loaded, {
    type: 'set',
    path: 'total',
    value: 1234.5,
    original: 12.5,
    location: [picked],
  });

  it('replaces the extracted region in the review and in the corrected result', () => {
    const total = simpleNodes(buildReviewTree(fields, state)).find((n) => n.path === 'total');
    expect(total).toMatchObject({ value: 1234.5, picked: true, locations: [picked] });
    expect(correctedFields(buildReviewTree(fields, state)).total).toEqual({
      value: 1234.5,
      locations: [picked],
      confidence: 'Low',
    });
    expect(correctedFields(buildReviewTree(fields, state)).supplier).toMatchObject({
      locations: [extracted],
    });
  });

  it('goes to the server and comes back as it was', () => {
    const sent = changesToSend(NO_EDITS, state);
    expect(sent).toContainEqual({ path: '#locations', value: { total: [picked] } });
    const back = draftFromServer(Object.fromEntries(sent.map((c) => [c.path, c.value])));
    expect(back.locations).toEqual({ total: [picked] });
    expect(changesToSend(back, state)).toEqual([]);
    expect(correctedFields(buildReviewTree(fields, back)).total).toMatchObject({ locations: [picked] });
  });

  it('is dropped by a revert, with the value', () => {
    const reverted = correctionsReducer(state, { type: 'revert', path: 'total' });
    expect(simpleNodes(buildReviewTree(fields, reverted))[0]).toMatchObject({
      picked: false,
      locations: [extracted],
    });
    expect(changesToSend(state, reverted)).toContainEqual({ path: '#locations', value: {} });
  });

  it('merges region by region', () => {
    const theirs = applyCorrections(NO_EDITS, [{ path: '#locations', value: { supplier: [picked] } }]);
    expect(mergeEdits(NO_EDITS, state, theirs, 'mine').locations).toEqual({
      total: [picked],
      supplier: [picked],
    });
  });
});

describe('a value confirmed though not on the page', () => {
  const confirmed = correctionsReducer(loaded, {
    type: 'confirm',
    path: 'supplier',
    notOnPage: { value: 'ACNE' },
  });

  it('is kept, sent and described by its value', () => {
    expect(simpleNodes(buildReviewTree(fields, confirmed))[1]).toMatchObject({
      reviewed: true,
      confirmedNotOnPage: 'ACNE',
    });
    expect(changesToSend(NO_EDITS, confirmed)).toContainEqual({
      path: '#not-on-page',
      value: { supplier: 'ACNE' },
    });
  });

  it('is forgotten when the value changes', () => {
    const changed = correctionsReducer(confirmed, {
      type: 'set',
      path: 'supplier',
      value: 'ACME Ltd',
      original: 'ACME',
    });
    expect(simpleNodes(buildReviewTree(fields, changed))[1]?.confirmedNotOnPage).toBeUndefined();
  });
});
