/**
 * The production dependency tree as `package-lock.json` (v2/v3) records it: every entry of `packages`
 * not marked `dev`. That includes optional packages (platform builds of sharp, @napi-rs/canvas...) and
 * `devOptional` ones (dev for us, but optional dependencies of a production package), whether or not
 * they are installed on this machine: production on another platform counts too.
 */

export interface ProductionPackage {
  /** Where it is in the tree, e.g. `node_modules/a/node_modules/b`. */
  path: string;
  name: string;
  version: string;
  /** As the package states it (an SPDX expression, normally); undefined when it states none. */
  licence: string | undefined;
}

interface LockEntry {
  name?: string;
  version?: string;
  license?: unknown;
  licenses?: unknown;
  dev?: boolean;
  link?: boolean;
}

/**
 * `readManifest(path)` gives the installed package.json at a lock path, or undefined: it is read only
 * for entries whose lock entry has no `license` (npm copies only a string `license` field into the lock,
 * not the legacy `licenses` array that old packages such as busboy still use).
 */
export function productionPackages(
  lock: unknown,
  readManifest: (path: string) => unknown,
): ProductionPackage[] {
  const packages = (lock as { packages?: Record<string, LockEntry> } | null)?.packages;
  if (!packages || typeof packages !== 'object') {
    throw new Error('package-lock.json has no "packages" section: lockfileVersion 2 or 3 is needed');
  }
  const found: ProductionPackage[] = [];
  for (const [path, entry] of Object.entries(packages)) {
    // "" is this project itself; a link points at a folder listed under its own path.
    if (path === '' || entry.dev || entry.link) continue;
    const name = entry.name ?? path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
    found.push({
      path,
      name,
      version: entry.version ?? '',
      licence: licenceOf(entry) ?? licenceOf(readManifest(path)),
    });
  }
  return found.sort((a, b) => a.path.localeCompare(b.path));
}

/**
 * The licence a package.json (or lock entry) states: `license` as a string, or the deprecated
 * `{ type }` object, or the deprecated `licenses` array, whose entries npm documents as alternatives
 * (`[{type: "MIT"}, {type: "Apache-2.0"}]` is `(MIT OR Apache-2.0)`).
 */
export function licenceOf(manifest: unknown): string | undefined {
  if (!manifest || typeof manifest !== 'object') return undefined;
  const { license, licenses } = manifest as { license?: unknown; licenses?: unknown };
  const typeOf = (value: unknown): string | undefined =>
    typeof value === 'string'
      ? value
      : value && typeof value === 'object' && typeof (value as { type?: unknown }).type === 'string'
        ? (value as { type: string }).type
        : undefined;
  const single = typeOf(license);
  if (single?.trim()) return single;
  if (!Array.isArray(licenses)) return undefined;
  const types = licenses.map(typeOf).filter((t): t is string => !!t?.trim());
  if (types.length === 0) return undefined;
  return types.length === 1 ? types[0] : `(${types.join(' OR ')})`;
}
