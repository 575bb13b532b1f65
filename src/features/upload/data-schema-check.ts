/**
 * The data-schema editor's check: the API layer's own (`checkDataSchemaText`, the schema the request is
 * checked with before it leaves), with every problem placed on its line and column.
 */
import {
  RECOMMENDED_MAX_FIELDS,
  checkDataSchemaText,
  type DataSchema,
} from '@extraction-review/contract/v2/request-schemas';
import { locateJson, locatePointer, positionAt } from './json-locate';

export interface LocatedIssue {
  line: number;
  column: number;
  offset: number;
  /** `replace.fields[0].name`, or `(root)`. */
  path: string;
  message: string;
}

export type DataSchemaCheck =
  | { ok: true; value: DataSchema; fieldCount: number; hint: string | null }
  | { ok: false; issues: LocatedIssue[] };

export function checkDataSchemaEditor(text: string): DataSchemaCheck {
  const checked = checkDataSchemaText(text);
  const locations = locateJson(text);
  if (checked.success) {
    const fieldCount = checked.data.replace?.fields.length ?? 0;
    return {
      ok: true,
      value: checked.data,
      fieldCount,
      hint:
        fieldCount > RECOMMENDED_MAX_FIELDS
          ? `${fieldCount} fields: about ${RECOMMENDED_MAX_FIELDS} at most is recommended for good results.`
          : null,
    };
  }
  const { syntaxError } = locations;
  if (syntaxError) {
    // Our reader says where and what; JSON.parse's message differs between browsers and has no line.
    const at = positionAt(text, syntaxError.offset);
    return { ok: false, issues: [{ ...at, path: '(root)', message: syntaxError.message }] };
  }
  const issues = checked.issues.map((issue) => ({
    ...locatePointer(text, locations, issue.pointer),
    path: issue.path,
    message: issue.message,
  }));
  return { ok: false, issues: issues.sort((a, b) => a.offset - b.offset) };
}
