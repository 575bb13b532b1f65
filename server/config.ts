/**
 * Configuration, from the environment only, validated once at start-up. The names are the same in
 * every entry point (README and .env.example list them).
 */
import path from 'node:path';
import { z } from 'zod';

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

export const repoRoot = path.resolve(import.meta.dirname, '..');

const EnvSchema = z.object({
  HOST: z.string().default('127.0.0.1'),
  PORT: port.default(8080),
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
  STATIC_DIR: z.string().default(path.join(repoRoot, 'dist')),
  /** Set by `npm run dev`: Vite serves the app, so the app server serves only /api. */
  DEV: z
    .enum(['0', '1', 'true', 'false', ''])
    .default('')
    .transform((v) => v === '1' || v === 'true'),
});

export type Env = z.infer<typeof EnvSchema>;

export function readEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
