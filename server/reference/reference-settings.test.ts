/**
 * The reference service's own settings (reference-settings.ts): read and checked without the app's,
 * mapped to the service options; the app server reads the same variables for the service it embeds.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { referenceOptionsFromSettings } from './create-reference-service';
import { DEFAULT_MODELS_FILE, readReferenceSettings } from './reference-settings';

describe('reference settings', () => {
  it('leaves everything to the service defaults when unset or empty', () => {
    const options = referenceOptionsFromSettings(
      readReferenceSettings({
        REFERENCE_CONCURRENCY: '',
        REFERENCE_TRUST_PROXY: '',
        REFERENCE_URL_ALLOW_HOSTS: ' ',
      }),
    );
    expect(options).toMatchObject({
      host: '127.0.0.1',
      port: 8790,
      modelsFile: DEFAULT_MODELS_FILE,
      concurrency: undefined,
      processingTimeoutMs: undefined,
      maxFileBytes: undefined,
      trustProxy: [],
      tls: undefined,
      rateLimits: { postPerWindow: undefined, getPerWindow: undefined, windowMs: undefined },
      urlInput: { timeoutMs: undefined, allowHosts: [], caFile: undefined },
    });
  });

  it('keeps its data under the working directory (embedded, server/main.ts puts it under the repository)', () => {
    expect(readReferenceSettings({}).REFERENCE_DATA_DIR).toBe(path.resolve('data', 'reference'));
  });

  it('reads every setting', () => {
    const options = referenceOptionsFromSettings(
      readReferenceSettings({
        REFERENCE_HOST: '0.0.0.0',
        REFERENCE_PORT: '0',
        REFERENCE_DATA_DIR: '/tmp/reference-data',
        REFERENCE_CONCURRENCY: '3',
        REFERENCE_PROCESSING_TIMEOUT_MS: '1000',
        REFERENCE_MAX_FILE_BYTES: '2048',
        REFERENCE_MAX_CONNECTIONS: '10',
        DOCUMENT_MAX_PAGES: '7',
        REFERENCE_RATE_LIMIT_POST_PER_MINUTE: '0',
        REFERENCE_RATE_LIMIT_GET_PER_MINUTE: '50',
        REFERENCE_RATE_LIMIT_WINDOW_MS: '2000',
        REFERENCE_TRUST_PROXY: 'loopback, 10.0.0.0/8,fd00::1',
        REFERENCE_ALLOWED_HOSTS: 'reference.internal',
        REFERENCE_URL_TIMEOUT_MS: '5000',
        REFERENCE_URL_ALLOW_HOSTS: '127.0.0.1,localhost',
        REFERENCE_URL_CA_FILE: '/tmp/ca.pem',
      }),
    );
    expect(options).toMatchObject({
      host: '0.0.0.0',
      port: 0,
      dataDir: '/tmp/reference-data',
      concurrency: 3,
      processingTimeoutMs: 1000,
      maxFileBytes: 2048,
      connectionLimits: { maxConnections: 10 },
      documentLimits: { maxPages: 7 },
      trustProxy: ['loopback', '10.0.0.0/8', 'fd00::1'],
      allowedHosts: ['reference.internal'],
      rateLimits: { postPerWindow: 0, getPerWindow: 50, windowMs: 2000 },
      urlInput: { timeoutMs: 5000, allowHosts: ['127.0.0.1', 'localhost'], caFile: '/tmp/ca.pem' },
    });
  });

  it('refuses values that make no sense, naming each', () => {
    const wrong = {
      REFERENCE_CONCURRENCY: '0',
      REFERENCE_PROCESSING_TIMEOUT_MS: 'soon',
      REFERENCE_RATE_LIMIT_GET_PER_MINUTE: '-1',
      REFERENCE_RATE_LIMIT_WINDOW_MS: '0',
      REFERENCE_TRUST_PROXY: 'everyone',
    };
    const named =
      /REFERENCE_CONCURRENCY[\s\S]*REFERENCE_PROCESSING_TIMEOUT_MS[\s\S]*REFERENCE_RATE_LIMIT_GET_PER_MINUTE[\s\S]*REFERENCE_RATE_LIMIT_WINDOW_MS[\s\S]*REFERENCE_TRUST_PROXY/;
    expect(() => readReferenceSettings(wrong)).toThrow(/^Invalid reference service settings:\n/);
    expect(() => readReferenceSettings(wrong)).toThrow(named);
    expect(() => readReferenceSettings({ REFERENCE_TRUST_PROXY: '10.0.0.0/33' })).toThrow(
      /REFERENCE_TRUST_PROXY/,
    );
    expect(() => readReferenceSettings({ REFERENCE_PUBLIC_URL: 'ftp://x.example' })).toThrow(
      /REFERENCE_PUBLIC_URL/,
    );
    expect(() => readReferenceSettings({ REFERENCE_TLS_CERT_FILE: '/tmp/cert.pem' })).toThrow(
      /REFERENCE_TLS_KEY_FILE: set both REFERENCE_TLS_CERT_FILE and REFERENCE_TLS_KEY_FILE, or neither/,
    );
  });
});
