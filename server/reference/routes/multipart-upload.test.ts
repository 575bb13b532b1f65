/**
 * readUploadForm refused mid-upload leaves nothing on disk, whichever finishes first: the parser's
 * refusal or the file stream opening its file (which, once open, would otherwise create it empty after
 * the refusal was reported and the caller had nothing left to remove).
 */
import { access, mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readUploadForm } from './multipart-upload';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'multipart-upload-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A request whose body starts a file part, then fails (the client gone) or ends too soon. */
function cutShort(how: 'error' | 'end'): Request {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(
        encoder.encode(
          '--XYZ\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF-1.7 ',
        ),
      );
      if (how === 'error') controller.error(new Error('the client went away'));
      else controller.close();
    },
  });
  return new Request('http://127.0.0.1/upload', {
    method: 'POST',
    headers: { 'Content-Type': 'multipart/form-data; boundary=XYZ' },
    body,
    duplex: 'half',
  } as RequestInit);
}

const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

describe('readUploadForm refused mid-file', () => {
  it.each(['error', 'end'] as const)('leaves no file when the body %ss in the file part', async (how) => {
    const destinations = Array.from({ length: 30 }, (_, i) => path.join(dir, `${how}-${i}.part`));
    const outcomes = await Promise.allSettled(
      destinations.map((destination) =>
        readUploadForm(cutShort(how), {
          fileField: 'file',
          destination,
          maxFileBytes: 1 << 20,
          maxFieldBytes: 1024,
        }),
      ),
    );
    expect(outcomes.every((outcome) => outcome.status === 'rejected')).toBe(true);
    // Right after the refusal, with nobody else to clean up.
    expect(await Promise.all(destinations.map(exists))).toEqual(destinations.map(() => false));
    expect((await readdir(dir)).filter((name) => name.startsWith(how))).toEqual([]);
  });
});
