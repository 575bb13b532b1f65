/**
 * Integrations: the pipelines that send documents through the app server's `/v2` and `/v1` (the
 * gateway, docs/gateway.md). Each has a name (unique whatever its case), an integration key and, when
 * it wants validated results pushed back, a webhook URL with its signing secret.
 *
 * The key is shown once, when it is made, and only its SHA-256 is kept: it is 256 random bits, so a
 * fast hash is enough (nobody can guess their way through 2^256 candidates), and the look-up by hash
 * takes one indexed read per request. The webhook secret, by contrast, must be kept as it is: the
 * server signs with it.
 *
 * A webhook URL is taken only if it names, and resolves to, public addresses, or ALLOW_PRIVATE_WEBHOOKS
 * allows it (shared/webhook-address.ts); whatever path sets it (the command, a test, a future admin
 * route) comes through here. A name that does not resolve now is taken, with a note: the delivery
 * worker checks again before each attempt, which is the check that counts.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { ReviewDatabase } from '../db/open-database';
import type { IntegrationRow, ReviewDatabaseSchema } from '../db/schema';
import { endpointUrl } from '@extraction-review/server-kit/post-webhook';
import { WebhookAddressGuard } from '@extraction-review/server-kit/webhook-address';
import { isUniqueViolation, nameKey } from './operator-store';
import { hashToken } from './session-store';

/** Integration keys start with this, so that a leaked one is recognised (secret scanners, logs). */
export const KEY_PREFIX = 'erk_';
/** Webhook signing secrets start with this. */
export const SECRET_PREFIX = 'whsec_';
/** How often `last_used_at` is written at most, per integration: not a write per request. */
const LAST_USED_RESOLUTION_MS = 60_000;

/** What may be shown of an integration: never its key's hash nor its webhook secret. */
export interface Integration {
  id: string;
  name: string;
  keyHint: string;
  webhookUrl: string | null;
  hasWebhookSecret: boolean;
  createdAt: number;
  revokedAt: number | null;
  lastUsedAt: number | null;
  /** Requests per minute the gateway takes from it; null: no limit. */
  requestsPerMinute: number | null;
}

export class DuplicateIntegrationError extends Error {
  constructor(name: string) {
    super(`An integration named ${JSON.stringify(name)} already exists.`);
    this.name = 'DuplicateIntegrationError';
  }
}

/** A webhook URL whose address is not allowed (or that is no http(s) URL): nothing was written. */
export class WebhookRefusedError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'WebhookRefusedError';
  }
}

export function toIntegration(row: IntegrationRow): Integration {
  return {
    id: row.id,
    name: row.name,
    keyHint: row.key_hint,
    webhookUrl: row.webhook_url,
    hasWebhookSecret: row.webhook_secret !== null,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
    lastUsedAt: row.last_used_at,
    requestsPerMinute: row.requests_per_minute ?? null,
  };
}

export const newIntegrationKey = (): string => `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
export const newWebhookSecret = (): string => `${SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;
/** The first characters of a key, enough to tell keys apart in a list, far too few to use. */
const keyHint = (key: string): string => `${key.slice(0, KEY_PREFIX.length + 6)}…`;

export interface CreatedIntegration {
  integration: Integration;
  /** Shown once: only its hash is kept. */
  key: string;
  /** Set when a webhook URL was given. */
  webhookSecret: string | null;
  /** Why the webhook URL could not be checked now (its host does not resolve), if so. */
  webhookNote: string | null;
}

export class IntegrationStore {
  private readonly webhooks: WebhookAddressGuard;

  /** `webhooks`: which addresses webhook URLs may reach (ALLOW_PRIVATE_WEBHOOKS); default public only. */
  constructor(
    private readonly store: ReviewDatabase,
    options: { webhooks?: WebhookAddressGuard | undefined } = {},
  ) {
    this.webhooks = options.webhooks ?? new WebhookAddressGuard();
  }

  /** Throws WebhookRefusedError for a URL never to be called; the note for one not checkable now. */
  private async vetWebhook(webhookUrl: string | null | undefined): Promise<string | null> {
    if (webhookUrl === null || webhookUrl === undefined || webhookUrl === '') return null;
    const url = endpointUrl(webhookUrl);
    if (typeof url === 'string') throw new WebhookRefusedError(url);
    const vetted = await this.webhooks.vet(url);
    if (vetted.kind === 'refused') throw new WebhookRefusedError(vetted.reason);
    return vetted.kind === 'unresolved'
      ? `Note: ${vetted.reason}; it is checked again before each delivery.`
      : null;
  }

  async create(
    input: { name: string; webhookUrl?: string | null },
    now: number,
  ): Promise<CreatedIntegration> {
    const name = input.name.trim().normalize('NFC');
    const webhookNote = await this.vetWebhook(input.webhookUrl);
    const key = newIntegrationKey();
    const webhookSecret = input.webhookUrl ? newWebhookSecret() : null;
    try {
      const row = await this.store.db
        .insertInto('integrations')
        .values({
          id: randomUUID(),
          name,
          name_key: nameKey(name),
          key_hash: hashToken(key),
          key_hint: keyHint(key),
          webhook_url: input.webhookUrl ?? null,
          webhook_secret: webhookSecret,
          created_at: now,
          revoked_at: null,
          last_used_at: null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return { integration: toIntegration(row), key, webhookSecret, webhookNote };
    } catch (error) {
      if (isUniqueViolation(error)) throw new DuplicateIntegrationError(name);
      throw error;
    }
  }

  async list(): Promise<Integration[]> {
    const rows = await this.store.db.selectFrom('integrations').selectAll().orderBy('name_key').execute();
    return rows.map(toIntegration);
  }

  async findByName(name: string): Promise<IntegrationRow | undefined> {
    return this.store.db
      .selectFrom('integrations')
      .selectAll()
      .where('name_key', '=', nameKey(name))
      .executeTakeFirst();
  }

  async findById(id: string): Promise<IntegrationRow | undefined> {
    return this.store.db.selectFrom('integrations').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /**
   * The integration a key belongs to, unless it is revoked; undefined for a wrong key. The key is
   * looked up by its hash: no comparison of secrets happens in this process that a timing could leak.
   */
  async authenticate(key: string, now: number): Promise<IntegrationRow | undefined> {
    if (!key.startsWith(KEY_PREFIX) || key.length > 200) return undefined;
    const row = await this.store.db
      .selectFrom('integrations')
      .selectAll()
      .where('key_hash', '=', hashToken(key))
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (row === undefined) return undefined;
    if (row.last_used_at === null || now - row.last_used_at >= LAST_USED_RESOLUTION_MS) {
      await this.store.db
        .updateTable('integrations')
        .set({ last_used_at: now })
        .where('id', '=', row.id)
        .execute();
    }
    return row;
  }

  /**
   * Sets (or, with null, removes) the requests per minute the gateway takes from this integration;
   * every copy reads it with the key, at the integration's next request. Undefined: no such name.
   */
  async setLimit(name: string, requestsPerMinute: number | null): Promise<IntegrationRow | undefined> {
    return this.store.db
      .updateTable('integrations')
      .set({ requests_per_minute: requestsPerMinute })
      .where('name_key', '=', nameKey(name))
      .returningAll()
      .executeTakeFirst();
  }

  /** Whether it existed and was not revoked yet. Its documents stay, tagged with it. */
  async revoke(name: string, now: number): Promise<IntegrationRow | undefined> {
    return this.store.db
      .updateTable('integrations')
      .set({ revoked_at: now })
      .where('name_key', '=', nameKey(name))
      .where('revoked_at', 'is', null)
      .returningAll()
      .executeTakeFirst();
  }

  /**
   * Sets (or, with null, removes) the webhook URL. A new URL comes with a new signing secret, returned
   * to be shown once; removing the URL removes the secret. A URL whose address is not allowed throws
   * WebhookRefusedError.
   */
  async setWebhook(
    name: string,
    webhookUrl: string | null,
  ): Promise<{ row: IntegrationRow; webhookSecret: string | null; webhookNote: string | null } | undefined> {
    const webhookNote = await this.vetWebhook(webhookUrl);
    const webhookSecret = webhookUrl === null ? null : newWebhookSecret();
    const row = await this.store.db
      .updateTable('integrations')
      .set({ webhook_url: webhookUrl, webhook_secret: webhookSecret })
      .where('name_key', '=', nameKey(name))
      .returningAll()
      .executeTakeFirst();
    return row === undefined ? undefined : { row, webhookSecret, webhookNote };
  }
}

type Db = Kysely<ReviewDatabaseSchema> | Transaction<ReviewDatabaseSchema>;

/** An integration's name and webhook, in `db`'s transaction if any (the outbox's, at confirmation). */
export async function findWebhookOfIntegration(
  db: Db,
  id: string,
): Promise<Pick<IntegrationRow, 'id' | 'name' | 'webhook_url' | 'revoked_at'> | undefined> {
  return db
    .selectFrom('integrations')
    .select(['id', 'name', 'webhook_url', 'revoked_at'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Where an integration's webhook goes and how it is signed, read before each attempt (the delivery worker). */
export async function findWebhookTarget(
  db: Db,
  id: string,
): Promise<Pick<IntegrationRow, 'webhook_url' | 'webhook_secret' | 'revoked_at'> | undefined> {
  return db
    .selectFrom('integrations')
    .select(['webhook_url', 'webhook_secret', 'revoked_at'])
    .where('id', '=', id)
    .executeTakeFirst();
}
