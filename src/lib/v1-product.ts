/**
 * The v1 product an upload goes to: what the operator typed, checked with the request schema
 * (V1ProductRef), and the products the service lists (the reference service's extension
 * `GET /v1/extensions/products`) offered as suggestions. The hosted v1 API lists none: the fields are
 * free for any product of the operator's account.
 */
import { check } from '@extraction-review/contract/issues';
import { V1ProductRef } from '@extraction-review/contract/v1/schemas';
import type { V1ProductListing } from '../api/v1/products';
import type { V1Mode } from '../api/v1/upload';
import type { StoredV1 } from './document-store';

export interface KnownV1Product {
  account: string;
  name: string;
  version: string;
  /** The modes the product answers; the other one gets a 403. */
  modes: readonly V1Mode[];
}

/** The service's own list (reference extension, src/api/v1/products.ts) as the form uses it. */
export function knownProducts(listing: readonly V1ProductListing[]): KnownV1Product[] {
  return listing.map(({ account, name, version, sync, async }) => ({
    account,
    name,
    version,
    modes: [...(async ? (['async'] as const) : []), ...(sync ? (['sync'] as const) : [])],
  }));
}

export interface V1ProductState {
  account: string;
  name: string;
  version: string;
  mode: V1Mode;
}

export const INITIAL_V1_PRODUCT: V1ProductState = {
  account: 'mindee',
  name: 'invoices',
  version: '4',
  mode: 'async',
};

export type CheckedV1Product =
  | { ok: true; product: StoredV1; label: string }
  | { ok: false; field: 'account' | 'name' | 'version'; message: string };

/** `mindee/invoices/v4`: how the list and the job page name a product. */
export function v1ProductLabel(product: { account: string; name: string; version: string }): string {
  return `${product.account}/${product.name}/v${product.version.replace(/^v/, '')}`;
}

const FIELDS = ['account', 'name', 'version'] as const;

/** The typed product checked as the request will be; the version normalised (`v4` → `4`). */
export function checkV1Product(state: V1ProductState): CheckedV1Product {
  const checked = check(V1ProductRef, {
    account: state.account.trim(),
    name: state.name.trim(),
    version: state.version.trim(),
  });
  if (!checked.success) {
    const issue = checked.issues[0];
    const field = FIELDS.find((f) => issue?.path.startsWith(f)) ?? 'account';
    const empty = state[field].trim() === '';
    return {
      ok: false,
      field,
      message: empty ? `Give the product's ${field}.` : `The ${field}: ${issue?.message ?? 'not valid'}.`,
    };
  }
  const { account, name, version } = checked.data;
  const product = { account, name, version, mode: state.mode };
  return { ok: true, product, label: v1ProductLabel(product) };
}

/** A listed product the state names, to say which modes it takes; undefined for any other. */
export function knownV1Product(
  state: V1ProductState,
  products: readonly KnownV1Product[],
): KnownV1Product | undefined {
  const version = state.version.trim().replace(/^v/, '');
  return products.find(
    (p) => p.account === state.account.trim() && p.name === state.name.trim() && p.version === version,
  );
}

/** The product as the v1 endpoints address it: the request schema is strict, the mode is not part of it. */
export function v1Ref({ account, name, version }: StoredV1): V1ProductRef {
  return { account, name, version };
}

/** The page of a stored v1 prediction. */
export function v1JobHref(jobId: string): string {
  return `/jobs/v1/${encodeURIComponent(jobId)}`;
}
