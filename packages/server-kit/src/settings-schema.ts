/**
 * Building blocks of the settings schemas, shared by the app server's (server/app/settings/config.ts) and the
 * reference service's (server/reference/reference-settings.ts): both read the environment only, and
 * an unset or empty variable means "the default" in both.
 */
import { isIP } from 'node:net';
import { z } from 'zod';
import { parseHostPattern } from './host-policy';
import { LOG_FORMATS, LOG_LEVELS } from './logger';

export const port = z.coerce.number().int().min(0).max(65535);

export const optionalUrl = z
  .string()
  .trim()
  .transform((s) => (s === '' ? undefined : s))
  .pipe(z.url({ protocol: /^https?$/ }).optional())
  .optional();

export const optionalString = z
  .string()
  .trim()
  .transform((s) => (s === '' ? undefined : s))
  .optional();

/** An unset or empty variable is `undefined`; anything else must be a whole number in range. */
export const optionalInt = (min: number) =>
  z
    .string()
    .trim()
    .transform((s) => (s === '' ? undefined : Number(s)))
    .pipe(z.number({ error: 'expected a whole number' }).int().min(min).optional())
    .optional();

/** `true`/`1`, `false`/`0`, or unset/empty for the default. */
export const flag = (fallback: boolean) =>
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
export const list = z
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

/** Peers whose X-Forwarded-* / Forwarded headers are believed: `loopback`, addresses, CIDR ranges. */
export const trustProxyList = list.refine((entries) => entries.every(isProxyEntry), {
  message: TRUST_PROXY_MESSAGE,
});

/** Hosts a server answers to besides its own addresses (packages/server-kit/src/host-policy.ts). */
export const allowedHostList = list.superRefine((entries, ctx) => {
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

/**
 * Parses `source` with `schema`, or throws one error listing every variable that is wrong and why,
 * under `title` (`Invalid configuration:` then `  NAME: message` lines).
 */
export function parseSettings<S extends z.ZodType>(
  schema: S,
  source: NodeJS.ProcessEnv,
  title: string,
): z.output<S> {
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`${title}:\n${lines.join('\n')}`);
  }
  return parsed.data;
}

/** One of `values` (any case), or unset/empty for `fallback`. */
export const oneOf = <const T extends readonly [string, ...string[]]>(values: T, fallback: T[number]) =>
  z
    .string()
    .trim()
    .toLowerCase()
    .transform((s) => (s === '' ? undefined : s))
    .pipe(z.enum(values, { error: `expected one of ${values.join(', ')}` }).optional())
    .optional()
    .transform((v): T[number] => v ?? fallback);

/**
 * The logs of both servers (logger.ts, docs/operations.md "Logs"): JSON lines, readable lines, or
 * `auto` (readable on a terminal, else JSON); the least severe level written.
 */
export const LogSettings = {
  LOG_FORMAT: oneOf(LOG_FORMATS, 'auto'),
  LOG_LEVEL: oneOf(LOG_LEVELS, 'info'),
};
