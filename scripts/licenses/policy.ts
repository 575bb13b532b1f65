/**
 * Which licences a production dependency may have (README "Licence"; docs/decisions/0006-no-mupdf.md).
 * Companies run this project as a service for others, so nothing copyleft may be in production: the
 * AGPL would oblige them to publish their whole service's source, the GPL taints what links it.
 *
 * - Permissive licences pass.
 * - GPL and AGPL fail, in every version and even with an exception (WITH ...): the rule is "none".
 * - LGPL passes only for the packages listed in LGPL_ALLOWED, each with the reason: the LGPL allows
 *   using a library that stays separate (loaded at run time, replaceable by the user), not mixing it in.
 * - Anything else (an unknown identifier, `UNLICENSED`, "SEE LICENSE IN ...", no licence) fails until
 *   someone reads that licence and lists it here.
 */
import { parseSpdx, SpdxSyntaxError, type SpdxExpression } from './spdx';

export type Verdict = 'permitted' | 'allowlisted' | 'unknown' | 'forbidden';

/** Use, change and run as a service with no duty beyond keeping the copyright notice. */
const PERMISSIVE = new Set([
  '0BSD',
  'Apache-2.0',
  'BlueOak-1.0.0',
  'BSD-2-Clause',
  'BSD-3-Clause',
  'CC0-1.0',
  'ISC',
  'MIT',
  'MIT-0',
  'Unlicense',
  'Zlib',
]);

export interface LgplAllowance {
  /** Matched against the package's name. */
  name: RegExp;
  reason: string;
}

/** The only packages whose LGPL is accepted, and why each keeps the LGPL code a separate library. */
export const LGPL_ALLOWED: readonly LgplAllowance[] = [
  {
    name: /^@img\/sharp-libvips-/,
    reason:
      "libvips as a shared library (libvips-cpp.so / .dylib) that sharp's native addon loads at run time; " +
      'it can be swapped for another build of libvips without relinking anything',
  },
  {
    name: /^@img\/sharp-win32-/,
    reason:
      "sharp's Windows addon (Apache-2.0) with the libvips DLLs beside it (LGPL), loaded at run time, as " +
      'the shared library is on Linux and macOS',
  },
  {
    name: /^@img\/sharp-wasm32$/,
    reason:
      'sharp built to WebAssembly with libvips inside, installed only when npm is told --cpu=wasm32 ' +
      '(never on the Linux servers this runs on); sharp publishes its source and build, so it can be ' +
      'rebuilt with a changed libvips',
  },
  {
    name: /^libheif-js$/,
    reason:
      'libheif compiled to WebAssembly in its own package, which heic-decode loads at run time; it can be ' +
      'replaced by another build of libheif without touching this project',
  },
];

export interface LicenceCheck {
  verdict: Verdict;
  /** Why, for anything but a plain pass: the allowance's reason, or the licences that failed. */
  reason?: string;
}

/** The verdict on one package's licence (an SPDX expression, or undefined when it states none). */
export function checkLicence(packageName: string, licence: string | undefined): LicenceCheck {
  if (!licence?.trim())
    return {
      verdict: 'unknown',
      reason: 'no licence in package-lock.json, nor in its installed package.json',
    };
  let expression: SpdxExpression;
  try {
    expression = parseSpdx(licence);
  } catch (error) {
    if (error instanceof SpdxSyntaxError) return { verdict: 'unknown', reason: 'not an SPDX expression' };
    throw error;
  }
  return evaluate(expression, packageName);
}

function evaluate(expression: SpdxExpression, packageName: string): LicenceCheck {
  if (expression.kind === 'license') return checkIdentifier(expression.id, packageName);
  const left = evaluate(expression.left, packageName);
  const right = evaluate(expression.right, packageName);
  // OR: the licensee chooses, so the better branch counts. AND: every licence applies at once.
  const [better, worse] = RANK[left.verdict] <= RANK[right.verdict] ? [left, right] : [right, left];
  return expression.kind === 'or' ? better : worse;
}

const RANK: Record<Verdict, number> = { permitted: 0, allowlisted: 1, unknown: 2, forbidden: 3 };

function checkIdentifier(id: string, packageName: string): LicenceCheck {
  if (PERMISSIVE.has(id)) return { verdict: 'permitted' };
  // LGPL before GPL: "LGPL-3.0" also ends in "GPL-3.0".
  if (/^LGPL-/i.test(id)) {
    const allowance = LGPL_ALLOWED.find((a) => a.name.test(packageName));
    return allowance
      ? { verdict: 'allowlisted', reason: `${id}: ${allowance.reason}` }
      : { verdict: 'forbidden', reason: `${id} (LGPL, and the package is not in LGPL_ALLOWED)` };
  }
  if (/^A?GPL-/i.test(id)) return { verdict: 'forbidden', reason: `${id} (copyleft)` };
  return { verdict: 'unknown', reason: `${id} is not a licence this policy knows` };
}

export const isViolation = (verdict: Verdict): boolean => verdict === 'unknown' || verdict === 'forbidden';
