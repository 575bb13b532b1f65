/**
 * `npm run reference`: the reference service on its own, with its own settings (REFERENCE_* and
 * DOCUMENT_MAX_*, reference-settings.ts; see docs/reference-service.md), and its lines through the
 * one logger (LOG_FORMAT, LOG_LEVEL; docs/operations.md, "Logs").
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { componentLogger, createLogger, useRootLogger } from '@extraction-review/server-kit/logger';
import { LogSettings, parseSettings } from '@extraction-review/server-kit/settings-schema';
import { referenceOptionsFromSettings, startReferenceService } from './create-reference-service';
import { readReferenceSettings, type ReferenceSettings } from './reference-settings';

const log = componentLogger('reference');
const env = readSettingsOrExit();
const apiKey = env.REFERENCE_API_KEY ?? randomBytes(24).toString('base64url');

const service = await startReferenceService({ ...referenceOptionsFromSettings(env), apiKey });

log.info(`Reference service listening on ${service.url}`);
if (env.REFERENCE_PUBLIC_URL) log.info(`Public URL: ${env.REFERENCE_PUBLIC_URL}`);
// The generated key is the one way to learn it (a test double's, made at each start): told once.
if (!env.REFERENCE_API_KEY) log.info(`API key (generated, set REFERENCE_API_KEY to fix one): ${apiKey}`);
log.info(`Data directory: ${env.REFERENCE_DATA_DIR}`);
if (env.REFERENCE_URL_ALLOW_HOSTS.length > 0 || env.REFERENCE_URL_CA_FILE) {
  log.info('Test settings on: REFERENCE_URL_ALLOW_HOSTS / REFERENCE_URL_CA_FILE (not for real use)');
}
if (env.REFERENCE_ALLOWED_HOSTS.includes('*')) {
  log.warn('REFERENCE_ALLOWED_HOSTS contains *: the Host check is off (any name reaches the service).');
}
log.info(`Models: ${service.models.map((model) => `${model.id} ${model.name}`).join('; ')}`);

const shutdown = (signal: string): void => {
  log.info(`${signal}: stopping (jobs under way and queued ones resume at the next start)`);
  service.close().then(
    () => process.exit(0),
    (error: unknown) => {
      log.fatal({ err: error }, 'the reference service did not stop cleanly');
      process.exit(1);
    },
  );
};
process.once('SIGINT', () => shutdown('SIGINT'));
process.once('SIGTERM', () => shutdown('SIGTERM'));

/** A wrong setting stops the service with every wrong variable named, not a stack trace. */
function readSettingsOrExit(): ReferenceSettings {
  try {
    const logs = parseSettings(z.object(LogSettings), process.env, 'Invalid configuration');
    useRootLogger(createLogger({ format: logs.LOG_FORMAT, level: logs.LOG_LEVEL }));
    return readReferenceSettings(process.env);
  } catch (error) {
    log.fatal(
      `The reference service cannot start: ${error instanceof Error ? error.message : String(error)}`,
    );
    process.exit(1);
  }
}
