/**
 * The models the reference service knows, read from a JSON file (server/reference/models.json by
 * default, REFERENCE_MODELS_FILE otherwise) and validated once at start: a bad file stops the service
 * with a message naming the faulty member, rather than failing jobs later.
 *
 * A model's `data_schema` is checked with the same strict schema as the `data_schema` request
 * parameter (packages/contract/src/v2/request-schemas.ts), so whatever the models file holds, a request could send.
 * Webhook signing secrets are written in the file (`secret`) or, so that no secret need be committed,
 * named by an environment variable (`secret_env`), read at start.
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { checkDataSchemaFields, type FieldSchema } from '@extraction-review/contract/v2/field-schema';

const WebhookEntry = z
  .strictObject({
    id: z.uuid(),
    name: z.string().min(1),
    url: z.url({ protocol: /^https?$/ }),
    /** The signing secret itself. */
    secret: z.string().min(1).optional(),
    /** The name of the environment variable that holds the signing secret. */
    secret_env: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'expected an environment variable name')
      .optional(),
  })
  .refine((w) => (w.secret === undefined) !== (w.secret_env === undefined), {
    message: 'give exactly one of secret (the signing secret) and secret_env (the variable that holds it)',
  });

/** Options active when a request does not set them (what `active_options` reports). */
const DefaultOptions = z.strictObject({
  raw_text: z.boolean().default(true),
  polygon: z.boolean().default(true),
  confidence: z.boolean().default(true),
  rag: z.boolean().default(false),
  multipage_context: z.boolean().default(false),
});

const ModelEntry = z.strictObject({
  id: z.uuid(),
  name: z.string().min(1),
  model_type: z.enum(['extraction']),
  webhooks: z.array(WebhookEntry).default([]),
  default_options: DefaultOptions.prefault({}),
  /** Delete the inference (and the uploaded document) once its result has been fetched. */
  delete_after_fetch: z.boolean().default(false),
  /** Checked below with the shared data-schema contract. */
  data_schema: z.unknown(),
});

/**
 * How one field of a v1 product is read from its model's (v2) field: `from` names the model field;
 * `keys` maps the v1 keys of an object field or of a list's items to the model's sub-fields (v1
 * writes `value` for a tax's amount, `total_amount` for a line's total price); `percent` lists the
 * keys v1 gives in percent where the model answers fractions (rates); `values` maps classification
 * values to v1's (`invoice` → `INVOICE`).
 */
const V1FieldEntry = z.strictObject({
  name: z.string().regex(/^[a-z0-9_]+$/),
  from: z.string().min(1),
  keys: z.record(z.string().regex(/^[a-z0-9_]+$/), z.string().min(1)).optional(),
  percent: z.array(z.string()).default([]),
  values: z.record(z.string(), z.string()).optional(),
});

/** A product of the earlier API (`/v1/products/<account>/<name>/v<version>/...`). */
const V1ProductEntry = z.strictObject({
  account: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]*$/),
  name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]*$/),
  /** Major version, as the path writes it without its `v` (`4`). */
  version: z.string().regex(/^\d+$/),
  /** The `product.version` the document bodies report (`4.11`); default `<version>.0`. */
  full_version: z
    .string()
    .regex(/^\d+\.\d+$/)
    .optional(),
  /** The model whose field finding reads the documents. */
  model_id: z.uuid(),
  /** `standard` for the ready-made APIs, `custom` for an account's own. */
  type: z.enum(['standard', 'custom']).default('custom'),
  sync: z.boolean(),
  async: z.boolean(),
  feedback: z.boolean().default(false),
  /**
   * `true`: polygons are written in each page's upright frame (`is_rotation_applied: true`, as the
   * hosted ready-made APIs do); `false`: in the frame of the page as stored, left for the client to
   * turn by `orientation.value` (`is_rotation_applied: false`).
   */
  rotation_applied: z.boolean().default(true),
  /**
   * v1 webhooks: v1 has no `webhook_ids`, so every endpoint here is called when a `predict_async` job
   * of the product ends (as the hosted service's per-API webhook setting does); same entries as a
   * model's `webhooks`.
   */
  webhooks: z.array(WebhookEntry).default([]),
  fields: z.array(V1FieldEntry).min(1),
});

const ModelsFile = z
  .strictObject({ models: z.array(ModelEntry).min(1), v1_products: z.array(V1ProductEntry).default([]) })
  .superRefine((file, ctx) => {
    const seen = new Set<string>();
    file.models.forEach((model, i) => {
      if (seen.has(model.id.toLowerCase())) {
        ctx.addIssue({ code: 'custom', path: ['models', i, 'id'], message: 'model ids must be unique' });
      }
      seen.add(model.id.toLowerCase());
      const hooks = new Set<string>();
      model.webhooks.forEach((hook, j) => {
        if (hooks.has(hook.id.toLowerCase())) {
          ctx.addIssue({
            code: 'custom',
            path: ['models', i, 'webhooks', j, 'id'],
            message: 'webhook ids must be unique within a model',
          });
        }
        hooks.add(hook.id.toLowerCase());
      });
    });
    const products = new Set<string>();
    file.v1_products.forEach((product, i) => {
      const key = v1ProductKey(product);
      if (products.has(key)) {
        ctx.addIssue({ code: 'custom', path: ['v1_products', i], message: `${key} is defined twice` });
      }
      products.add(key);
      const hooks = new Set<string>();
      product.webhooks.forEach((hook, j) => {
        if (hooks.has(hook.id.toLowerCase())) {
          ctx.addIssue({
            code: 'custom',
            path: ['v1_products', i, 'webhooks', j, 'id'],
            message: 'webhook ids must be unique within a product',
          });
        }
        hooks.add(hook.id.toLowerCase());
      });
      const model = file.models.find((m) => m.id.toLowerCase() === product.model_id.toLowerCase());
      if (!model) {
        ctx.addIssue({
          code: 'custom',
          path: ['v1_products', i, 'model_id'],
          message: 'no model has this id',
        });
      } else {
        // Read loosely: the data schema itself is checked afterwards, with its own messages.
        const schema = model.data_schema as { fields?: { name?: unknown }[] } | null;
        const names = new Set((schema?.fields ?? []).map((f) => f.name));
        product.fields.forEach((field, j) => {
          if (!names.has(field.from)) {
            ctx.addIssue({
              code: 'custom',
              path: ['v1_products', i, 'fields', j, 'from'],
              message: `the model ${model.id} has no field ${field.from}`,
            });
          }
        });
      }
      if (!product.sync && !product.async) {
        ctx.addIssue({
          code: 'custom',
          path: ['v1_products', i],
          message: 'a product supports sync, async or both',
        });
      }
    });
  });

export type V1Field = z.infer<typeof V1FieldEntry>;
/** A v1 product, its webhooks' secrets resolved as a model's are. */
export type V1Product = Omit<z.infer<typeof V1ProductEntry>, 'webhooks'> & { webhooks: ModelWebhook[] };

/** `account/name/version` in lower case: how a product is looked up. */
export const v1ProductKey = (p: { account: string; name: string; version: string }): string =>
  `${p.account}/${p.name}/${p.version}`.toLowerCase();

export interface ModelWebhook {
  id: string;
  name: string;
  url: string;
  /** The signing secret (resolved from `secret_env` when the file names a variable). Never shown. */
  secret: string;
}

export type ModelOptions = z.infer<typeof DefaultOptions>;

export interface Model {
  id: string;
  name: string;
  model_type: 'extraction';
  webhooks: ModelWebhook[];
  default_options: ModelOptions;
  delete_after_fetch: boolean;
  data_schema: { fields: FieldSchema[] };
}

export class ModelCatalog {
  private readonly byId: Map<string, Model>;
  private readonly productsByKey: Map<string, V1Product>;

  constructor(
    readonly models: readonly Model[],
    readonly products: readonly V1Product[] = [],
  ) {
    this.byId = new Map(models.map((m) => [m.id.toLowerCase(), m]));
    this.productsByKey = new Map(products.map((p) => [v1ProductKey(p), p]));
  }

  find(id: string): Model | undefined {
    return this.byId.get(id.toLowerCase());
  }

  /** A v1 product by its `v1ProductKey`. */
  findProductByKey(key: string): V1Product | undefined {
    return this.productsByKey.get(key.toLowerCase());
  }

  /** A v1 product; `version` without its `v`. */
  findProduct(account: string, name: string, version: string): V1Product | undefined {
    return this.productsByKey.get(v1ProductKey({ account, name, version }));
  }
}

/**
 * Reads and checks the models file. `env` is where `secret_env` variables are looked up (default the
 * process environment).
 */
export async function loadModelCatalog(
  file: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<ModelCatalog> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new Error(`Cannot read the models file ${file}: ${(error as Error).message}`, { cause: error });
  }
  return new ModelCatalog(parseModels(json, env, file), parseV1Products(json, env, file));
}

/** The v1 products of a models file already checked by `parseModels`, webhook secrets resolved. */
export function parseV1Products(
  json: unknown,
  env: Readonly<Record<string, string | undefined>> = {},
  where = 'models file',
): V1Product[] {
  const problems: string[] = [];
  const products = ModelsFile.parse(json).v1_products.map((product, i) => ({
    ...product,
    webhooks: product.webhooks.map((hook, j) =>
      resolveWebhook(hook, env, `v1_products[${i}].webhooks[${j}]`, problems),
    ),
  }));
  if (problems.length > 0) throw new Error(`Invalid models file ${where}:\n${problems.join('\n')}`);
  return products;
}

/** A webhook entry with its secret read (from `secret_env` when it names a variable). */
function resolveWebhook(
  hook: z.infer<typeof WebhookEntry>,
  env: Readonly<Record<string, string | undefined>>,
  at: string,
  problems: string[],
): ModelWebhook {
  let secret = hook.secret ?? '';
  if (hook.secret_env !== undefined) {
    secret = env[hook.secret_env] ?? '';
    if (secret === '') {
      problems.push(
        `  ✖ the environment variable ${hook.secret_env} (the webhook's signing secret) is not set\n` +
          `    → at ${at}.secret_env`,
      );
    }
  }
  return { id: hook.id, name: hook.name, url: hook.url, secret };
}

/** The models of a parsed models file, or an Error listing every problem (`where` names the file). */
export function parseModels(
  json: unknown,
  env: Readonly<Record<string, string | undefined>>,
  where = 'models file',
): Model[] {
  const parsed = ModelsFile.safeParse(json);
  if (!parsed.success) throw new Error(`Invalid models file ${where}:\n${z.prettifyError(parsed.error)}`);

  const problems: string[] = [];
  const models = parsed.data.models.map((entry, i): Model => {
    const schema = checkDataSchemaFields(entry.data_schema);
    if (!schema.success) {
      for (const issue of schema.issues) {
        problems.push(`  ✖ ${issue.message}\n    → at models[${i}].data_schema${pathSuffix(issue.path)}`);
      }
    }
    const webhooks = entry.webhooks.map((hook, j) =>
      resolveWebhook(hook, env, `models[${i}].webhooks[${j}]`, problems),
    );
    return {
      id: entry.id,
      name: entry.name,
      model_type: entry.model_type,
      webhooks,
      default_options: entry.default_options,
      delete_after_fetch: entry.delete_after_fetch,
      data_schema: { fields: schema.success ? schema.fields : [] },
    };
  });
  if (problems.length > 0) throw new Error(`Invalid models file ${where}:\n${problems.join('\n')}`);
  return models;
}

/** `fields[0].name` → `.fields[0].name`; the root stays empty. */
const pathSuffix = (path: string): string =>
  path === '(root)' ? '' : path.startsWith('[') ? path : `.${path}`;

/** A webhook added to every model besides the models file's own (`extraWebhooks` of the service). */
export interface ExtraWebhook {
  id: string;
  name: string;
  /**
   * `http(s)` URL; a function is read at each call, for a receiver whose port is known only once it
   * listens (the app server embedding the service on port 0).
   */
  url: string | (() => string);
  secret: string;
}

/**
 * The catalogue with `extra` webhooks on every model (the app server's own receiver, when it embeds
 * the service). An id that a model already has in the models file stops the service: which of the
 * two would be called would be a guess.
 */
export function withExtraWebhooks(catalog: ModelCatalog, extra: readonly ExtraWebhook[]): ModelCatalog {
  if (extra.length === 0) return catalog;
  const hooks = extra.map((hook): ModelWebhook => {
    if (!z.uuid().safeParse(hook.id).success)
      throw new Error(`Extra webhook ${hook.name}: id ${hook.id} is not a UUID`);
    if (hook.secret === '') throw new Error(`Extra webhook ${hook.name}: its signing secret is empty`);
    const { url } = hook;
    if (typeof url === 'string') return { id: hook.id, name: hook.name, url, secret: hook.secret };
    return {
      id: hook.id,
      name: hook.name,
      secret: hook.secret,
      get url() {
        return url();
      },
    };
  });
  const ids = new Set(hooks.map((hook) => hook.id.toLowerCase()));
  return new ModelCatalog(
    catalog.models.map((model) => {
      const clash = model.webhooks.find((hook) => ids.has(hook.id.toLowerCase()));
      if (clash) {
        throw new Error(
          `The webhook id ${clash.id} is both added to every model and configured on the model ${model.id} ` +
            'in the models file; give one of them another id.',
        );
      }
      return { ...model, webhooks: [...model.webhooks, ...hooks] };
    }),
    catalog.products,
  );
}
