/** pdf.js's source with its RGB chunk conversion fixed (see untransformed-modules-hooks.mjs). */
export function patchPdfJs(source: string): string;
