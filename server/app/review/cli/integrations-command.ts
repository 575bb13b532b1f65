/**
 * The `integrations` admin command (entry: ./integrations.ts): makes, lists and revokes the keys that
 * pipelines use to send documents through the app server's `/v2` and `/v1` (docs/gateway.md), and sets
 * where their validated results are pushed back.
 *
 * `add` prints the key once, alone on the last line of its output, so that a script can take it with
 * `| tail -n 1`; nothing else ever prints it (only its hash is kept). A webhook's signing secret is
 * printed when it is made (by `add --webhook` or `set-webhook`), on its own line before the key.
 * A webhook URL that names or resolves to a loopback, private, link-local (cloud metadata) or other
 * non-public address is refused (exit 1) unless ALLOW_PRIVATE_WEBHOOKS allows it. `set-limit` caps
 * an integration's requests per minute on the gateway (issue 22; none by default).
 *
 * Exit codes: 0 done, 1 refused or failed, 2 bad arguments (usage on stderr).
 */
import type { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { readEnv } from '../../settings/config';
import type { ReviewDatabase } from '../db/open-database';
import { WebhookAddressGuard } from '@extraction-review/server-kit/webhook-address';
import { DuplicateIntegrationError, IntegrationStore, WebhookRefusedError } from '../store/integration-store';
import {
  describe,
  Failure,
  isoTime,
  printable,
  quote,
  helpOrUsage,
  runWithStore,
  table,
} from './cli-support';
import { systemClock, type Clock } from '@extraction-review/server-kit/clock';

export interface IntegrationsIo {
  stdout: Writable;
  stderr: Writable;
  env: NodeJS.ProcessEnv;
  /** The one clock (server-kit/clock.ts) of the times written to the store; default the system's. */
  clock?: Clock;
}

export const USAGE = `Usage: npm run integrations -- <command>

Manages the integrations of the review store the app server uses (APP_DATA_DIR, DATABASE_URL: from
the environment, or else the repository's .env): the pipelines that send documents through the app
server's /v2 and /v1 with an integration key.

Commands:
  add NAME [--webhook URL]   Make an integration and print its key, once, alone on the last line.
                             With --webhook, confirmed documents' validated results are POSTed to
                             URL, signed with a secret printed here once.
  list                       List the integrations (never their keys).
  revoke NAME                Revoke an integration's key at once (its documents stay).
  set-webhook NAME URL       Set the webhook URL; prints its new signing secret once.
  set-webhook NAME --none    Stop pushing validated results to this integration.
  set-limit NAME N           Take at most N requests a minute from this integration on the gateway
                             (then 429 with Retry-After, counted across every copy).
  set-limit NAME none        No limit (the default).
  help                       Show this text.

Webhook URLs must name and resolve to public addresses: loopback, private, link-local (cloud
metadata), carrier-grade NAT, multicast and reserved addresses are refused unless ALLOW_PRIVATE_WEBHOOKS
(names, addresses or CIDR ranges, comma-separated) allows them. They are checked again before each
delivery.

Names are unique whatever their case. Exit codes: 0 done, 1 refused or failed, 2 bad arguments.
`;

const MAX_NAME_LENGTH = 200;

type Command =
  | { name: 'add'; integration: string; webhook: string | null }
  | { name: 'list' }
  | { name: 'revoke'; integration: string }
  | { name: 'set-webhook'; integration: string; webhook: string | null }
  | { name: 'set-limit'; integration: string; requestsPerMinute: number | null };

type Parsed = { kind: 'help' } | { kind: 'usage'; message: string } | { kind: 'run'; command: Command };

export async function runIntegrationsCommand(argv: string[], io: IntegrationsIo): Promise<number> {
  const parsed = helpOrUsage(parseCommand(argv), io, USAGE);
  if (typeof parsed === 'number') return parsed;
  // runWithStore has read the settings already (and said so if they are wrong): read again, they pass.
  return runWithStore(io, (database) =>
    execute(parsed.command, database, io, new WebhookAddressGuard(readEnv(io.env).ALLOW_PRIVATE_WEBHOOKS)),
  );
}

function parseCommand(argv: string[]): Parsed {
  let values: { webhook?: string | undefined; none?: boolean | undefined; help?: boolean | undefined };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      options: {
        webhook: { type: 'string' },
        none: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      allowPositionals: true,
      strict: true,
    }));
  } catch (error) {
    return { kind: 'usage', message: describe(error) };
  }
  const [command, ...rest] = positionals;
  if (values.help === true || command === 'help') return { kind: 'help' };
  if (command === undefined) return { kind: 'usage', message: 'No command given.' };
  if (values.webhook !== undefined && command !== 'add') {
    return { kind: 'usage', message: '--webhook is for add (set-webhook NAME URL changes it).' };
  }
  if (values.none === true && command !== 'set-webhook') {
    return { kind: 'usage', message: '--none is for set-webhook only.' };
  }
  try {
    switch (command) {
      case 'add': {
        const [name] = expectArgs(command, rest, 1);
        return {
          kind: 'run',
          command: { name: 'add', integration: checkNewName(name), webhook: checkWebhookUrl(values.webhook) },
        };
      }
      case 'list':
        expectArgs(command, rest, 0);
        return { kind: 'run', command: { name: 'list' } };
      case 'revoke': {
        const [name] = expectArgs(command, rest, 1);
        return { kind: 'run', command: { name: 'revoke', integration: name } };
      }
      case 'set-webhook': {
        if (values.none === true) {
          const [name] = expectArgs(command, rest, 1);
          return { kind: 'run', command: { name: 'set-webhook', integration: name, webhook: null } };
        }
        const [name, url] = expectArgs(command, rest, 2);
        return {
          kind: 'run',
          command: { name: 'set-webhook', integration: name, webhook: checkWebhookUrl(url) },
        };
      }
      case 'set-limit': {
        const [name, limit] = expectArgs(command, rest, 2);
        return {
          kind: 'run',
          command: { name: 'set-limit', integration: name, requestsPerMinute: checkLimit(limit) },
        };
      }
      default:
        return { kind: 'usage', message: `Unknown command ${JSON.stringify(command)}.` };
    }
  } catch (error) {
    if (error instanceof Failure) return { kind: 'usage', message: error.message };
    throw error;
  }
}

/** Exactly `count` arguments, as strings: the tuple type spares every caller its own check. */
function expectArgs<N extends 0 | 1 | 2>(
  command: string,
  args: string[],
  count: N,
): N extends 2 ? [string, string] : N extends 1 ? [string] : [] {
  if (args.length !== count) {
    const wanted = count === 0 ? 'no arguments' : count === 1 ? 'one argument' : 'two arguments';
    throw new Failure(`${command} takes ${wanted}, got ${args.length}.`);
  }
  return args as never;
}

const MAX_REQUESTS_PER_MINUTE = 1_000_000;

/** A whole number of requests per minute, 1 or more; `none` for no limit. */
function checkLimit(limit: string): number | null {
  if (limit.toLowerCase() === 'none') return null;
  if (!/^\d+$/.test(limit) || Number(limit) < 1 || Number(limit) > MAX_REQUESTS_PER_MINUTE) {
    throw new Failure(
      `The limit is requests per minute, a whole number from 1 to ${MAX_REQUESTS_PER_MINUTE}, or none; got ${quote(limit)}.`,
    );
  }
  return Number(limit);
}

function checkNewName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '') throw new Failure('The name is empty.');
  if (trimmed.length > MAX_NAME_LENGTH) throw new Failure(`The name is over ${MAX_NAME_LENGTH} characters.`);
  if (/\p{Cc}/u.test(trimmed)) throw new Failure('The name holds control characters.');
  return trimmed;
}

/**
 * An absolute http(s) URL without credentials. Plain http is allowed (a receiver on the same machine
 * or network) but https is what a receiver elsewhere should use: the payload holds the document's values.
 */
export function checkWebhookUrl(url: string | undefined): string | null {
  if (url === undefined) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Failure(`The webhook URL is not a URL: ${quote(url)}.`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new Failure(`The webhook URL must be http(s), got ${quote(url)}.`);
  }
  if (parsed.username !== '' || parsed.password !== '') {
    throw new Failure('The webhook URL may not hold a user name or password: the signature authenticates.');
  }
  return parsed.href;
}

async function execute(
  command: Command,
  database: ReviewDatabase,
  io: IntegrationsIo,
  webhooks: WebhookAddressGuard,
): Promise<void> {
  const integrations = new IntegrationStore(database, { webhooks });
  const clock = io.clock ?? systemClock;
  switch (command.name) {
    case 'add': {
      let created;
      try {
        created = await integrations.create(
          { name: command.integration, webhookUrl: command.webhook },
          clock.now(),
        );
      } catch (error) {
        if (error instanceof DuplicateIntegrationError || error instanceof WebhookRefusedError)
          throw new Failure(error.message);
        throw error;
      }
      if (created.webhookNote !== null) io.stderr.write(`${created.webhookNote}\n`);
      io.stdout.write(`Added integration ${quote(created.integration.name)}.\n`);
      if (created.webhookSecret !== null) {
        io.stdout.write(
          `Validated results are POSTed to ${command.webhook ?? ''}, signed (X-Signature) with this secret:\n` +
            `webhook secret: ${created.webhookSecret}\n`,
        );
      }
      io.stdout.write(
        'Its key follows, shown this once: give it to the pipeline as its API key, with the app server as its host.\n',
      );
      io.stdout.write(`${created.key}\n`);
      return;
    }
    case 'list': {
      const all = await integrations.list();
      if (all.length === 0) {
        io.stdout.write('No integrations yet.\n');
        return;
      }
      const rows = all.map((integration) => [
        printable(integration.name),
        integration.keyHint,
        integration.revokedAt === null ? 'active' : `revoked ${isoTime(integration.revokedAt)}`,
        integration.requestsPerMinute === null ? '-' : `${integration.requestsPerMinute}/min`,
        integration.webhookUrl ?? '-',
        isoTime(integration.createdAt),
        integration.lastUsedAt === null ? 'never' : isoTime(integration.lastUsedAt),
      ]);
      io.stdout.write(table(['NAME', 'KEY', 'STATE', 'LIMIT', 'WEBHOOK', 'CREATED', 'LAST USED'], rows));
      return;
    }
    case 'revoke': {
      const revoked = await integrations.revoke(command.integration, clock.now());
      if (revoked === undefined) {
        const existing = await integrations.findByName(command.integration);
        throw new Failure(
          existing === undefined
            ? `No integration named ${quote(command.integration)}.`
            : `${quote(existing.name)} is already revoked.`,
        );
      }
      io.stdout.write(`Revoked ${quote(revoked.name)}: its key is refused from now on.\n`);
      return;
    }
    case 'set-limit': {
      const updated = await integrations.setLimit(command.integration, command.requestsPerMinute);
      if (updated === undefined) throw new Failure(`No integration named ${quote(command.integration)}.`);
      io.stdout.write(
        command.requestsPerMinute === null
          ? `${quote(updated.name)} has no limit: the gateway takes every request it sends.\n`
          : `${quote(updated.name)} may send ${command.requestsPerMinute} requests a minute; past them, 429 with Retry-After.\n`,
      );
      return;
    }
    case 'set-webhook': {
      let updated;
      try {
        updated = await integrations.setWebhook(command.integration, command.webhook);
      } catch (error) {
        if (error instanceof WebhookRefusedError) throw new Failure(error.message);
        throw error;
      }
      if (updated === undefined) throw new Failure(`No integration named ${quote(command.integration)}.`);
      if (updated.webhookNote !== null) io.stderr.write(`${updated.webhookNote}\n`);
      if (updated.webhookSecret === null) {
        io.stdout.write(`${quote(updated.row.name)} has no webhook any more.\n`);
      } else {
        io.stdout.write(
          `Validated results of ${quote(updated.row.name)} are POSTed to ${command.webhook ?? ''}, signed with this new secret:\n` +
            `webhook secret: ${updated.webhookSecret}\n`,
        );
      }
      return;
    }
  }
}
