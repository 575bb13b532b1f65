/**
 * `npm run reference`: the reference service on its own, with its own settings (REFERENCE_* and
 * DOCUMENT_MAX_*, reference-settings.ts; see docs/reference-service.md).
 */
import { randomBytes } from 'node:crypto';
import { referenceOptionsFromSettings, startReferenceService } from './create-reference-service';
import { readReferenceSettings, type ReferenceSettings } from './reference-settings';

const env = readSettingsOrExit();
const apiKey = env.REFERENCE_API_KEY ?? randomBytes(24).toString('base64url');

const service = await startReferenceService({ ...referenceOptionsFromSettings(env), apiKey });

console.log(`Reference service listening on ${service.url}`);
if (env.REFERENCE_PUBLIC_URL) console.log(`Public URL: ${env.REFERENCE_PUBLIC_URL}`);
if (!env.REFERENCE_API_KEY) console.log(`API key (generated, set REFERENCE_API_KEY to fix one): ${apiKey}`);
console.log(`Data directory: ${env.REFERENCE_DATA_DIR}`);
if (env.REFERENCE_URL_ALLOW_HOSTS.length > 0 || env.REFERENCE_URL_CA_FILE) {
  console.log('Test settings on: REFERENCE_URL_ALLOW_HOSTS / REFERENCE_URL_CA_FILE (not for real use)');
}
if (env.REFERENCE_ALLOWED_HOSTS.includes('*')) {
  console.warn('REFERENCE_ALLOWED_HOSTS contains *: the Host check is off (any name reaches the service).');
}
console.log('Models:');
for (const model of service.models) console.log(`  ${model.id}  ${model.name}`);

const shutdown = (signal: string): void => {
  console.log(`${signal}: stopping (jobs under way and queued ones resume at the next start)`);
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

/** A wrong setting stops the service with every wrong variable named, not a stack trace. */
function readSettingsOrExit(): ReferenceSettings {
  try {
    return readReferenceSettings(process.env);
  } catch (error) {
    console.error(
      `The reference service cannot start: ${error instanceof Error ? error.message : String(error)}`,
    );
    process.exit(1);
  }
}
