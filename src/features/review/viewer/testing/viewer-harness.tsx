/**
 * Bench harness (bench/viewer-harness.html, built only by `npm run bench -- viewer`): the real
 * DocumentViewer on a fixed-size box, with the viewer state of the review, fed either
 * - `?file=<pdf url>&synthetic=grid&count=2000`: synthetic leaves, a grid of `count` polygons on page 1;
 * - `?file=<pdf url>&synthetic=lines&perPage=4`: a few synthetic polygons on every page;
 * - `?file=<pdf url>&result=<json url>`: a real result of the reference service;
 * and `&w=&h=` the viewer's size in CSS pixels (1000 × 900).
 */
import '../../../../app/zod-config';
import '../../../../index.css';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { ExtractionResponse } from '@extraction-review/contract/v2/schemas';
import { flattenFields, type FieldLeaf } from '@extraction-review/review-domain/fields/flatten-fields';
import { useViewerState } from '../../viewer-state';
import DocumentViewer from '../document-viewer';

const params = new URLSearchParams(location.search);

function syntheticGrid(count: number): FieldLeaf[] {
  const columns = Math.ceil(Math.sqrt(count * 0.8));
  const rows = Math.ceil(count / columns);
  const levels = ['Certain', 'High', 'Medium', 'Low'] as const;
  return Array.from({ length: count }, (_, i) => {
    const x = 0.04 + (0.92 * (i % columns)) / columns;
    const y = 0.04 + (0.92 * Math.floor(i / columns)) / rows;
    const w = (0.92 / columns) * 0.8;
    const h = (0.92 / rows) * 0.7;
    return {
      path: `cells[${i}].value`,
      name: `value`,
      value: `V${i}`,
      confidence: levels[i % 4] ?? null,
      locations: [
        {
          page: 0,
          polygon: [
            [x, y],
            [x + w, y],
            [x + w, y + h],
            [x, y + h],
          ],
        },
      ],
    };
  });
}

function syntheticLines(pages: number, perPage: number): FieldLeaf[] {
  return Array.from({ length: pages * perPage }, (_, i) => {
    const page = Math.floor(i / perPage);
    const y = 0.1 + 0.2 * (i % perPage);
    return {
      path: `pages[${page}].line[${i % perPage}]`,
      name: 'line',
      value: `line ${i}`,
      confidence: 'High',
      locations: [
        {
          page,
          polygon: [
            [0.1, y],
            [0.6, y],
            [0.6, y + 0.03],
            [0.1, y + 0.03],
          ],
        },
      ],
    };
  });
}

async function load(): Promise<{ file: Blob; leaves: FieldLeaf[] }> {
  // The harness fetches its own inputs; the app proper speaks HTTP only through src/api.
  // eslint-disable-next-line no-restricted-globals
  const file = await (await fetch(params.get('file') ?? '')).blob();
  const result = params.get('result');
  if (result) {
    // eslint-disable-next-line no-restricted-globals
    const json: unknown = await (await fetch(result)).json();
    return { file, leaves: flattenFields(ExtractionResponse.parse(json).inference.result.fields) };
  }
  if (params.get('synthetic') === 'grid')
    return { file, leaves: syntheticGrid(Number(params.get('count') ?? 2000)) };
  return {
    file,
    leaves: syntheticLines(Number(params.get('pages') ?? 200), Number(params.get('perPage') ?? 4)),
  };
}

function Harness() {
  const [input, setInput] = useState<{ file: Blob; leaves: FieldLeaf[] } | null>(null);
  const [state, dispatch] = useViewerState();
  useEffect(() => {
    void load().then(setInput);
  }, []);
  useEffect(() => {
    Object.assign(window, { viewerBench: { dispatch, state } });
  }, [dispatch, state]);
  if (!input) return <p>Loading the inputs…</p>;
  return (
    <main style={{ width: Number(params.get('w') ?? 1000), height: Number(params.get('h') ?? 900) }}>
      <DocumentViewer file={input.file} leaves={input.leaves} state={state} dispatch={dispatch} />
    </main>
  );
}

const root = document.getElementById('root');
if (!root) throw new Error('No #root');
// As in the app, whose viewer may ask the API (a page's words).
const queryClient = new QueryClient();
createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <Harness />
    </QueryClientProvider>
  </StrictMode>,
);
