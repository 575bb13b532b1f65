import { describe, expect, it } from 'vitest';
import { createUrlRewriter } from './rewrite-urls';

const rewriter = createUrlRewriter([
  { from: 'https://api-v2.mindee.net/v2', to: '/api/v2' },
  { from: 'https://api.mindee.net/v1/', to: '/api/v1' },
  { from: 'http://127.0.0.1:8790/prefix/v2', to: '/api/v2' },
]);

describe('rewriteUrl', () => {
  it.each([
    ['https://api-v2.mindee.net/v2/jobs/1', '/api/v2/jobs/1'],
    ['https://api-v2.mindee.net/v2/jobs/1?redirect=false#x', '/api/v2/jobs/1?redirect=false#x'],
    ['https://api-v2.mindee.net/v2', '/api/v2'],
    ['HTTPS://API-V2.MINDEE.NET:443/v2/jobs/1', '/api/v2/jobs/1'],
    ['https://api.mindee.net/v1/documents/queue/J1', '/api/v1/documents/queue/J1'],
    ['http://127.0.0.1:8790/prefix/v2/jobs/1', '/api/v2/jobs/1'],
  ])('rewrites %s', (from, to) => {
    expect(rewriter.rewriteUrl(from)).toBe(to);
  });

  it.each([
    'https://feedbacks.mindee.net/v1/documents/D1/feedback', // another host of the same API
    'https://api-v2.mindee.net/v20/jobs/1', // not at a segment boundary
    'https://api-v2.mindee.net/v1/jobs/1', // the v2 host has no v1 base here
    'http://api-v2.mindee.net/v2/jobs/1', // another scheme is another origin
    'https://api-v2.mindee.net:8443/v2/jobs/1', // another port too
    'https://user:pw@api-v2.mindee.net/v2/jobs/1',
    'http://127.0.0.1:8790/v2/jobs/1', // outside the configured path prefix
    'see https://api-v2.mindee.net/v2/jobs/1',
    '/v2/jobs/1',
    'not a url',
    'https://',
  ])('leaves %s alone', (value) => {
    expect(rewriter.rewriteUrl(value)).toBe(value);
  });

  it('rewrites nothing without rules', () => {
    expect(createUrlRewriter([]).rewriteUrl('https://api-v2.mindee.net/v2/jobs/1')).toBe(
      'https://api-v2.mindee.net/v2/jobs/1',
    );
  });

  it('refuses a base that is not http(s)', () => {
    expect(() => createUrlRewriter([{ from: 'ftp://x/v2', to: '/api/v2' }])).toThrow(/http/);
  });
});

describe('rewriteJsonText', () => {
  it('rewrites v2 job URLs', () => {
    const text = JSON.stringify({
      job: {
        polling_url: 'https://api-v2.mindee.net/v2/jobs/1',
        result_url: 'https://api-v2.mindee.net/v2/products/extraction/results/1',
        webhooks: [],
      },
    });
    expect(JSON.parse(rewriter.rewriteJsonText(text))).toEqual({
      job: {
        polling_url: '/api/v2/jobs/1',
        result_url: '/api/v2/products/extraction/results/1',
        webhooks: [],
      },
    });
  });

  it('rewrites nested v1 api_request.url and job.polling_url', () => {
    const text = `{
      "api_request": { "error": {}, "resources": ["job"], "status": "success", "status_code": 202,
                       "url": "https://api.mindee.net/v1/products/mindee/invoices/v4/predict_async" },
      "job": { "id": "J1", "polling_url": "https://api.mindee.net/v1/documents/queue/J1" }
    }`;
    const out = rewriter.rewriteJsonText(text);
    expect(JSON.parse(out)).toMatchObject({
      api_request: { url: '/api/v1/products/mindee/invoices/v4/predict_async' },
      job: { polling_url: '/api/v1/documents/queue/J1' },
    });
    // Only the string tokens change: the layout around them is kept.
    expect(out).toContain('"status_code": 202,\n');
  });

  it('handles escaped slashes and unicode escapes in the upstream JSON', () => {
    const text = '{"u":"https:\\/\\/api-v2.mindee.net\\/v2\\/jobs\\/1","n":"caf\\u00e9"}';
    expect(rewriter.rewriteJsonText(text)).toBe('{"u":"/api/v2/jobs/1","n":"caf\\u00e9"}');
  });

  it('does not rewrite object keys', () => {
    const text = '{"https://api-v2.mindee.net/v2/a" : "https://api-v2.mindee.net/v2/b"}';
    expect(rewriter.rewriteJsonText(text)).toBe('{"https://api-v2.mindee.net/v2/a" : "/api/v2/b"}');
  });

  it('keeps numbers exactly as written', () => {
    const text = '{"big":12345678901234567890,"f":1.0,"u":"https://api-v2.mindee.net/v2/x"}';
    expect(rewriter.rewriteJsonText(text)).toBe('{"big":12345678901234567890,"f":1.0,"u":"/api/v2/x"}');
  });

  it('returns the same text when there is nothing to rewrite, or it is not JSON', () => {
    const text = '{"a":"https://example.com/v2/x","b":[1,2,{"c":null}]}';
    expect(rewriter.rewriteJsonText(text)).toBe(text);
    const broken = '{"a":"https://api-v2.mindee.net/v2/x"';
    expect(rewriter.rewriteJsonText(broken)).toBe(broken);
  });

  it('rewrites a top-level string and handles strings containing quotes and backslashes', () => {
    expect(rewriter.rewriteJsonText('"https://api-v2.mindee.net/v2/x"')).toBe('"/api/v2/x"');
    const text = '{"q":"a \\"quoted\\" \\\\ value","u":"https://api-v2.mindee.net/v2/x?q=\\"1\\""}';
    expect(JSON.parse(rewriter.rewriteJsonText(text))).toEqual({
      q: 'a "quoted" \\ value',
      u: '/api/v2/x?q=%221%22',
    });
  });

  it('copes with a multi-megabyte string value', () => {
    const raw = 'x'.repeat(5 * 1024 * 1024);
    const text = JSON.stringify({ raw_text: raw, result_url: 'https://api-v2.mindee.net/v2/r/1' });
    const out = JSON.parse(rewriter.rewriteJsonText(text)) as { raw_text: string; result_url: string };
    expect(out.result_url).toBe('/api/v2/r/1');
    expect(out.raw_text.length).toBe(raw.length);
  });
});

describe('rewriteLocation', () => {
  const upstreamRequest = 'https://api.mindee.net/v1/documents/queue/J1';

  it('rewrites an absolute Location under a base', () => {
    expect(
      rewriter.rewriteLocation('https://api-v2.mindee.net/v2/products/extraction/results/1', upstreamRequest),
    ).toBe('/api/v2/products/extraction/results/1');
  });

  it('resolves a relative Location against the upstream request first', () => {
    expect(rewriter.rewriteLocation('/v1/products/mindee/invoices/v4/documents/D1', upstreamRequest)).toBe(
      '/api/v1/products/mindee/invoices/v4/documents/D1',
    );
    expect(rewriter.rewriteLocation('J2', upstreamRequest)).toBe('/api/v1/documents/queue/J2');
  });

  it('keeps a Location elsewhere absolute', () => {
    expect(rewriter.rewriteLocation('https://elsewhere.example/x', upstreamRequest)).toBe(
      'https://elsewhere.example/x',
    );
    expect(rewriter.rewriteLocation('/status', upstreamRequest)).toBe('https://api.mindee.net/status');
  });
});
