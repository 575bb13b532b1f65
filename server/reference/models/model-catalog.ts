/**
 * The models the reference service knows, read from a JSON file (server/reference/models.json by
 * default, REFERENCE_MODELS_FILE otherwise) and validated once at start: a bad file stops the service
 * with a message naming the faulty member, rather than failing jobs later.
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { FieldSchema } from './field-schema';

const Webhook = z.strictObject({ id: z.uuid(), name: z.string(), url: z.url() });

/** Options active when a request does not set them (what `active_options` reports). */
const DefaultOptions = z.strictObject({
  raw_text: z.boolean().default(true),
  polygon: z.boolean().default(true),
  confidence: z.boolean().default(true),
  rag: z.boolean().default(false),
  multipage_context: z.boolean().default(false),
});

const Model = z.strictObject({
  id: z.uuid(),
  name: z.string().min(1),
  model_type: z.enum(['extraction']),
  webhooks: z.array(Webhook).default([]),
  default_options: DefaultOptions.prefault({}),
  data_schema: z.strictObject({ fields: z.array(FieldSchema).min(1) }),
});

const ModelsFile = z
  .strictObject({ models: z.array(Model).min(1) })
  .refine((file) => new Set(file.models.map((m) => m.id.toLowerCase())).size === file.models.length, {
    message: 'model ids must be unique',
  });

export type Model = z.infer<typeof Model>;
export type ModelOptions = Model['default_options'];

export class ModelCatalog {
  private readonly byId: Map<string, Model>;

  constructor(readonly models: readonly Model[]) {
    this.byId = new Map(models.map((m) => [m.id.toLowerCase(), m]));
  }

  find(id: string): Model | undefined {
    return this.byId.get(id.toLowerCase());
  }
}

export async function loadModelCatalog(file: string): Promise<ModelCatalog> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new Error(`Cannot read the models file ${file}: ${(error as Error).message}`, { cause: error });
  }
  const parsed = ModelsFile.safeParse(json);
  if (!parsed.success) {
    throw new Error(`Invalid models file ${file}:\n${z.prettifyError(parsed.error)}`);
  }
  return new ModelCatalog(parsed.data.models);
}
