/**
 * Every migration declares the oldest code it keeps working with (schema-compatibility.ts): a new
 * migration without an entry fails here, so its author decides expand (the code before it) or contract
 * (itself) rather than inheriting a default.
 */
import { describe, expect, it } from 'vitest';
import { knownMigrations } from './migrate';
import { reviewMigrations } from './migrations';
import { OLDEST_CODE_FOR, oldestCodeFor } from './schema-compatibility';

describe('schema compatibility', () => {
  const known = knownMigrations();

  it('has an entry for every migration of migrations.ts', () => {
    const missing = known.filter((name) => OLDEST_CODE_FOR[name] === undefined);
    expect(
      missing,
      'Declare in schema-compatibility.ts the oldest code each new migration keeps working with',
    ).toEqual([]);
  });

  it('names, for each, a migration at or before it (a code that exists and is not newer)', () => {
    for (const name of known) {
      const oldest = OLDEST_CODE_FOR[name] ?? '';
      expect(known, `${name}: ${oldest} is not a migration`).toContain(oldest);
      expect(known.indexOf(oldest), `${name}: ${oldest} comes after it`).toBeLessThanOrEqual(
        known.indexOf(name),
      );
    }
  });

  it('lists migrations in the order Kysely applies them (by name), the same on both engines', () => {
    expect(Object.keys(reviewMigrations('sqlite'))).toEqual(known);
    expect(Object.keys(reviewMigrations('postgres'))).toEqual(known);
  });

  it('defaults an undeclared migration to the code before it, as for an expand-only one', () => {
    expect(oldestCodeFor('0003-x', ['0001-a', '0002-b', '0003-x'], {})).toBe('0002-b');
    expect(oldestCodeFor('0001-a', ['0001-a'], {})).toBe('0001-a');
    expect(oldestCodeFor('0003-x', ['0001-a', '0002-b', '0003-x'], { '0003-x': '0001-a' })).toBe('0001-a');
  });
});
