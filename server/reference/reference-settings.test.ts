/** The REFERENCE_* settings: read and checked by readEnv, mapped to the service options. */
import { describe, expect, it } from 'vitest';
import { readEnv } from '../config';
import { referenceOptionsFromEnv } from './create-reference-service';

describe('reference settings', () => {
  it('leaves everything to the service defaults when unset or empty', () => {
    const options = referenceOptionsFromEnv(
      readEnv({ REFERENCE_CONCURRENCY: '', REFERENCE_TRUST_PROXY: '', REFERENCE_URL_ALLOW_HOSTS: ' ' }),
    );
    expect(options).toMatchObject({
      concurrency: undefined,
      processingTimeoutMs: undefined,
      maxFileBytes: undefined,
      trustProxy: [],
      rateLimits: { postPerWindow: undefined, getPerWindow: undefined, windowMs: undefined },
      urlInput: { timeoutMs: undefined, allowHosts: [], caFile: undefined },
    });
  });

  it('reads every setting', () => {
    const options = referenceOptionsFromEnv(
      readEnv({
        REFERENCE_CONCURRENCY: '3',
        REFERENCE_PROCESSING_TIMEOUT_MS: '1000',
        REFERENCE_MAX_FILE_BYTES: '2048',
        REFERENCE_RATE_LIMIT_POST_PER_MINUTE: '0',
        REFERENCE_RATE_LIMIT_GET_PER_MINUTE: '50',
        REFERENCE_RATE_LIMIT_WINDOW_MS: '2000',
        REFERENCE_TRUST_PROXY: 'loopback, 10.0.0.0/8,fd00::1',
        REFERENCE_URL_TIMEOUT_MS: '5000',
        REFERENCE_URL_ALLOW_HOSTS: '127.0.0.1,localhost',
        REFERENCE_URL_CA_FILE: '/tmp/ca.pem',
      }),
    );
    expect(options).toMatchObject({
      concurrency: 3,
      processingTimeoutMs: 1000,
      maxFileBytes: 2048,
      trustProxy: ['loopback', '10.0.0.0/8', 'fd00::1'],
      rateLimits: { postPerWindow: 0, getPerWindow: 50, windowMs: 2000 },
      urlInput: { timeoutMs: 5000, allowHosts: ['127.0.0.1', 'localhost'], caFile: '/tmp/ca.pem' },
    });
  });

  it('refuses values that make no sense, naming each', () => {
    expect(() =>
      readEnv({
        REFERENCE_CONCURRENCY: '0',
        REFERENCE_PROCESSING_TIMEOUT_MS: 'soon',
        REFERENCE_RATE_LIMIT_GET_PER_MINUTE: '-1',
        REFERENCE_RATE_LIMIT_WINDOW_MS: '0',
        REFERENCE_TRUST_PROXY: 'everyone',
      }),
    ).toThrow(
      /REFERENCE_CONCURRENCY[\s\S]*REFERENCE_PROCESSING_TIMEOUT_MS[\s\S]*REFERENCE_RATE_LIMIT_GET_PER_MINUTE[\s\S]*REFERENCE_RATE_LIMIT_WINDOW_MS[\s\S]*REFERENCE_TRUST_PROXY/,
    );
    expect(() => readEnv({ REFERENCE_TRUST_PROXY: '10.0.0.0/33' })).toThrow(/REFERENCE_TRUST_PROXY/);
  });
});
