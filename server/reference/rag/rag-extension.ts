/**
 * RAG as the reference service wires it: the store on the service's database, and the extension
 * routes to mount under `/v2`. The job service uses `store` (ragPostProcess, rememberInference).
 */
import type Database from 'better-sqlite3';
import type { Hono } from 'hono';
import type { Clock } from '@extraction-review/server-kit/clock';
import { createRagRoutes, RAG_ROUTES_BASE } from './rag-routes';
import { RagStore } from './rag-store';

export interface RagExtension {
  store: RagStore;
  /** Mounts the extension routes on the `/v2` app (behind its key check): `/v2/extensions/rag/…`. */
  extendV2(v2: Hono): void;
}

export function openRag(context: {
  database: Database.Database;
  models: { find(id: string): object | undefined };
  /** Dates the texts and documents kept; default the system's. */
  clock?: Clock;
}): RagExtension {
  const store = new RagStore(context.database, context.clock);
  const routes = createRagRoutes({ store, models: context.models });
  return { store, extendV2: (v2) => void v2.route(RAG_ROUTES_BASE, routes) };
}
