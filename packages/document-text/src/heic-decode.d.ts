/** Types of heic-decode 2.1 (the package ships none): libheif-js (WASM) behind a small API. */
declare module 'heic-decode' {
  interface DecodedImage {
    width: number;
    height: number;
    /** RGBA, 4 bytes per pixel. */
    data: Uint8ClampedArray;
  }
  interface LazyImage {
    width: number;
    height: number;
    decode(): Promise<DecodedImage>;
  }
  interface Decode {
    (input: { buffer: ArrayBufferLike | Uint8Array }): Promise<DecodedImage>;
    /** Every top-level image, not yet decoded; `dispose()` frees libheif's memory. */
    all(input: { buffer: ArrayBufferLike | Uint8Array }): Promise<LazyImage[] & { dispose(): void }>;
  }
  const decode: Decode;
  export default decode;
}
