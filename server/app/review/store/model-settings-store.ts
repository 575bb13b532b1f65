/**
 * Each model's (v2) or product's (v1) settings: routing rules, business rules, feedback upstream on or
 * off, the reasons its review offers, how long its decided documents are kept (the `model_settings` table, packages/contract/src/review/model-settings.ts for their shapes). A model nobody
 * configured has the defaults, at version 0: every document goes to an operator, no rules, no
 * feedback. Saving is on the version read (`UPDATE … WHERE version = ?`, or an insert that only a
 * first save makes), so two admins never overwrite each other unknowingly; each save is an audit
 * event (`settings_changed`, no document).
 */
import type { Kysely, Transaction } from 'kysely';
import {
  DEFAULT_ROUTING,
  defaultReasons,
  NO_RETENTION,
  PresetReasons,
  RoutingRules,
  type RetentionSettings,
  StoredBusinessRules,
  type BusinessRules,
} from '@extraction-review/contract/review/model-settings';
import type { ReviewDatabase } from '../db/open-database';
import type { ModelSettingsRow, ReviewDatabaseSchema } from '../db/schema';
import type { ApiVersion } from '../model/review-types';
import { recordEvent } from './audit-store';
import { componentLogger } from '@extraction-review/server-kit/logger';

const logger = componentLogger('review store');

type Db = Kysely<ReviewDatabaseSchema> | Transaction<ReviewDatabaseSchema>;

export interface StoredModelSettings {
  apiVersion: ApiVersion;
  modelKey: string;
  /** 0: never saved. */
  version: number;
  routing: RoutingRules;
  rules: BusinessRules;
  feedbackEnabled: boolean;
  /** The reasons the review offers (the defaults until saved). */
  reasons: PresetReasons;
  /** How long decided documents and their files are kept (kept for ever until saved). */
  retention: RetentionSettings;
  updatedAt: number | null;
  updatedBy: { id: string; name: string | null } | null;
}

export interface SettingsInput {
  routing: RoutingRules;
  rules: BusinessRules;
  feedbackEnabled: boolean;
  /** Left out: the saved reasons stay (the defaults for a model never saved). */
  reasons?: PresetReasons | undefined;
  /** Left out: the saved retention stays (kept for ever for a model never saved). */
  retention?: RetentionSettings | undefined;
}

export type PutResult =
  { ok: true; settings: StoredModelSettings } | { ok: false; current: StoredModelSettings };

export function defaultSettings(apiVersion: ApiVersion, modelKey: string): StoredModelSettings {
  return {
    apiVersion,
    modelKey,
    version: 0,
    routing: { ...DEFAULT_ROUTING, requiredFields: [] },
    rules: [],
    feedbackEnabled: false,
    reasons: defaultReasons(),
    retention: { ...NO_RETENTION },
    updatedAt: null,
    updatedBy: null,
  };
}

export class ModelSettingsStore {
  constructor(private readonly store: ReviewDatabase) {}

  /** The model's settings, or the defaults when none were saved. */
  async get(apiVersion: ApiVersion, modelKey: string, db: Db = this.store.db): Promise<StoredModelSettings> {
    const row = await db
      .selectFrom('model_settings')
      .leftJoin('operators', 'operators.id', 'model_settings.updated_by')
      .selectAll('model_settings')
      .select('operators.name as updated_by_name')
      .where('model_settings.api_version', '=', apiVersion)
      .where('model_settings.model_key', '=', modelKey)
      .executeTakeFirst();
    return row === undefined ? defaultSettings(apiVersion, modelKey) : fromRow(row);
  }

  /** Saves the settings on `baseVersion` (0 for a model never saved); a stale version changes nothing. */
  async put(
    apiVersion: ApiVersion,
    modelKey: string,
    baseVersion: number,
    input: SettingsInput,
    actorId: string,
    now: number,
  ): Promise<PutResult> {
    const values = {
      routing_json: JSON.stringify(input.routing),
      rules_json: JSON.stringify(input.rules),
      feedback_enabled: input.feedbackEnabled ? 1 : 0,
      ...(input.reasons === undefined ? {} : { reasons_json: JSON.stringify(input.reasons) }),
      ...(input.retention === undefined
        ? {}
        : {
            files_after_days: input.retention.filesAfterDays,
            documents_after_days: input.retention.documentsAfterDays,
          }),
      updated_at: now,
      updated_by: actorId,
    };
    return this.store.db.transaction().execute(async (trx) => {
      const saved =
        baseVersion === 0
          ? await trx
              .insertInto('model_settings')
              .values({ api_version: apiVersion, model_key: modelKey, version: 1, ...values })
              .onConflict((oc) => oc.columns(['api_version', 'model_key']).doNothing())
              .returning('version')
              .executeTakeFirst()
          : await trx
              .updateTable('model_settings')
              .set({ ...values, version: baseVersion + 1 })
              .where('api_version', '=', apiVersion)
              .where('model_key', '=', modelKey)
              .where('version', '=', baseVersion)
              .returning('version')
              .executeTakeFirst();
      if (saved === undefined) return { ok: false, current: await this.get(apiVersion, modelKey, trx) };
      await recordEvent(trx, {
        documentId: null,
        kind: 'settings_changed',
        actorId,
        at: now,
        data: { apiVersion, model: modelKey, version: saved.version, ...input },
      });
      return { ok: true, settings: await this.get(apiVersion, modelKey, trx) };
    });
  }

  /** Every model with documents in the store or saved settings, with how many documents it has. */
  async list(): Promise<(StoredModelSettings & { documents: number })[]> {
    const counts = await this.store.db
      .selectFrom('documents')
      .select(['api_version', 'model_key', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy(['api_version', 'model_key'])
      .execute();
    const saved = await this.store.db
      .selectFrom('model_settings')
      .leftJoin('operators', 'operators.id', 'model_settings.updated_by')
      .selectAll('model_settings')
      .select('operators.name as updated_by_name')
      .execute();
    const key = (apiVersion: string, model: string) => `${apiVersion} ${model}`;
    const byKey = new Map(saved.map((row) => [key(row.api_version, row.model_key), fromRow(row)]));
    const documents = new Map(counts.map((row) => [key(row.api_version, row.model_key), Number(row.n)]));
    const all = new Map<string, StoredModelSettings>(byKey);
    for (const row of counts) {
      const k = key(row.api_version, row.model_key);
      if (!all.has(k)) all.set(k, defaultSettings(row.api_version, row.model_key));
    }
    return [...all.entries()]
      .map(([k, settings]) => ({ ...settings, documents: documents.get(k) ?? 0 }))
      .sort((a, b) => a.apiVersion.localeCompare(b.apiVersion) || a.modelKey.localeCompare(b.modelKey));
  }
}

/**
 * A row as settings. What no longer fits the schema (written by another version of the app) falls back
 * to the defaults, which send documents to an operator: never an automatic confirmation by mistake.
 */
function fromRow(row: ModelSettingsRow & { updated_by_name: string | null }): StoredModelSettings {
  const routing = RoutingRules.safeParse(parseJson(row.routing_json));
  // Stored rules read leniently: a pattern RE2 refuses (saved before it ran them) fails as a rule.
  const rules = StoredBusinessRules.safeParse(parseJson(row.rules_json));
  const fits = routing.success && rules.success;
  if (!fits)
    logger.error(
      { api_version: row.api_version, model: row.model_key },
      "a model's settings do not fit their schema: the defaults apply",
    );
  return {
    apiVersion: row.api_version,
    modelKey: row.model_key,
    version: row.version,
    routing: fits ? routing.data : { ...DEFAULT_ROUTING, requiredFields: [] },
    rules: fits ? rules.data : [],
    feedbackEnabled: row.feedback_enabled === 1,
    reasons: reasonsOf(row),
    retention: {
      filesAfterDays: row.files_after_days === null ? null : Number(row.files_after_days),
      documentsAfterDays: row.documents_after_days === null ? null : Number(row.documents_after_days),
    },
    updatedAt: row.updated_at,
    updatedBy: row.updated_by === null ? null : { id: row.updated_by, name: row.updated_by_name },
  };
}

/** The saved reasons, or the defaults (none saved, or not fitting: the review still offers some). */
function reasonsOf(row: ModelSettingsRow): PresetReasons {
  if (row.reasons_json === null) return defaultReasons();
  const reasons = PresetReasons.safeParse(parseJson(row.reasons_json));
  if (reasons.success) return reasons.data;
  logger.error(
    { api_version: row.api_version, model: row.model_key },
    "a model's preset reasons do not fit their schema: the defaults apply",
  );
  return defaultReasons();
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Whether v1 feedback is on for this v1 product, as stored (0, 1 or no row), in `db`'s transaction if any. */
export async function findFeedbackEnabled(
  db: Db,
  modelKey: string,
): Promise<{ feedback_enabled: ModelSettingsRow['feedback_enabled'] } | undefined> {
  return db
    .selectFrom('model_settings')
    .select('feedback_enabled')
    .where('api_version', '=', 'v1')
    .where('model_key', '=', modelKey)
    .executeTakeFirst();
}
