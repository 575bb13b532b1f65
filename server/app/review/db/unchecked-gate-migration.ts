/**
 * Migration 0009-unchecked-gate (issue 21): per model (v2) or product (v1), whether its
 * unchecked-values gate is strict (packages/contract/src/review/unchecked-gate.ts). A model without
 * a row asks the operator (the default). Apart from `model_settings`, so that the gate and the rules
 * are saved each on its own, neither overwriting the other.
 *
 * Expand-only: a new table, which older code never reads (it confirms as before, without the gate).
 */
import type { Kysely, Migration } from 'kysely';
import type { Engine } from './migrations';

export function uncheckedGate(engine: Engine): Migration {
  const time = engine === 'postgres' ? 'bigint' : 'integer';
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema as it was then
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('unchecked_gates')
        .addColumn('api_version', 'text', (c) => c.notNull())
        .addColumn('model_key', 'text', (c) => c.notNull())
        // 1: strict (no confirmation with unchecked values); 0: the operator is asked.
        .addColumn('strict', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('updated_at', time, (c) => c.notNull())
        .addColumn('updated_by', 'text', (c) => c.references('operators.id').onDelete('set null'))
        .addPrimaryKeyConstraint('unchecked_gates_pk', ['api_version', 'model_key'])
        .execute();
    },
  };
}
