/**
 * The review store's migrations: numbered, forward-only, each in a transaction (Kysely's Migrator
 * runs them in order and records them in `kysely_migration`, with a lock so that two app-server
 * copies starting together do not both run one). The same migrations run on SQLite and PostgreSQL;
 * where the engines differ (an auto-incremented key, 64-bit times) the column type is chosen here.
 *
 * A new migration is a new entry at the end; a released one is never edited.
 */
import { sql, type Kysely, type Migration } from 'kysely';
import { keptFiles } from './kept-files-migration';
import { jobFollowLeases } from './job-follow-leases-migration';
import { backgroundWork } from './background-work-migration';
import { savedQueues } from './saved-queues-migration';
import { uploads } from './uploads-migration';
import { uncheckedGate } from './unchecked-gate-migration';
import { savedFilters } from './saved-filters-migration';
import { assignments } from './assignments-migration';
import { requestLimits } from './request-limits-migration';
import { queueCounts } from './queue-counts-migration';
import { nameSearch } from './name-search-migration';

export type Engine = 'sqlite' | 'postgres';

/** Kysely's Migrator reads migrations from this provider. */
export function reviewMigrations(engine: Engine): Record<string, Migration> {
  const time = engine === 'postgres' ? 'bigint' : 'integer';
  const serialKey = engine === 'postgres' ? 'bigserial' : 'integer';

  return {
    '0001-review-store': {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema as it was then
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('operators')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('name_key', 'text', (c) => c.notNull().unique())
          .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('admin', 'operator')`))
          .addColumn('password_hash', 'text')
          .addColumn('created_at', time, (c) => c.notNull())
          .addColumn('updated_at', time, (c) => c.notNull())
          .execute();

        await db.schema
          .createTable('sessions')
          .addColumn('token_hash', 'text', (c) => c.primaryKey())
          .addColumn('operator_id', 'text', (c) => c.notNull().references('operators.id').onDelete('cascade'))
          .addColumn('csrf_token', 'text', (c) => c.notNull())
          .addColumn('created_at', time, (c) => c.notNull())
          .addColumn('expires_at', time, (c) => c.notNull())
          .addColumn('last_seen_at', time, (c) => c.notNull())
          .execute();
        await db.schema.createIndex('sessions_operator').on('sessions').column('operator_id').execute();

        await db.schema
          .createTable('setup_tokens')
          .addColumn('token_hash', 'text', (c) => c.primaryKey())
          .addColumn('created_at', time, (c) => c.notNull())
          .addColumn('expires_at', time, (c) => c.notNull())
          .addColumn('used_at', time)
          .execute();

        await db.schema
          .createTable('documents')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('api_version', 'text', (c) => c.notNull().check(sql`api_version in ('v2', 'v1')`))
          .addColumn('model_key', 'text', (c) => c.notNull())
          .addColumn('file_name', 'text', (c) => c.notNull())
          .addColumn('alias', 'text')
          .addColumn('mime_type', 'text')
          .addColumn('file_key', 'text')
          .addColumn('file_bytes', time)
          .addColumn('file_sha256', 'text')
          .addColumn('upstream_job_id', 'text')
          .addColumn('upstream_result_id', 'text')
          .addColumn('uploaded_by', 'text', (c) => c.references('operators.id').onDelete('set null'))
          .addColumn('state', 'text', (c) =>
            c
              .notNull()
              .check(
                sql`state in ('processing', 'failed', 'to_review', 'in_review', 'confirmed', 'rejected', 'postponed')`,
              ),
          )
          .addColumn('holder_id', 'text', (c) => c.references('operators.id').onDelete('set null'))
          .addColumn('lease_expires_at', time)
          .addColumn('previous_holder_id', 'text')
          .addColumn('decided_by', 'text', (c) => c.references('operators.id').onDelete('set null'))
          .addColumn('decided_at', time)
          .addColumn('reason', 'text')
          .addColumn('priority', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
          .addColumn('fields_total', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('fields_to_review', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('result_json', 'text')
          .addColumn('error_json', 'text')
          .addColumn('created_at', time, (c) => c.notNull())
          .addColumn('updated_at', time, (c) => c.notNull())
          .addColumn('ready_at', time)
          .execute();
        // Taking the next document: the waiting ones in priority, then age, order.
        await db.schema
          .createIndex('documents_queue')
          .on('documents')
          .columns(['state', 'priority desc', 'ready_at', 'id'])
          .execute();
        // Expired leases are found by time.
        await db.schema
          .createIndex('documents_lease')
          .on('documents')
          .columns(['state', 'lease_expires_at'])
          .execute();
        // The queue view, newest first, filtered by model or operator.
        await db.schema
          .createIndex('documents_created')
          .on('documents')
          .columns(['created_at', 'id'])
          .execute();
        await db.schema
          .createIndex('documents_model')
          .on('documents')
          .columns(['model_key', 'created_at'])
          .execute();
        await db.schema.createIndex('documents_holder').on('documents').column('holder_id').execute();
        await db.schema.createIndex('documents_decider').on('documents').column('decided_by').execute();
        await db.schema
          .createIndex('documents_upstream_job')
          .on('documents')
          .columns(['api_version', 'upstream_job_id'])
          .execute();

        await db.schema
          .createTable('corrections')
          .addColumn('id', serialKey, (c) =>
            engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
          )
          .addColumn('document_id', 'text', (c) => c.notNull().references('documents.id').onDelete('cascade'))
          .addColumn('field_path', 'text', (c) => c.notNull())
          .addColumn('value_json', 'text', (c) => c.notNull())
          .addColumn('previous_json', 'text')
          .addColumn('author_id', 'text', (c) => c.notNull())
          .addColumn('created_at', time, (c) => c.notNull())
          .addColumn('document_version', 'integer', (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex('corrections_document')
          .on('corrections')
          .columns(['document_id', 'field_path', 'id'])
          .execute();

        await db.schema
          .createTable('audit_events')
          .addColumn('id', serialKey, (c) =>
            engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
          )
          .addColumn('document_id', 'text', (c) => c.references('documents.id').onDelete('cascade'))
          .addColumn('kind', 'text', (c) => c.notNull())
          .addColumn('actor_id', 'text')
          .addColumn('at', time, (c) => c.notNull())
          .addColumn('data_json', 'text')
          .execute();
        await db.schema
          .createIndex('audit_document')
          .on('audit_events')
          .columns(['document_id', 'id'])
          .execute();
      },
    },

    '0002-review-gateway': {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema as it was then
      async up(db: Kysely<any>) {
        // Pipelines that send documents through the app server's /v2 and /v1 (docs/gateway.md).
        await db.schema
          .createTable('integrations')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('name_key', 'text', (c) => c.notNull().unique())
          .addColumn('key_hash', 'text', (c) => c.notNull().unique())
          .addColumn('key_hint', 'text', (c) => c.notNull())
          .addColumn('webhook_url', 'text')
          .addColumn('webhook_secret', 'text')
          .addColumn('created_at', time, (c) => c.notNull())
          .addColumn('revoked_at', time)
          .addColumn('last_used_at', time)
          .execute();

        await db.schema
          .alterTable('documents')
          .addColumn('integration_id', 'text', (c) => c.references('integrations.id').onDelete('set null'))
          .execute();
        await db.schema
          .createIndex('documents_integration')
          .on('documents')
          .columns(['integration_id', 'created_at'])
          .execute();
        // The validated result on demand, by the upstream's inference or document id.
        await db.schema
          .createIndex('documents_upstream_result')
          .on('documents')
          .columns(['api_version', 'upstream_result_id'])
          .execute();
        // Exports: confirmed documents of a model, by decision time.
        await db.schema
          .createIndex('documents_decided')
          .on('documents')
          .columns(['state', 'model_key', 'decided_at'])
          .execute();

        // Per model (v2) or product (v1): routing rules, business rules, feedback upstream on or off.
        await db.schema
          .createTable('model_settings')
          .addColumn('api_version', 'text', (c) => c.notNull().check(sql`api_version in ('v2', 'v1')`))
          .addColumn('model_key', 'text', (c) => c.notNull())
          .addColumn('routing_json', 'text', (c) => c.notNull())
          .addColumn('rules_json', 'text', (c) => c.notNull())
          .addColumn('feedback_enabled', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
          .addColumn('updated_at', time, (c) => c.notNull())
          .addColumn('updated_by', 'text', (c) => c.references('operators.id').onDelete('set null'))
          .addPrimaryKeyConstraint('model_settings_pk', ['api_version', 'model_key'])
          .execute();

        // The way back: each confirmation's webhook and feedback, kept until delivered (an outbox).
        await db.schema
          .createTable('deliveries')
          .addColumn('id', serialKey, (c) =>
            engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
          )
          .addColumn('document_id', 'text', (c) => c.notNull().references('documents.id').onDelete('cascade'))
          .addColumn('integration_id', 'text', (c) => c.references('integrations.id').onDelete('set null'))
          .addColumn('kind', 'text', (c) =>
            c.notNull().check(sql`kind in ('webhook', 'v1_feedback', 'v2_rag')`),
          )
          .addColumn('decided_at', time, (c) => c.notNull())
          .addColumn('state', 'text', (c) =>
            c.notNull().check(sql`state in ('pending', 'delivered', 'failed')`),
          )
          .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('next_attempt_at', time, (c) => c.notNull())
          .addColumn('lease_until', time)
          .addColumn('last_status', 'integer')
          .addColumn('last_error', 'text')
          .addColumn('payload_json', 'text', (c) => c.notNull())
          .addColumn('created_at', time, (c) => c.notNull())
          .addColumn('updated_at', time, (c) => c.notNull())
          .addColumn('delivered_at', time)
          .addUniqueConstraint('deliveries_once', ['document_id', 'kind', 'decided_at'])
          .execute();
        await db.schema
          .createIndex('deliveries_due')
          .on('deliveries')
          .columns(['state', 'next_attempt_at'])
          .execute();
        await db.schema
          .createIndex('deliveries_document')
          .on('deliveries')
          .columns(['document_id', 'id'])
          .execute();

        await db.schema
          .createTable('delivery_attempts')
          .addColumn('id', serialKey, (c) =>
            engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
          )
          .addColumn('delivery_id', 'integer', (c) =>
            c.notNull().references('deliveries.id').onDelete('cascade'),
          )
          .addColumn('at', time, (c) => c.notNull())
          .addColumn('outcome', 'text', (c) => c.notNull())
          .addColumn('status', 'integer')
          .addColumn('error', 'text')
          .addColumn('duration_ms', 'integer', (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex('delivery_attempts_delivery')
          .on('delivery_attempts')
          .columns(['delivery_id', 'id'])
          .execute();
      },
    },
    '0003-gateway-ownership': {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema as it was then
      async up(db: Kysely<any>) {
        // Which integration each upstream id the gateway handed out belongs to (gateway/ownership.ts):
        // written before the answer leaves, so a pipeline's next call finds it.
        await db.schema
          .createTable('gateway_ids')
          .addColumn('api_version', 'text', (c) => c.notNull().check(sql`api_version in ('v2', 'v1')`))
          .addColumn('kind', 'text', (c) =>
            c.notNull().check(sql`kind in ('job', 'inference', 'document', 'rag_document')`),
          )
          .addColumn('upstream_id', 'text', (c) => c.notNull())
          .addColumn('integration_id', 'text', (c) =>
            c.notNull().references('integrations.id').onDelete('cascade'),
          )
          .addColumn('created_at', time, (c) => c.notNull())
          .addPrimaryKeyConstraint('gateway_ids_pk', ['api_version', 'kind', 'upstream_id'])
          .execute();
      },
    },
    '0004-kept-files': keptFiles(engine),
    '0005-job-follow-leases': jobFollowLeases(engine),
    '0006-background-work': backgroundWork(engine),
    '0007-uploads': uploads(),
    '0008-saved-queues': savedQueues(engine),
    '0009-unchecked-gate': uncheckedGate(engine),
    '0010-operator-access': {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema as it was then
      async up(db: Kysely<any>) {
        // Issue 21: an admin deactivates an operator (kept, with their history, but signed out and
        // refused at sign-in) and resets a password through a one-time link.
        await db.schema.alterTable('operators').addColumn('deactivated_at', time).execute();
        await db.schema
          .createTable('password_links')
          .addColumn('token_hash', 'text', (c) => c.primaryKey())
          .addColumn('operator_id', 'text', (c) => c.notNull().references('operators.id').onDelete('cascade'))
          .addColumn('created_by', 'text')
          .addColumn('created_at', time, (c) => c.notNull())
          .addColumn('expires_at', time, (c) => c.notNull())
          .addColumn('used_at', time)
          .execute();
        await db.schema
          .createIndex('password_links_operator')
          .on('password_links')
          .column('operator_id')
          .execute();
      },
    },
    '0011-saved-filters': savedFilters(engine),
    '0012-preset-reasons': {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema as it was then
      async up(db: Kysely<any>) {
        // Issue 21: the reasons each model's review offers (reject, postpone, override), saved with
        // its settings' version; null is the defaults.
        await db.schema.alterTable('model_settings').addColumn('reasons_json', 'text').execute();
      },
    },
    '0013-assignments': assignments(engine),
    '0014-retention': {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema as it was then
      async up(db: Kysely<any>) {
        // Issue 22: how long each model's decided documents and their files are kept (null: for
        // ever), saved with its settings' version; and when retention removed a document's file.
        await db.schema.alterTable('model_settings').addColumn('files_after_days', 'integer').execute();
        await db.schema.alterTable('model_settings').addColumn('documents_after_days', 'integer').execute();
        // The sweep finds a model's decided documents by decision time with 0002's documents_decided.
        await db.schema.alterTable('documents').addColumn('file_removed_at', time).execute();
      },
    },
    '0015-request-limits': requestLimits(engine),
    '0016-purge-log': {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema as it was then
      async up(db: Kysely<any>) {
        // Issue 22: what each retention purge did (a copy's sweep or `npm run documents -- purge`),
        // for the admins' log: when, which copy, how much per model, what failed. Never a file name.
        await db.schema
          .createTable('purge_runs')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('started_at', time, (c) => c.notNull())
          .addColumn('finished_at', time, (c) => c.notNull())
          .addColumn('copy', 'text', (c) => c.notNull())
          .addColumn('trigger', 'text', (c) => c.notNull().check(sql`trigger in ('sweep', 'command')`))
          .addColumn('files_removed', 'integer', (c) => c.notNull())
          .addColumn('documents_deleted', 'integer', (c) => c.notNull())
          .addColumn('models_json', 'text', (c) => c.notNull())
          .addColumn('errors_json', 'text', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('purge_runs_started').on('purge_runs').column('started_at').execute();
      },
    },
    '0017-oidc-identities': {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema as it was then
      async up(db: Kysely<any>) {
        // Issue 22: the OpenID Connect identities (issuer and subject, the provider's stable id of a
        // person) linked to operators; an e-mail can change, the subject does not.
        await db.schema
          .createTable('oidc_identities')
          .addColumn('issuer', 'text', (c) => c.notNull())
          .addColumn('subject', 'text', (c) => c.notNull())
          .addColumn('operator_id', 'text', (c) => c.notNull().references('operators.id').onDelete('cascade'))
          .addColumn('created_at', time, (c) => c.notNull())
          .addColumn('last_sign_in_at', time, (c) => c.notNull())
          .addPrimaryKeyConstraint('oidc_identities_pk', ['issuer', 'subject'])
          .execute();
        await db.schema
          .createIndex('oidc_identities_operator')
          .on('oidc_identities')
          .column('operator_id')
          .execute();
      },
    },
    '0018-queue-counts': queueCounts(engine),
    '0019-name-search': nameSearch(engine),
    '0020-same-file-order': {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema as it was then
      async up(db: Kysely<any>) {
        // Issue 22: the queue's "same file as" look-up (store/queue-store.ts, earlierSameFile) asks
        // for a hash's earliest document by (created_at, id). 0007's index on (file_sha256,
        // created_at) left the tie to a sort, so SQLite, once its statistics saw a million documents
        // with few hashes, walked documents_created instead, for each listed row: a first page of
        // 1,000,000 documents took 100 s. With the id in the index the look-up is one seek.
        await db.schema.dropIndex('documents_file_sha256').ifExists().execute();
        await db.schema
          .createIndex('documents_same_file')
          .ifNotExists()
          .on('documents')
          .columns(['file_sha256', 'created_at', 'id'])
          .execute();
      },
    },
  };
}
