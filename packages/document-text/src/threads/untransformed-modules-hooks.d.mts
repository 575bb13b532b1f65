/** pdf.js's source with its RGB chunk conversion fixed (see untransformed-modules-hooks.mjs). */
export function patchPdfJs(source: string): string;
/** pdf.js's source without its `//# sourceMappingURL=` comment (see untransformed-modules-hooks.mjs). */
export function withoutSourceMap(source: string): string;
