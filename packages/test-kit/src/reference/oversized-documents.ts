/**
 * Small files that declare enormous documents, as an attacker sends them (issue 18): a blank PDF page
 * of 8000 × 8000 pt (22 222² pixels at the OCR resolution), a page too large to render at any
 * resolution worth reading, a PDF of more pages than allowed, a PNG whose header declares 30 000 ×
 * 30 000 pixels, and a real (decodable) picture just over the pixel limit. Shared by the reference
 * service's and the page words' attack tests, with the measures they report.
 */
import { crc32 } from 'node:zlib';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';

/** One blank page of `width` × `height` points. */
export async function blankPagePdf(width: number, height = width): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.addPage([width, height]);
  return pdf.save();
}

/** `pages` blank Letter pages. */
export async function manyPagesPdf(pages: number): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  for (let i = 0; i < pages; i++) pdf.addPage([612, 792]);
  return pdf.save();
}

/**
 * A valid 1 × 1 grey PNG whose header (IHDR, CRC fixed) then says `width` × `height`: a few dozen
 * bytes that a decoder without a limit would allocate width × height bytes for.
 */
export async function pngDeclaring(width: number, height: number): Promise<Buffer> {
  const png = Buffer.from(
    await sharp({ create: { width: 1, height: 1, channels: 3, background: '#ffffff' } })
      .greyscale()
      .png()
      .toBuffer(),
  );
  // Signature (8), then the IHDR chunk: length (4), type (4), width (4), height (4), ..., CRC.
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  const length = png.readUInt32BE(8);
  png.writeUInt32BE(crc32(png.subarray(12, 16 + length)), 16 + length);
  return png;
}

/** A real white picture of `width` × `height` (it decodes), compressed fast: ~100 KB for 100 MP. */
export async function whitePng(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#ffffff' } })
    .greyscale()
    .png({ compressionLevel: 1 })
    .toBuffer();
}

export interface Measures {
  /** Longest stall of this thread's event loop, in ms (perf_hooks.monitorEventLoopDelay). */
  maxEventLoopDelayMs: number;
  /** Highest resident memory of the process seen (sampled every 50 ms), in MB. */
  peakRssMb: number;
  /** Resident memory before, in MB. */
  startRssMb: number;
}

/** Runs `attack`, measuring this thread's event loop and the process's resident memory meanwhile. */
export async function measured<T>(attack: () => Promise<T>): Promise<[T, Measures]> {
  const loop = monitorEventLoopDelay({ resolution: 10 });
  const startRssMb = process.memoryUsage.rss() / 2 ** 20;
  let peakRssMb = startRssMb;
  const sampler = setInterval(() => {
    peakRssMb = Math.max(peakRssMb, process.memoryUsage.rss() / 2 ** 20);
  }, 50);
  loop.enable();
  try {
    const result = await attack();
    // The histogram records a stall at the loop's next turn: one more turn, so the last one counts.
    await new Promise((resolve) => setTimeout(resolve, 50));
    return [result, { maxEventLoopDelayMs: loop.max / 1e6, peakRssMb, startRssMb }];
  } finally {
    loop.disable();
    clearInterval(sampler);
  }
}

/** Asks `url` every `everyMs` until stopped; counts the answers by status (0: no answer). */
export function keepAsking(url: string, everyMs = 100): { stop(): Promise<Map<number, number>> } {
  const counts = new Map<number, number>();
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      // Each check has its own deadline: a stalled server shows as unanswered checks, not a hang.
      const status = await fetch(url, { signal: AbortSignal.timeout(2_000) })
        .then(async (response) => {
          await response.arrayBuffer();
          return response.status;
        })
        .catch(() => 0);
      counts.set(status, (counts.get(status) ?? 0) + 1);
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      await loop;
      return counts;
    },
  };
}
