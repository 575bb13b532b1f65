/**
 * The reference service's own settings: the REFERENCE_* and DOCUMENT_MAX_* environment variables,
 * read and checked here, for `npm run reference` (main.ts) and for whoever embeds the service (the
 * app server's settings take the same variables: server/app/settings/config.ts spreads `ReferenceSettingsShape`).
 * `referenceOptionsFromSettings` (create-reference-service.ts) turns them into service options.
 *
 * Nothing here reads the app's settings: the service can run, and be published, alone.
 */
import path from 'node:path';
import { z } from 'zod';
import {
  allowedHostList,
  list,
  optionalInt,
  optionalString,
  optionalUrl,
  parseSettings,
  port,
  trustProxyList,
} from '@extraction-review/server-kit/settings-schema';
import { DocumentLimitsSettings } from '@extraction-review/document-text/document-limits';

/** The models shipped beside the service. */
export const DEFAULT_MODELS_FILE = path.join(import.meta.dirname, 'models.json');

export const ReferenceSettingsShape = {
  REFERENCE_HOST: z.string().default('127.0.0.1'),
  REFERENCE_PORT: port.default(8790),
  /** Unset: a random key at each start (printed). */
  REFERENCE_API_KEY: optionalString,
  /**
   * Its database and uploaded files; relative to the working directory (`npm run reference` runs at
   * the repository root, so `data/reference` there).
   */
  REFERENCE_DATA_DIR: z.string().default(() => path.resolve('data', 'reference')),
  REFERENCE_MODELS_FILE: z.string().default(DEFAULT_MODELS_FILE),
  REFERENCE_PUBLIC_URL: optionalUrl,
  /** Jobs processed at once; default the machine's available parallelism. */
  REFERENCE_CONCURRENCY: optionalInt(1),
  REFERENCE_PROCESSING_TIMEOUT_MS: optionalInt(1),
  /** Largest accepted document (file, file_base64 decoded, or url download), in bytes. */
  REFERENCE_MAX_FILE_BYTES: optionalInt(1),
  /** Open connections the reference service holds at most (default 1000); more are closed at once. */
  REFERENCE_MAX_CONNECTIONS: optionalInt(1),
  /** What one document may cost to read (extract/document-limits.ts): the app server's page words take the same. */
  ...DocumentLimitsSettings,
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
};

const ReferenceSettingsObject = z.object(ReferenceSettingsShape);

export type ReferenceSettings = z.infer<typeof ReferenceSettingsObject>;

/** What no single variable can check: a certificate needs its key. For the app's schema too. */
export function checkReferenceSettings(
  settings: Pick<ReferenceSettings, 'REFERENCE_TLS_CERT_FILE' | 'REFERENCE_TLS_KEY_FILE'>,
  ctx: z.RefinementCtx,
): void {
  if ((settings.REFERENCE_TLS_CERT_FILE === undefined) !== (settings.REFERENCE_TLS_KEY_FILE === undefined)) {
    ctx.addIssue({
      code: 'custom',
      message: 'set both REFERENCE_TLS_CERT_FILE and REFERENCE_TLS_KEY_FILE, or neither',
      path: ['REFERENCE_TLS_KEY_FILE'],
    });
  }
}

export const ReferenceSettingsSchema = ReferenceSettingsObject.superRefine(checkReferenceSettings);

/** The settings from `source` (default the environment), or an error naming every wrong variable. */
export function readReferenceSettings(source: NodeJS.ProcessEnv = process.env): ReferenceSettings {
  return parseSettings(ReferenceSettingsSchema, source, 'Invalid reference service settings');
}
