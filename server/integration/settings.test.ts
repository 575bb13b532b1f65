/** The app server's settings read and checked by readEnv: webhooks, v1 thresholds, hosts. */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { DEFAULT_MAX_UPLOAD_BYTES } from '@extraction-review/app-server/proxy/create-proxy';
import { EnvSchema, readEnv, repoRoot } from '@extraction-review/app-server/settings/config';
import {
  readReferenceSettings,
  ReferenceSettingsShape,
} from '@extraction-review/reference/reference-settings';

const ID_A = '0d3c2b1a-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const ID_B = '1e4d3c2b-5f6a-4b7c-9d8e-0f1a2b3c4d5e';

describe('webhook settings', () => {
  it('are off when unset or empty', () => {
    for (const env of [{}, { WEBHOOK_V2_SECRET: ' ', WEBHOOK_V2_IDS: '' }]) {
      const read = readEnv(env);
      expect(read.WEBHOOK_V2_SECRET).toBeUndefined();
      expect(read.WEBHOOK_V2_IDS).toEqual([]);
    }
  });

  it('read the secret and a comma-separated list of ids', () => {
    expect(readEnv({ WEBHOOK_V2_SECRET: 'whsec_1', WEBHOOK_V2_IDS: ` ${ID_A}, ${ID_B},` })).toMatchObject({
      WEBHOOK_V2_SECRET: 'whsec_1',
      WEBHOOK_V2_IDS: [ID_A, ID_B],
    });
    // A secret alone: events on, no id to preselect (the webhook may be set up on the upstream otherwise).
    expect(readEnv({ WEBHOOK_V2_SECRET: 'whsec_1' }).WEBHOOK_V2_IDS).toEqual([]);
  });

  it('refuse ids that are not UUIDs, and ids without the secret that verifies their calls', () => {
    expect(() => readEnv({ WEBHOOK_V2_SECRET: 's', WEBHOOK_V2_IDS: 'review-app' })).toThrow(/WEBHOOK_V2_IDS/);
    expect(() => readEnv({ WEBHOOK_V2_IDS: ID_A })).toThrow(/WEBHOOK_V2_SECRET.*WEBHOOK_V2_IDS is set/s);
  });
});

describe('metrics settings', () => {
  it('are off when unset or empty, and read a token and a port of their own', () => {
    expect(readEnv({ METRICS_TOKEN: ' ', METRICS_PORT: '' })).toMatchObject({
      METRICS_TOKEN: undefined,
      METRICS_PORT: undefined,
    });
    expect(readEnv({ METRICS_TOKEN: 'a'.repeat(32), METRICS_PORT: '9464' })).toMatchObject({
      METRICS_TOKEN: 'a'.repeat(32),
      METRICS_PORT: 9464,
    });
  });

  it("refuse a short token, a port out of range, and the app's own port", () => {
    expect(() => readEnv({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN.*16 characters/s);
    for (const port of ['0', '70000', 'nine', '94.5']) {
      expect(() => readEnv({ METRICS_PORT: port })).toThrow(/METRICS_PORT/);
    }
    expect(() => readEnv({ PORT: '9464', METRICS_PORT: '9464' })).toThrow(/METRICS_PORT is the same as PORT/);
  });
});

describe('v1 confidence thresholds', () => {
  it("are the app's defaults (null) when unset or empty", () => {
    expect(readEnv({}).V1_CONFIDENCE_THRESHOLDS).toBeNull();
    expect(readEnv({ V1_CONFIDENCE_THRESHOLDS: ' ' }).V1_CONFIDENCE_THRESHOLDS).toBeNull();
  });

  it('read three scores, highest first', () => {
    expect(readEnv({ V1_CONFIDENCE_THRESHOLDS: '0.9, 0.75,0.5' }).V1_CONFIDENCE_THRESHOLDS).toEqual({
      certain: 0.9,
      high: 0.75,
      medium: 0.5,
    });
  });

  it('refuse anything else, saying what is expected', () => {
    for (const value of ['0.5,0.75,0.9', '0.9,0.8', '0.9,0.8,0.7,0.6', '1.5,0.8,0.5', 'high,medium,low'])
      expect(() => readEnv({ V1_CONFIDENCE_THRESHOLDS: value }), value).toThrow(
        /V1_CONFIDENCE_THRESHOLDS: expected three scores in 0..1/,
      );
  });
});

describe('host settings', () => {
  it('are empty by default', () => {
    expect(readEnv({}).PUBLIC_URL).toBeUndefined();
    expect(readEnv({})).toMatchObject({
      TRUST_PROXY: [],
      ALLOWED_HOSTS: [],
    });
    expect(readReferenceSettings({}).REFERENCE_ALLOWED_HOSTS).toEqual([]);
  });

  it('read hosts, proxies and the public URL', () => {
    expect(
      readEnv({
        PUBLIC_URL: 'https://review.example.com',
        TRUST_PROXY: 'loopback, 10.0.0.0/8',
        ALLOWED_HOSTS: 'review.internal, box.lan:8443, .corp.example, [fd00::1], *',
      }),
    ).toMatchObject({
      PUBLIC_URL: 'https://review.example.com',
      TRUST_PROXY: ['loopback', '10.0.0.0/8'],
      ALLOWED_HOSTS: ['review.internal', 'box.lan:8443', '.corp.example', '[fd00::1]', '*'],
    });
    expect(
      readReferenceSettings({ REFERENCE_ALLOWED_HOSTS: 'reference.internal' }).REFERENCE_ALLOWED_HOSTS,
    ).toEqual(['reference.internal']);
  });

  it('refuse what they cannot use, saying which entry', () => {
    expect(() => readEnv({ ALLOWED_HOSTS: 'review.internal, https://x.example/' })).toThrow(
      /ALLOWED_HOSTS: "https:\/\/x.example\/" is not a host/,
    );
    expect(() => readReferenceSettings({ REFERENCE_ALLOWED_HOSTS: 'a b' })).toThrow(
      /REFERENCE_ALLOWED_HOSTS/,
    );
    expect(() => readEnv({ TRUST_PROXY: 'proxy.example' })).toThrow(/TRUST_PROXY/);
    expect(() => readEnv({ PUBLIC_URL: 'ftp://x.example' })).toThrow(/PUBLIC_URL/);
  });
});

describe('review store settings', () => {
  it('default to the embedded store in data/app, a 10-minute lease and no single sign-on', () => {
    const env = readEnv({});
    expect(env.APP_DATA_DIR).toMatch(/data[\\/]app$/);
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.REVIEW_LEASE_MS).toBeUndefined();
    expect(env.SSO_HEADER).toBeUndefined();
  });

  it('read PostgreSQL, the lease and single sign-on behind trusted proxies', () => {
    expect(
      readEnv({
        DATABASE_URL: 'postgresql://review:secret@db.internal:5432/review',
        REVIEW_LEASE_MS: '300000',
        SSO_HEADER: 'X-Forwarded-Email',
        SSO_TRUSTED_PROXIES: '10.0.0.2',
      }),
    ).toMatchObject({
      DATABASE_URL: 'postgresql://review:secret@db.internal:5432/review',
      REVIEW_LEASE_MS: 300000,
      SSO_HEADER: 'X-Forwarded-Email',
      SSO_TRUSTED_PROXIES: ['10.0.0.2'],
    });
  });

  it('refuse another database, a header believed from anybody, and a lease under a second', () => {
    expect(() => readEnv({ DATABASE_URL: 'mysql://x/y' })).toThrow(/DATABASE_URL: expected a postgres:\/\//);
    expect(() => readEnv({ SSO_HEADER: 'X-Forwarded-Email' })).toThrow(/SSO_TRUSTED_PROXIES/);
    expect(() => readEnv({ SSO_HEADER: 'X Forwarded', SSO_TRUSTED_PROXIES: 'loopback' })).toThrow(
      /SSO_HEADER/,
    );
    expect(() => readEnv({ REVIEW_LEASE_MS: '10' })).toThrow(/REVIEW_LEASE_MS/);
  });
});

describe('OpenID Connect sign-in settings', () => {
  it('read the provider, its button, auto-creation and the role claim', () => {
    expect(readEnv({}).PASSWORD_SIGNIN).toBe(true);
    expect(
      readEnv({
        OIDC_ISSUER: 'https://login.example.com/oauth2/default',
        OIDC_CLIENT_ID: 'review',
        OIDC_CLIENT_SECRET: 's3cret',
        OIDC_NAME: 'Okta',
        OIDC_AUTO_CREATE: 'true',
        OIDC_ROLE_CLAIM: 'groups',
        OIDC_ADMIN_VALUES: 'review-admins, it-admins',
        PASSWORD_SIGNIN: 'false',
      }),
    ).toMatchObject({
      OIDC_NAME: 'Okta',
      OIDC_AUTO_CREATE: true,
      OIDC_ADMIN_VALUES: ['review-admins', 'it-admins'],
      PASSWORD_SIGNIN: false,
    });
  });

  it('refuse a provider without its client, a role claim without admin values, and no way to sign in', () => {
    expect(() => readEnv({ OIDC_ISSUER: 'https://login.example.com' })).toThrow(/OIDC_CLIENT_ID/);
    expect(() => readEnv({ OIDC_ISSUER: 'not a url', OIDC_CLIENT_ID: 'a', OIDC_CLIENT_SECRET: 'b' })).toThrow(
      /OIDC_ISSUER/,
    );
    expect(() => readEnv({ OIDC_ROLE_CLAIM: 'groups' })).toThrow(/OIDC_ADMIN_VALUES/);
    expect(() => readEnv({ PASSWORD_SIGNIN: 'false' })).toThrow(/nobody could sign in/);
  });
});

describe('every setting is documented', () => {
  // DEV is set by `npm run dev` itself, never by a person.
  const internal = new Set(['DEV']);
  const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
  const example = readFileSync(path.join(repoRoot, '.env.example'), 'utf8');
  // `npm start`'s settings: the app server's and the embedded reference service's.
  const names = [
    ...new Set([...Object.keys(EnvSchema.shape), ...Object.keys(ReferenceSettingsShape)]),
  ].filter((name) => !internal.has(name));

  it.each(names)('%s in the README table and .env.example', (name) => {
    // A family documented as one row: `REFERENCE_RATE_LIMIT_*`.
    const parts = name.split('_');
    const wildcard = parts.some((_, i) => i > 0 && readme.includes(`\`${parts.slice(0, i).join('_')}_*\``));
    expect(readme.includes(`\`${name}\``) || wildcard).toBe(true);
    expect(example).toMatch(new RegExp(`^(?:# )?${name}=`, 'm'));
  });
  // The reference service's own settings in its own guide too.
  const guide = readFileSync(path.join(repoRoot, 'docs', 'reference-service.md'), 'utf8');
  it.each(Object.keys(ReferenceSettingsShape))(
    '%s in the reference service guide and .env.example',
    (name) => {
      expect(guide).toContain(`\`${name}\``);
      expect(example).toMatch(new RegExp(`^(?:# )?${name}=`, 'm'));
    },
  );
});

describe("the deployment example's environment file (deploy/extraction-review.env)", () => {
  const example = parseEnv(readFileSync(path.join(repoRoot, 'deploy', 'extraction-review.env'), 'utf8'));

  it('sets only settings the app server reads, with values it accepts', () => {
    const known = new Set(Object.keys(EnvSchema.shape));
    expect(Object.keys(example).filter((name) => !known.has(name))).toEqual([]);
    expect(readEnv(example)).toMatchObject({ TRUST_PROXY: ['loopback'], MIGRATE_ON_START: false });
  });

  it('leaves to the systemd unit what differs per copy (EnvironmentFile= would override it)', () => {
    expect(Object.keys(example)).not.toContain('PORT');
    expect(Object.keys(example)).not.toContain('APP_DATA_DIR');
  });
});

describe("the deployment example's nginx site (deploy/nginx/extraction-review.conf)", () => {
  it("lets through an upload up to the app's own limit, and a little more, so that the app's 413 answers", () => {
    const site = readFileSync(path.join(repoRoot, 'deploy', 'nginx', 'extraction-review.conf'), 'utf8');
    const megabytes = Number(/^\s*client_max_body_size (\d+)m;$/m.exec(site)?.[1]);
    const bytes = megabytes * 1024 * 1024; // nginx's `m` is MiB
    expect(bytes).toBeGreaterThanOrEqual(DEFAULT_MAX_UPLOAD_BYTES);
    expect(bytes - DEFAULT_MAX_UPLOAD_BYTES).toBeLessThan(2 * 1024 * 1024);
  });
});
