import { describe, expect, it } from 'vitest';
import {
  documentKeys,
  feedbackKeys,
  inferenceIdFromResultUrl,
  inferenceKeys,
  jobKeys,
  modelKeys,
  v1JobKeys,
  v1ProductKey,
} from './keys';

describe('key factories', () => {
  it('nest every key under its resource, so `all` reaches them', () => {
    expect(jobKeys.detail('J1')).toEqual(['v2', 'jobs', 'J1']);
    expect(jobKeys.detail('J1').slice(0, 2)).toEqual(jobKeys.all);
    expect(inferenceKeys.detail('I1')).toEqual(['v2', 'inferences', 'I1']);
    expect(modelKeys.search({ name: 'inv' })).toEqual(['v2', 'models', 'search', { name: 'inv' }]);
    expect(modelKeys.search()).toEqual(modelKeys.search({}));
    expect(feedbackKeys.detail('D1')).toEqual(['v1', 'feedback', 'D1']);
  });

  it('key a result by inference id, whichever URL form reached it', () => {
    const id = '12345678-1234-1234-1234-123456789abc';
    for (const url of [
      `/api/v2/products/extraction/results/${id}`,
      `/api/v2/products/extraction/results/${id}?x=1`,
      `/api/v2/inferences/${id}/`,
      `https://api-v2.mindee.net/v2/inferences/${id}#top`,
    ]) {
      expect(inferenceIdFromResultUrl(url)).toBe(id);
      expect(inferenceKeys.forResultUrl(url)).toEqual(inferenceKeys.detail(id));
    }
    expect(inferenceIdFromResultUrl('')).toBe('');
  });

  it('write a v1 product one way, `4` or `"v4"`', () => {
    expect(v1ProductKey({ account: 'mindee', name: 'invoices', version: 4 })).toBe('mindee/invoices/v4');
    expect(v1JobKeys.detail({ account: 'mindee', name: 'invoices', version: 'v4' }, 'J1')).toEqual(
      v1JobKeys.detail({ account: 'mindee', name: 'invoices', version: '4' }, 'J1'),
    );
    expect(documentKeys.detail({ account: 'acme', name: 'po', version: 1 }, 'D1')).toEqual([
      'v1',
      'documents',
      'acme/po/v1',
      'D1',
    ]);
  });
});
