/**
 * pdfjs-dist 6 targets Node 22. On Node 20 it needs these two, imported before pdf.js is loaded
 * (shared/TOOLCHAIN.md): without `Promise.withResolvers` `getDocument` throws; without
 * `ArrayBuffer.prototype.transferToFixedLength` pdf.js silently loses text.
 */
const promiseStatics = Promise as unknown as { withResolvers?: unknown };
if (typeof promiseStatics.withResolvers !== 'function') {
  promiseStatics.withResolvers = function withResolvers<T>() {
    let resolve!: (value: T) => void;
    let reject!: (reason?: unknown) => void;
    const promise = new Promise<T>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    return { promise, resolve, reject };
  };
}

const bufferProto = ArrayBuffer.prototype as unknown as {
  transferToFixedLength?: unknown;
  transfer?: unknown;
};
if (typeof bufferProto.transferToFixedLength !== 'function') {
  // A copy, not a real transfer (the source is not detached): pdf.js only needs the new buffer.
  const copy = function (this: ArrayBuffer, length = this.byteLength): ArrayBuffer {
    const out = new ArrayBuffer(length);
    new Uint8Array(out).set(new Uint8Array(this, 0, Math.min(length, this.byteLength)));
    return out;
  };
  bufferProto.transferToFixedLength = copy;
  if (typeof bufferProto.transfer !== 'function') bufferProto.transfer = copy;
}

export {};
