import { describe, expect, it } from 'vitest';
import { checkDataSchemaEditor } from './data-schema-check';
import { INVOICE_TEMPLATE, schemaText } from './data-schema-template';
import { locateJson, locatePointer, positionAt } from './json-locate';

describe('locateJson', () => {
  const text = '{\n  "a": [1, {"b/c": true}],\n  "d": "x"\n}';

  it('knows where every value and key starts, by JSON Pointer', () => {
    const located = locateJson(text);
    expect(located.syntaxError).toBeNull();
    expect(positionAt(text, located.values.get('#/a') ?? -1)).toMatchObject({ line: 2, column: 8 });
    expect(positionAt(text, located.keys.get('#/a/1/b~1c') ?? -1)).toMatchObject({ line: 2, column: 13 });
    expect(positionAt(text, located.values.get('#/d') ?? -1)).toMatchObject({ line: 3, column: 8 });
  });

  it('places a pointer on its key, or on the nearest ancestor when the member is missing', () => {
    const located = locateJson(text);
    expect(locatePointer(text, located, '#/d')).toMatchObject({ line: 3, column: 3 });
    expect(locatePointer(text, located, '#/a/1/missing')).toMatchObject({ line: 2, column: 12 });
    expect(locatePointer(text, located, '#/nothing/here')).toMatchObject({ line: 1, column: 1 });
  });

  it.each([
    ['{"a": 1,}', 1, 9, /trailing comma/],
    ['{\n  "a": 1\n  "b": 2\n}', 3, 3, /"," or a "}" was expected after the value of "a"/],
    ["{'a': 1}", 1, 2, /double quotes/],
    ['{a: 1}', 1, 2, /double quotes/],
    ['{"a": [1, 2}', 1, 12, /"," or a "]" was expected/],
    ['{"a": "open', 1, 7, /not closed/],
    ['{"a": tru}', 1, 7, /A value was expected/],
    ['', 1, 1, /empty/],
    ['{} x', 1, 4, /Nothing may follow/],
  ])('finds the exact place of a syntax error in %j', (source, line, column, message) => {
    const { syntaxError } = locateJson(source);
    expect(syntaxError?.message).toMatch(message);
    expect(positionAt(source, syntaxError?.offset ?? -1)).toMatchObject({ line, column });
  });
});

describe('checkDataSchemaEditor', () => {
  it('accepts the invoice template, with its field count', () => {
    const check = checkDataSchemaEditor(schemaText(INVOICE_TEMPLATE));
    expect(check.ok).toBe(true);
    if (check.ok) expect(check.fieldCount).toBe(INVOICE_TEMPLATE.length);
  });

  it("points at each problem's line with the API layer's message", () => {
    const text = [
      '{',
      '  "replace": {',
      '    "fields": [',
      '      {',
      '        "name": "Total Amount",',
      '        "title": "Total",',
      '        "is_array": false,',
      '        "type": "number",',
      '        "colour": "red"',
      '      }',
      '    ]',
      '  }',
      '}',
    ].join('\n');
    const check = checkDataSchemaEditor(text);
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.issues.map((i) => [i.line, i.path])).toEqual([
      [4, 'replace.fields[0].description'],
      [5, 'replace.fields[0].name'],
      [9, 'replace.fields[0].colour'],
    ]);
    expect(check.issues[1]?.message).toMatch(/lowercase letters/);
    expect(check.issues[2]?.message).toBe('unexpected key');
    expect(check.issues[0]?.message).toMatch(/required/);
  });

  it('reports a syntax error on its line rather than at the top', () => {
    const check = checkDataSchemaEditor('{\n  "replace": {\n    "fields": [],\n  }\n}');
    expect(check).toMatchObject({ ok: false, issues: [{ line: 4, column: 3, path: '(root)' }] });
  });

  it('hints past about 25 fields', () => {
    const fields = Array.from({ length: 26 }, (_, i) => ({
      name: `field_${i}`,
      title: `Field ${i}`,
      description: `Field number ${i}`,
      type: 'string',
      is_array: false,
    }));
    const check = checkDataSchemaEditor(JSON.stringify({ replace: { fields } }));
    expect(check.ok && check.hint).toMatch(/about 25 at most/);
  });
});
