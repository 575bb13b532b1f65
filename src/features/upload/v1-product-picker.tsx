import { useQuery } from '@tanstack/react-query';
import { useId, useMemo } from 'react';
import { v1ProductsQueryOptions } from '../../api/v1/products';
import type { V1Mode } from '../../api/v1/upload';
import {
  knownProducts,
  knownV1Product,
  type CheckedV1Product,
  type V1ProductState,
} from '../../lib/v1-product';

interface Props {
  state: V1ProductState;
  onChange: (patch: Partial<V1ProductState>) => void;
  checked: CheckedV1Product;
  /** Show the check's message: the operator has tried to send. */
  showProblem: boolean;
}

const unique = (values: string[]) => [...new Set(values)];

/**
 * The v1 product (account, name, version: free text, the service's listed products suggested) and
 * whether to predict synchronously (the document in the answer) or through the queue.
 */
export function V1ProductPicker({ state, onChange, checked, showProblem }: Props) {
  const ids = { account: useId(), name: useId(), version: useId(), hint: useId(), lists: useId() };
  // The service's list when it has one (the reference service); none from the hosted API (404).
  const listing = useQuery(v1ProductsQueryOptions());
  const products = useMemo(() => knownProducts(listing.data ?? []), [listing.data]);
  const known = knownV1Product(state, products);
  const modeRefused = known && !known.modes.includes(state.mode);
  const problem = !checked.ok && showProblem ? checked : null;
  const fields = [
    ['account', 'Account', unique(products.map((p) => p.account))],
    ['name', 'Product name', unique(products.map((p) => p.name))],
    ['version', 'Version', unique(products.map((p) => p.version))],
  ] as const;

  return (
    <fieldset className="flex flex-col gap-3" aria-describedby={ids.hint}>
      <legend className="text-sm font-medium">v1 product</legend>
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-[1fr_1fr_6rem]">
        {fields.map(([key, label, suggestions]) => (
          <div key={key} className="flex flex-col gap-1">
            <label htmlFor={ids[key]} className="text-sm">
              {label}
            </label>
            <input
              id={ids[key]}
              value={state[key]}
              list={`${ids.lists}-${key}`}
              onChange={(e) => onChange({ [key]: e.target.value })}
              aria-invalid={problem?.field === key}
              spellCheck={false}
              autoComplete="off"
              className="rounded-md border border-slate-300 px-3 py-2 font-mono text-sm aria-invalid:border-red-700"
            />
            <datalist id={`${ids.lists}-${key}`}>
              {suggestions.map((s) => (
                <option key={s} value={s} />
              ))}
            </datalist>
          </div>
        ))}
      </div>
      <p id={ids.hint} className={`text-xs ${problem ? 'text-red-800' : 'text-slate-600'}`}>
        {problem?.message ??
          (products.length > 0
            ? `Products of this service: ${products
                .map(
                  (p) =>
                    `${p.account}/${p.name}/v${p.version}${p.modes.length === 1 ? ` (${p.modes[0]} only)` : ''}`,
                )
                .join(', ')}.`
            : 'The account, name and version of the API, as in its URL (mindee/invoices/v4).')}
      </p>
      <fieldset className="flex flex-col gap-1">
        <legend className="text-sm">Mode</legend>
        <div className="flex flex-wrap gap-4 text-sm">
          {(
            [
              ['async', 'Asynchronous: queued, then followed'],
              ['sync', 'Synchronous: the answer waits for the prediction'],
            ] as const satisfies readonly (readonly [V1Mode, string])[]
          ).map(([mode, label]) => (
            <label key={mode} className="flex items-center gap-2">
              <input
                type="radio"
                name="v1-mode"
                value={mode}
                checked={state.mode === mode}
                onChange={() => onChange({ mode })}
              />
              {label}
            </label>
          ))}
        </div>
        {modeRefused && (
          <p className="text-xs text-amber-900">
            This product does not take {state.mode} predictions: the service will refuse them (403).
          </p>
        )}
      </fieldset>
    </fieldset>
  );
}
