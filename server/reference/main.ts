/**
 * `npm run reference`: the reference service on its own (REFERENCE_* settings, see
 * docs/reference-service.md).
 */
import { randomBytes } from 'node:crypto';
import { readEnv } from '../config';
import { startReferenceService } from './create-reference-service';

const env = readEnv();
const apiKey = env.REFERENCE_API_KEY ?? randomBytes(24).toString('base64url');

const service = await startReferenceService({
  host: env.REFERENCE_HOST,
  port: env.REFERENCE_PORT,
  apiKey,
  dataDir: env.REFERENCE_DATA_DIR,
  modelsFile: env.REFERENCE_MODELS_FILE,
  publicUrl: env.REFERENCE_PUBLIC_URL,
});

console.log(`Reference service listening on ${service.url}`);
if (env.REFERENCE_PUBLIC_URL) console.log(`Public URL: ${env.REFERENCE_PUBLIC_URL}`);
if (!env.REFERENCE_API_KEY) console.log(`API key (generated, set REFERENCE_API_KEY to fix one): ${apiKey}`);
console.log(`Data directory: ${env.REFERENCE_DATA_DIR}`);
console.log('Models:');
for (const model of service.models) console.log(`  ${model.id}  ${model.name}`);

const shutdown = (signal: string): void => {
  console.log(`${signal}: stopping (jobs being processed finish; queued ones resume at the next start)`);
  service.close().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
};
process.once('SIGINT', () => shutdown('SIGINT'));
process.once('SIGTERM', () => shutdown('SIGTERM'));
