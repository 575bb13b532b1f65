/**
 * Configuration, from the environment only, validated once at start-up. The names are the same in
 * every entry point (README and .env.example list them).
 */
import path from 'node:path';
import { z } from 'zod';
import { ConfidenceThresholds } from '@extraction-review/contract/app-events';
import { DocumentLimitsSettings } from '@extraction-review/document-text/document-limits';
import {
  allowedHostList,
  flag,
  list,
  LogSettings,
  optionalInt,
  optionalString,
  optionalUrl,
  parseSettings,
  port,
  trustProxyList,
} from '@extraction-review/server-kit/settings-schema';
import { isUuid } from '@extraction-review/contract/common-schemas';

export const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..');

export const EnvSchema = z.object({
  HOST: z.string().default('127.0.0.1'),
  PORT: port.default(8080),
  /**
   * The address operators and pipelines reach the app server at, when it is not its own host and port
   * (behind a reverse proxy, a load balancer, a tunnel): its host is answered to, and its origin is
   * the app's own.
   */
  PUBLIC_URL: optionalUrl,
  /** Peers whose X-Forwarded-* / Forwarded headers are believed: `loopback`, addresses, CIDR ranges. */
  TRUST_PROXY: trustProxyList,
  /** Other hosts the app server answers to (DNS-rebinding defence): `name[:port]`, `.domain`, `*`. */
  ALLOWED_HOSTS: allowedHostList,
  UPSTREAM_V2_URL: optionalUrl,
  UPSTREAM_V2_API_KEY: optionalString,
  UPSTREAM_V1_URL: optionalUrl,
  UPSTREAM_V1_API_KEY: optionalString,
  /** How long an upstream may take to start answering once the request body is sent, in ms. */
  UPSTREAM_TIMEOUT_MS: z.coerce.number().int().positive().default(60_000),
  /**
   * What the page words may read of one document (over them a `422-012`). The embedded reference
   * service's own settings (REFERENCE_*, these too) are read by server/main.ts, which starts it.
   */
  ...DocumentLimitsSettings,
  /**
   * The signing secret of the v2 upstream's webhook that points at this app server's /hooks/v2. Unset:
   * the receiver is off (with the embedded reference service, one is made at each start instead).
   */
  WEBHOOK_V2_SECRET: optionalString,
  /** That webhook's ids on the upstream (one per model on the hosted platform), for `webhook_ids`. */
  WEBHOOK_V2_IDS: list.refine((ids) => ids.every((id) => isUuid(id)), {
    message: 'expected a comma-separated list of webhook ids (UUIDs)',
  }),
  /**
   * How the review grades a v1 numeric confidence: the lowest score of Certain, High and Medium,
   * comma-separated (`0.95,0.8,0.55`); below the last is Low. Empty: the app's defaults.
   */
  V1_CONFIDENCE_THRESHOLDS: optionalString.pipe(
    z
      .string()
      .optional()
      .transform((text, ctx) => {
        if (text === undefined) return null;
        const [certain, high, medium, ...rest] = text.split(',').map((part) => Number(part.trim()));
        const checked = ConfidenceThresholds.safeParse({ certain, high, medium });
        if (rest.length > 0 || !checked.success) {
          ctx.addIssue({
            code: 'custom',
            message: `expected three scores in 0..1, highest first, e.g. 0.95,0.8,0.55 (${
              checked.success ? 'too many' : (checked.error.issues[0]?.message ?? 'invalid')
            })`,
          });
          return z.NEVER;
        }
        return checked.data;
      }),
  ),
  /** The review store's embedded database and the kept files. */
  APP_DATA_DIR: z.string().default(path.join(repoRoot, 'data', 'app')),
  /** PostgreSQL for the review store (a team, several app-server copies); unset: embedded SQLite. */
  DATABASE_URL: optionalString.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, { error: 'expected a postgres:// (or postgresql://) URL' })
      .optional(),
  ),
  /** PostgreSQL connections one app-server copy holds at most. */
  DATABASE_POOL_SIZE: optionalInt(1),
  /**
   * How long one database statement may run (PostgreSQL's `statement_timeout`, pg's `query_timeout`;
   * SQLite's wait for the write lock, at most 5 s): past it the request answers `503-001`.
   */
  DATABASE_STATEMENT_TIMEOUT_MS: optionalInt(100),
  /** How long opening a PostgreSQL connection, or waiting for a free one of the pool, may take. */
  DATABASE_CONNECT_TIMEOUT_MS: optionalInt(100),
  /** Apply the review store's migrations at start (the quick start); `false` when `npm run migrate` does. */
  MIGRATE_ON_START: flag(true),
  /**
   * Where documents' files are kept: `disk` (APP_DATA_DIR/files; the default without DATABASE_URL),
   * `database` (in the review store; the default with DATABASE_URL) or `s3` (an S3-compatible bucket).
   */
  FILE_STORAGE: optionalString.pipe(
    z.enum(['disk', 'database', 's3'], { error: 'expected disk, database or s3' }).optional(),
  ),
  /** FILE_STORAGE=s3: the bucket; credentials come from the standard AWS variables or profile. */
  S3_BUCKET: optionalString,
  /** FILE_STORAGE=s3: an S3-compatible server's URL (MinIO, Ceph, Garage…); unset: AWS itself. */
  S3_ENDPOINT: optionalUrl,
  S3_REGION: z.string().trim().default('us-east-1'),
  /** FILE_STORAGE=s3: bucket in the path (`endpoint/bucket/key`), as most S3-compatible servers want. */
  S3_FORCE_PATH_STYLE: flag(false),
  /**
   * With DATABASE_URL, an embedded reference service per copy is refused (each copy's jobs would live
   * in its own service): point every copy at one upstream. `true` allows it for a single copy.
   */
  EMBEDDED_REFERENCE_WITH_DATABASE: flag(false),
  /** On SIGTERM: how long a copy keeps serving with readiness `503`, so the load balancer stops sending. */
  SHUTDOWN_DRAIN_MS: optionalInt(0),
  /** Then: how long requests in flight (uploads included) may take to finish before the copy exits. */
  SHUTDOWN_GRACE_MS: optionalInt(0),
  /** How long each readiness check (`/api/health/ready`) may take before it counts as failing. */
  READY_CHECK_TIMEOUT_MS: optionalInt(100),
  /** How long a review may stay idle before its document goes back to the queue, in ms. */
  REVIEW_LEASE_MS: optionalInt(1000),
  /**
   * How often each copy applies the models' retention rules (and sweeps expired sessions and spent
   * links), in ms. 0: no retention purge (sessions are still swept hourly).
   */
  RETENTION_SWEEP_INTERVAL_MS: optionalInt(0),
  /**
   * Single sign-on behind a company proxy: the request header naming the signed-in person
   * (`X-Forwarded-Email`), believed only from SSO_TRUSTED_PROXIES. Unset: sign-in with a password only.
   */
  SSO_HEADER: optionalString.pipe(
    z
      .string()
      .regex(/^[A-Za-z0-9-]+$/, { error: 'expected a header name such as X-Forwarded-Email' })
      .optional(),
  ),
  /** The proxies allowed to set SSO_HEADER: `loopback`, addresses, CIDR ranges. */
  SSO_TRUSTED_PROXIES: trustProxyList,
  /**
   * OpenID Connect sign-in (docs/security.md, "Company sign-in"): the provider's issuer URL (its
   * `/.well-known/openid-configuration` is read from it). Unset: no "Sign in with …" button.
   */
  OIDC_ISSUER: optionalUrl,
  /** The app's client id at the provider. */
  OIDC_CLIENT_ID: optionalString,
  /** The client's secret (a confidential client); it also signs the `er_oidc` cookie of a sign-in under way. */
  OIDC_CLIENT_SECRET: optionalString,
  /** What the sign-in page's button says after "Sign in with" (`Okta`, `Entra ID`, `Google`). */
  OIDC_NAME: z.string().trim().min(1).max(60).default('your company account'),
  /** Create an operator at a person's first sign-in through the provider; off: an admin adds them first. */
  OIDC_AUTO_CREATE: flag(false),
  /**
   * The claim carrying the person's roles or groups (`roles`, `groups`, `realm_access.roles`): read at
   * every sign-in. Unset: roles are set here, by an admin, and new operators are operators.
   */
  OIDC_ROLE_CLAIM: optionalString,
  /** Values of OIDC_ROLE_CLAIM that make an admin (any one of them); any other makes an operator. */
  OIDC_ADMIN_VALUES: list,
  /** Sign-in with a name and password (`false`: the form is hidden, and `POST /api/session` refused). */
  PASSWORD_SIGNIN: flag(true),
  STATIC_DIR: z.string().default(path.join(repoRoot, 'dist')),
  /**
   * LOG_FORMAT (`json`, `pretty`, `auto`: readable on a terminal, else JSON lines) and LOG_LEVEL
   * (`fatal` … `trace`, `silent`; default `info`): docs/operations.md, "Logs".
   */
  ...LogSettings,
  /** Open connections one app-server copy holds at most; more are closed at once (file descriptors). */
  MAX_CONNECTIONS: optionalInt(1),
  /**
   * Webhook targets allowed although not public (loopback, private, link-local, metadata addresses):
   * names, addresses or CIDR ranges. Empty: such integration webhooks are refused, when set and when sent.
   */
  ALLOW_PRIVATE_WEBHOOKS: list,
  /**
   * The metrics (docs/operations.md, "Metrics"): with a token, `GET /metrics` on the app's port answers
   * to `Authorization: Bearer <token>` (at least 16 characters). Unset: no `/metrics` there.
   */
  METRICS_TOKEN: optionalString.pipe(
    z.string().min(16, { error: 'expected at least 16 characters (a random token)' }).optional(),
  ),
  /**
   * A separate listener for the metrics alone, on HOST and this port, asking no token (for the
   * network the scraper is on). Unset: none.
   */
  METRICS_PORT: optionalInt(1).pipe(
    z.number().max(65535, { error: 'expected a port, 1 to 65535' }).optional(),
  ),
  /** Set by `npm run dev`: Vite serves the app, so the app server serves only /api. */
  DEV: z
    .enum(['0', '1', 'true', 'false', ''])
    .default('')
    .transform((v) => v === '1' || v === 'true'),
});

export type Env = z.infer<typeof EnvSchema>;

const CheckedEnvSchema = EnvSchema.refine(
  (env) => env.SSO_HEADER === undefined || env.SSO_TRUSTED_PROXIES.length > 0,
  {
    message:
      'SSO_HEADER is set but SSO_TRUSTED_PROXIES is not: the header would be believed from anybody. List the ' +
      "proxy's addresses",
    path: ['SSO_TRUSTED_PROXIES'],
  },
)
  .refine(
    (env) =>
      env.OIDC_ISSUER === undefined ||
      (env.OIDC_CLIENT_ID !== undefined && env.OIDC_CLIENT_SECRET !== undefined),
    {
      message:
        'OIDC_ISSUER is set but OIDC_CLIENT_ID or OIDC_CLIENT_SECRET is not: register the app at the provider ' +
        '(a confidential web client) and set both',
      path: ['OIDC_CLIENT_ID'],
    },
  )
  .refine((env) => env.OIDC_ROLE_CLAIM === undefined || env.OIDC_ADMIN_VALUES.length > 0, {
    message: 'OIDC_ROLE_CLAIM is set but OIDC_ADMIN_VALUES is not: list the claim values that make an admin',
    path: ['OIDC_ADMIN_VALUES'],
  })
  .refine((env) => env.PASSWORD_SIGNIN || env.OIDC_ISSUER !== undefined || env.SSO_HEADER !== undefined, {
    message: 'PASSWORD_SIGNIN is false but neither OIDC_ISSUER nor SSO_HEADER is set: nobody could sign in',
    path: ['PASSWORD_SIGNIN'],
  })
  .refine((env) => (env.FILE_STORAGE ?? 'disk') !== 's3' || env.S3_BUCKET !== undefined, {
    message: 'FILE_STORAGE is s3 but S3_BUCKET is not set: name the bucket the files go to',
    path: ['S3_BUCKET'],
  })
  .refine((env) => env.METRICS_PORT === undefined || env.METRICS_PORT !== env.PORT, {
    message: 'METRICS_PORT is the same as PORT: the metrics listener needs a port of its own',
    path: ['METRICS_PORT'],
  })
  .refine((env) => env.WEBHOOK_V2_IDS.length === 0 || env.WEBHOOK_V2_SECRET !== undefined, {
    message:
      "WEBHOOK_V2_IDS is set but WEBHOOK_V2_SECRET is not: the receiver needs the webhook's signing secret " +
      'to accept its calls',
    path: ['WEBHOOK_V2_SECRET'],
  });

export function readEnv(source: NodeJS.ProcessEnv = process.env): Env {
  return parseSettings(CheckedEnvSchema, source, 'Invalid configuration');
}

/** FILE_STORAGE, or its default: in the database with DATABASE_URL (every copy reads it), else on disk. */
export function fileStorageKind(env: Pick<Env, 'FILE_STORAGE' | 'DATABASE_URL'>): 'disk' | 'database' | 's3' {
  return env.FILE_STORAGE ?? (env.DATABASE_URL !== undefined ? 'database' : 'disk');
}

/** The defaults of the settings read as optional numbers above. */
export const SETTING_DEFAULTS = {
  DATABASE_POOL_SIZE: 10,
  DATABASE_STATEMENT_TIMEOUT_MS: 15_000,
  DATABASE_CONNECT_TIMEOUT_MS: 5_000,
  SHUTDOWN_DRAIN_MS: 10_000,
  SHUTDOWN_GRACE_MS: 30_000,
  READY_CHECK_TIMEOUT_MS: 2_000,
  RETENTION_SWEEP_INTERVAL_MS: 3_600_000,
} as const;
