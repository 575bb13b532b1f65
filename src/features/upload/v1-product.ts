/**
 * The v1 product an upload goes to: what the operator typed, checked with the request schema
 * (V1ProductRef), and the products the reference service is seeded with, offered as suggestions.
 *
 * Neither the app server's /api/app-config nor the reference service lists v1 products (the reference
 * reads them from its models file, docs/reference-service.md "v1 products", and serves no list), so the
 * seeded ones are written here; the fields stay free for any other product (a hosted account's own).
 */
import { check } from '../../api/issues';
import { V1ProductRef } from '../../api/v1/schemas';
import type { V1Mode } from '../../api/v1/upload';
import type { StoredV1 } from '../../lib/document-store';

export interface KnownV1Product {
  account: string;
  name: string;
  version: string;
  /** The modes the product answers; the other one gets a 403. */
  modes: readonly V1Mode[];
}

/** The reference service's seeded products (server/reference/models.json `v1_products`). */
export const SEEDED_V1_PRODUCTS: readonly KnownV1Product[] = [
  { account: 'mindee', name: 'invoices', version: '4', modes: ['sync', 'async'] },
  { account: 'mindee', name: 'expense_receipts', version: '5', modes: ['sync', 'async'] },
  { account: 'acme-corp', name: 'purchase_orders', version: '1', modes: ['async'] },
];

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

/** A seeded product the state names, to say which modes it takes; undefined for any other. */
export function knownV1Product(state: V1ProductState): KnownV1Product | undefined {
  const version = state.version.trim().replace(/^v/, '');
  return SEEDED_V1_PRODUCTS.find(
    (p) => p.account === state.account.trim() && p.name === state.name.trim() && p.version === version,
  );
}

/** The product as the v1 endpoints address it: the request schema is strict, the mode is not part of it. */
export function v1Ref({ account, name, version }: StoredV1): V1ProductRef {
  return { account, name, version };
}

/** The page of a stored v1 prediction. */
export function v1JobHref(jobId: string): string {
  return `/v1/jobs/${encodeURIComponent(jobId)}`;
}
