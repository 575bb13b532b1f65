/**
 * Configuration, from the environment only, validated once at start-up. The names are the same in
 * every entry point (README and .env.example list them).
 */
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { ConfidenceThresholds } from '../src/api/v2/app-event-schemas';
import { parseHostPattern } from './shared/host-policy';

const port = z.coerce.number().int().min(0).max(65535);
const optionalUrl = z
  .string()
  .trim()
  .transform((s) => (s === '' ? undefined : s))
  .pipe(z.url({ protocol: /^https?$/ }).optional())
  .optional();
const optionalString = z
  .string()
  .trim()
  .transform((s) => (s === '' ? undefined : s))
  .optional();

/** An unset or empty variable is `undefined`; anything else must be a whole number in range. */
const optionalInt = (min: number) =>
  z
    .string()
    .trim()
    .transform((s) => (s === '' ? undefined : Number(s)))
    .pipe(z.number({ error: 'expected a whole number' }).int().min(min).optional())
    .optional();

/** `true`/`1`, `false`/`0`, or unset/empty for the default. */
const flag = (fallback: boolean) =>
  z
    .string()
    .trim()
    .toLowerCase()
    .transform((s) => (s === '' ? undefined : s))
    .pipe(z.enum(['true', 'false', '1', '0'], { error: 'expected true or false' }).optional())
    .transform((s) => (s === undefined ? fallback : s === 'true' || s === '1'))
    .optional()
    .transform((v) => v ?? fallback);

/** A comma-separated list; blanks are dropped. */
const list = z
  .string()
  .default('')
  .transform((s) =>
    s
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item !== ''),
  );

/** `loopback`, an IP address, or a CIDR range such as `10.0.0.0/8` or `fd00::/8`. */
function isProxyEntry(entry: string): boolean {
  if (entry === 'loopback') return true;
  const [address = '', bits, ...rest] = entry.split('/');
  const kind = isIP(address);
  if (kind === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  const n = Number(bits);
  return /^\d+$/.test(bits) && n <= (kind === 4 ? 32 : 128);
}

const TRUST_PROXY_MESSAGE =
  'expected a comma-separated list of `loopback`, IP addresses and CIDR ranges (10.0.0.0/8)';
const trustProxyList = list.refine((entries) => entries.every(isProxyEntry), {
  message: TRUST_PROXY_MESSAGE,
});

/** Hosts a server answers to besides its own addresses (server/shared/host-policy.ts). */
const allowedHostList = list.superRefine((entries, ctx) => {
  for (const entry of entries) {
    if (parseHostPattern(entry) === undefined) {
      ctx.addIssue({
        code: 'custom',
        message:
          `${JSON.stringify(entry)} is not a host: expected a comma-separated list of names or addresses, ` +
          'each with an optional port (review.example.com, 10.0.0.5:8080, [fd00::1]), `.example.com` for a ' +
          'domain and its subdomains, or `*` for any',
      });
    }
  }
});

export const repoRoot = path.resolve(import.meta.dirname, '..');

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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
  REFERENCE_HOST: z.string().default('127.0.0.1'),
  REFERENCE_PORT: port.default(8790),
  REFERENCE_API_KEY: optionalString,
  REFERENCE_DATA_DIR: z.string().default(path.join(repoRoot, 'data', 'reference')),
  REFERENCE_MODELS_FILE: z.string().default(path.join(repoRoot, 'server', 'reference', 'models.json')),
  REFERENCE_PUBLIC_URL: optionalUrl,
  /** Jobs processed at once; default the machine's available parallelism. */
  REFERENCE_CONCURRENCY: optionalInt(1),
  REFERENCE_PROCESSING_TIMEOUT_MS: optionalInt(1),
  /** Largest accepted document (file, file_base64 decoded, or url download), in bytes. */
  REFERENCE_MAX_FILE_BYTES: optionalInt(1),
  /** Open connections the reference service holds at most (default 1000); more are closed at once. */
  REFERENCE_MAX_CONNECTIONS: optionalInt(1),
  /**
   * What one document may cost to read, for the reference service's extraction and the review's page
   * words alike (server/reference/extract/document-limits.ts has the defaults): pages per document,
   * pixels of one rendered page (a larger page is rendered smaller, down to a floor, then refused), and
   * pixels of one decoded picture.
   */
  DOCUMENT_MAX_PAGES: optionalInt(1),
  DOCUMENT_MAX_RENDER_PIXELS: optionalInt(1),
  DOCUMENT_MAX_IMAGE_PIXELS: optionalInt(1),
  /** Per-key budgets per window (a minute unless the next setting says otherwise); 0 turns a budget off. */
  REFERENCE_RATE_LIMIT_POST_PER_MINUTE: optionalInt(0),
  REFERENCE_RATE_LIMIT_GET_PER_MINUTE: optionalInt(0),
  /** The budgets' window in ms (default 60 000); end-to-end tests shorten it to meet 429s quickly. */
  REFERENCE_RATE_LIMIT_WINDOW_MS: optionalInt(1),
  /** Peers whose X-Forwarded-* / Forwarded headers are believed: `loopback`, addresses, CIDR ranges. */
  REFERENCE_TRUST_PROXY: trustProxyList,
  /** Other hosts the reference service answers to; its Host check is on when it listens on loopback or this is set. */
  REFERENCE_ALLOWED_HOSTS: allowedHostList,
  /** How long downloading a `url` input may take, in ms. */
  REFERENCE_URL_TIMEOUT_MS: optionalInt(1),
  /** Test only: hosts (names, addresses or CIDR ranges) a `url` input may reach although not public. */
  REFERENCE_URL_ALLOW_HOSTS: list,
  /** Test only: a PEM file of certificate authorities trusted, besides the usual ones, for `url` input. */
  REFERENCE_URL_CA_FILE: optionalString,
  /**
   * PEM certificate and key files: the reference service then speaks HTTPS, as the hosted service does
   * (the official clients only call `https://` hosts). Both or neither.
   */
  REFERENCE_TLS_CERT_FILE: optionalString,
  REFERENCE_TLS_KEY_FILE: optionalString,
  /**
   * The signing secret of the v2 upstream's webhook that points at this app server's /hooks/v2. Unset:
   * the receiver is off (with the embedded reference service, one is made at each start instead).
   */
  WEBHOOK_V2_SECRET: optionalString,
  /** That webhook's ids on the upstream (one per model on the hosted platform), for `webhook_ids`. */
  WEBHOOK_V2_IDS: list.refine((ids) => ids.every((id) => UUID.test(id)), {
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
  STATIC_DIR: z.string().default(path.join(repoRoot, 'dist')),
  /** Open connections one app-server copy holds at most; more are closed at once (file descriptors). */
  MAX_CONNECTIONS: optionalInt(1),
  /**
   * Webhook targets allowed although not public (loopback, private, link-local, metadata addresses):
   * names, addresses or CIDR ranges. Empty: such integration webhooks are refused, when set and when sent.
   */
  ALLOW_PRIVATE_WEBHOOKS: list,
  /** Set by `npm run dev`: Vite serves the app, so the app server serves only /api. */
  DEV: z
    .enum(['0', '1', 'true', 'false', ''])
    .default('')
    .transform((v) => v === '1' || v === 'true'),
});

export type Env = z.infer<typeof EnvSchema>;

const CheckedEnvSchema = EnvSchema.refine(
  (env) => (env.REFERENCE_TLS_CERT_FILE === undefined) === (env.REFERENCE_TLS_KEY_FILE === undefined),
  {
    message: 'set both REFERENCE_TLS_CERT_FILE and REFERENCE_TLS_KEY_FILE, or neither',
    path: ['REFERENCE_TLS_KEY_FILE'],
  },
)
  .refine((env) => env.SSO_HEADER === undefined || env.SSO_TRUSTED_PROXIES.length > 0, {
    message:
      'SSO_HEADER is set but SSO_TRUSTED_PROXIES is not: the header would be believed from anybody. List the ' +
      "proxy's addresses",
    path: ['SSO_TRUSTED_PROXIES'],
  })
  .refine((env) => (env.FILE_STORAGE ?? 'disk') !== 's3' || env.S3_BUCKET !== undefined, {
    message: 'FILE_STORAGE is s3 but S3_BUCKET is not set: name the bucket the files go to',
    path: ['S3_BUCKET'],
  })
  .refine((env) => env.WEBHOOK_V2_IDS.length === 0 || env.WEBHOOK_V2_SECRET !== undefined, {
    message:
      "WEBHOOK_V2_IDS is set but WEBHOOK_V2_SECRET is not: the receiver needs the webhook's signing secret " +
      'to accept its calls',
    path: ['WEBHOOK_V2_SECRET'],
  });

export function readEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const parsed = CheckedEnvSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
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
} as const;
