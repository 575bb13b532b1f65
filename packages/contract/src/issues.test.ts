import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { check, describeIssues, formatPath, toPointer } from './issues';

describe('paths and pointers', () => {
  it('write a path as code would read it', () => {
    expect(formatPath([])).toBe('(root)');
    expect(formatPath(['inference', 'result', 'fields', 'total', 'locations', 0, 'polygon', 1, 0])).toBe(
      'inference.result.fields.total.locations[0].polygon[1][0]',
    );
    expect(formatPath(['feedback', 'Bad Name', 'value'])).toBe('feedback["Bad Name"].value');
    expect(formatPath([0, 'a'])).toBe('[0].a');
  });

  it('write an RFC 6901 pointer in the form the service uses', () => {
    expect(toPointer([])).toBe('#');
    expect(toPointer(['model_id'])).toBe('#/model_id');
    expect(toPointer(['a/b', 'c~d', 0])).toBe('#/a~1b/c~0d/0');
  });
});

describe('check', () => {
  it('reads a union as the option the value was meant to be', () => {
    const Shape = z.union([
      z.object({ items: z.array(z.number()) }),
      z.object({ value: z.number().max(1, { error: 'expected number <= 1' }) }),
    ]);
    expect(check(Shape, { value: 3 })).toEqual({
      success: false,
      issues: [{ path: 'value', pointer: '#/value', message: 'expected number <= 1' }],
    });
    expect(check(z.object({ v: z.union([z.string(), z.number(), z.null()]) }), { v: [] })).toEqual({
      success: false,
      issues: [{ path: 'v', pointer: '#/v', message: 'expected string, number or null, received array' }],
    });
  });

  it('gives short messages', () => {
    const result = check(
      z.object({ n: z.int().min(1), s: z.string(), e: z.enum(['a', 'b']), list: z.array(z.string()).min(2) }),
      { n: 0, e: 'c', list: ['x'] },
    );
    expect(result.success ? [] : result.issues.map((i) => `${i.path}: ${i.message}`)).toEqual([
      'n: expected number >= 1',
      's: required (expected string)',
      'e: expected one of "a", "b", received string "c"',
      'list: expected at least 2 items',
    ]);
  });

  it('summarises issues in one line', () => {
    const issues = ['a', 'b', 'c', 'd'].map((p) => ({ path: p, pointer: `#/${p}`, message: 'bad' }));
    expect(describeIssues(issues)).toBe('a: bad; b: bad; c: bad (and 1 more)');
  });
});
