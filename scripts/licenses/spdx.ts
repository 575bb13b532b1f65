/**
 * SPDX licence expressions (`MIT`, `(MIT OR Apache-2.0)`, `Apache-2.0 AND LGPL-3.0-or-later`,
 * `GPL-2.0-only WITH Classpath-exception-2.0`) parsed into a tree, so that a policy can decide on each
 * licence and combine the answers: OR passes if any branch does, AND only if all do.
 *
 * Grammar (SPDX 2.3 annex D): OR binds looser than AND, AND looser than WITH; parentheses group.
 * Operators are matched whatever their case: package.json files in the wild write `and`/`or` too.
 */

export type SpdxExpression =
  | { kind: 'license'; id: string; orLater: boolean; exception?: string }
  | { kind: 'and' | 'or'; left: SpdxExpression; right: SpdxExpression };

export class SpdxSyntaxError extends Error {
  override name = 'SpdxSyntaxError';
}

/** Throws a SpdxSyntaxError for what is not an expression (empty, unbalanced, a dangling operator). */
export function parseSpdx(text: string): SpdxExpression {
  const tokens = text.match(/\(|\)|[^\s()]+/g) ?? [];
  let at = 0;
  const peek = (): string | undefined => tokens[at];
  const isOperator = (token: string | undefined, name: string): boolean => token?.toUpperCase() === name;

  const orExpression = (): SpdxExpression => {
    let left = andExpression();
    while (isOperator(peek(), 'OR')) {
      at++;
      left = { kind: 'or', left, right: andExpression() };
    }
    return left;
  };
  const andExpression = (): SpdxExpression => {
    let left = withExpression();
    while (isOperator(peek(), 'AND')) {
      at++;
      left = { kind: 'and', left, right: withExpression() };
    }
    return left;
  };
  const withExpression = (): SpdxExpression => {
    const simple = atom();
    if (!isOperator(peek(), 'WITH')) return simple;
    at++;
    const exception = tokens[at++];
    if (simple.kind !== 'license' || !exception || !isIdentifier(exception)) {
      throw new SpdxSyntaxError(`"WITH" must join a licence and an exception in "${text}"`);
    }
    return { ...simple, exception };
  };
  const atom = (): SpdxExpression => {
    const token = tokens[at++];
    if (token === '(') {
      const inner = orExpression();
      if (tokens[at++] !== ')') throw new SpdxSyntaxError(`missing ")" in "${text}"`);
      return inner;
    }
    if (!token || !isIdentifier(token) || ['AND', 'OR', 'WITH'].includes(token.toUpperCase())) {
      throw new SpdxSyntaxError(`expected a licence at "${token ?? 'the end'}" in "${text}"`);
    }
    const orLater = token.endsWith('+');
    return { kind: 'license', id: orLater ? token.slice(0, -1) : token, orLater };
  };

  const expression = orExpression();
  if (at !== tokens.length) throw new SpdxSyntaxError(`unexpected "${tokens[at]}" in "${text}"`);
  return expression;
}

/** Identifiers: letters, digits, `.`, `-` (and `LicenseRef-`/`DocumentRef-` forms), an optional `+`. */
const isIdentifier = (token: string): boolean => /^[A-Za-z0-9][A-Za-z0-9.:-]*\+?$/.test(token);

/** Every licence identifier in the expression, in order. */
export function licenseIds(expression: SpdxExpression): string[] {
  return expression.kind === 'license'
    ? [expression.id]
    : [...licenseIds(expression.left), ...licenseIds(expression.right)];
}
