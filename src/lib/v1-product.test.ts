import { describe, expect, it } from 'vitest';
import {
  INITIAL_V1_PRODUCT,
  checkV1Product,
  knownProducts,
  knownV1Product,
  v1JobHref,
  v1ProductLabel,
  v1Ref,
} from './v1-product';

describe('the v1 product of an upload', () => {
  it('is checked as the request will be, its version normalised', () => {
    expect(checkV1Product({ ...INITIAL_V1_PRODUCT, version: ' v4 ', mode: 'sync' })).toEqual({
      ok: true,
      product: { account: 'mindee', name: 'invoices', version: '4', mode: 'sync' },
      label: 'mindee/invoices/v4',
    });
  });

  it('says which field is missing or wrong', () => {
    expect(checkV1Product({ ...INITIAL_V1_PRODUCT, name: '' })).toMatchObject({
      ok: false,
      field: 'name',
      message: "Give the product's name.",
    });
    expect(checkV1Product({ ...INITIAL_V1_PRODUCT, account: 'a/b' })).toMatchObject({
      ok: false,
      field: 'account',
    });
    expect(checkV1Product({ ...INITIAL_V1_PRODUCT, version: 'four' })).toMatchObject({
      ok: false,
      field: 'version',
      message: expect.stringMatching(/^The version: /),
    });
  });

  it('knows the modes of the listed products only', () => {
    const products = knownProducts([
      { account: 'mindee', name: 'invoices', version: '4', sync: true, async: true, feedback: true },
      {
        account: 'acme-corp',
        name: 'purchase_orders',
        version: '1',
        sync: false,
        async: true,
        feedback: false,
      },
    ]);
    expect(products[0]?.modes).toEqual(['async', 'sync']);
    expect(
      knownV1Product({ account: 'acme-corp', name: 'purchase_orders', version: 'v1', mode: 'sync' }, products)
        ?.modes,
    ).toEqual(['async']);
    expect(knownV1Product({ ...INITIAL_V1_PRODUCT, account: 'someone' }, products)).toBeUndefined();
    // The hosted v1 API lists none: nothing is known, nothing is refused in advance.
    expect(knownV1Product(INITIAL_V1_PRODUCT, [])).toBeUndefined();
  });

  it('names products and their pages', () => {
    expect(v1ProductLabel({ account: 'mindee', name: 'invoices', version: 'v4' })).toBe('mindee/invoices/v4');
    expect(v1JobHref('a b')).toBe('/jobs/v1/a%20b');
    // The endpoints' product schema is strict: the mode stays out of it.
    expect(v1Ref({ account: 'mindee', name: 'invoices', version: '4', mode: 'sync' })).toEqual({
      account: 'mindee',
      name: 'invoices',
      version: '4',
    });
  });
});
