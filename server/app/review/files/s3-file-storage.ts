/**
 * FILE_STORAGE=s3: documents' files in an S3-compatible bucket (AWS S3, MinIO, Ceph, Garage…), through
 * the official AWS SDK. Objects are `<prefix><key>` (prefix `files/`), so the bucket may hold other
 * things, which the sweep never touches. Credentials come from the SDK's standard chain
 * (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, a profile, an instance or pod role), never from our
 * settings.
 *
 * - save: streamed with lib-storage's `Upload` (a multipart upload in 5 MiB parts, two at a time: at
 *   most ~10 MiB of a file in memory; one PutObject for a smaller file). The object appears only when
 *   the upload completes, whole; when the stream fails or is cut, the multipart upload is aborted (its
 *   parts freed) and nothing appears. S3 acknowledges a write once it is durably stored.
 * - open: GetObject's body as a stream, its size from ContentLength.
 * - Against a store other than AWS (S3_ENDPOINT set), the SDK's newer default checksums (a streamed
 *   body sent `aws-chunked` with a trailing CRC32) are asked only when the operation requires them:
 *   many S3-compatible servers refuse them (docs/decisions/0008-s3-test-server.md). Integrity does
 *   not rest on them: the SHA-256 of every file is computed as it streams and kept with its document.
 *
 * A crash leaves at most an incomplete multipart upload, which is invisible and which S3 cannot tell
 * the maker of: a bucket lifecycle rule (AbortIncompleteMultipartUpload after a day) removes them
 * (docs/review-store.md). Objects no document names are removed by the sweep once past the grace.
 */
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import {
  assertFileKey,
  FILE_KEY,
  measuring,
  type KeptFileStorage,
  type StorageSweep,
  type StorageSweepOptions,
  type StoredFile,
} from './file-storage';
import { THIS_PROCESS } from './process-mark';
import { unnamedKeys } from './unnamed-keys';

export interface S3Settings {
  bucket: string;
  /** An S3-compatible server's URL; unset: AWS itself. */
  endpoint?: string | undefined;
  region: string;
  forcePathStyle: boolean;
  /** Default `files/`. */
  prefix?: string | undefined;
  /** Tests only: otherwise the SDK's standard chain (environment, profile, role). */
  credentials?: { accessKeyId: string; secretAccessKey: string } | undefined;
  /** Default 5 MiB, S3's smallest. */
  partBytes?: number | undefined;
}

const PART_BYTES = 5 * 1024 * 1024;
/** Parts uploaded at once (and so held in memory) per file. */
const PARTS_AT_ONCE = 2;

export class S3FileStorage implements KeptFileStorage {
  readonly kind = 's3';
  readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;
  private readonly partBytes: number;

  constructor(settings: S3Settings) {
    this.bucket = settings.bucket;
    this.prefix = settings.prefix ?? 'files/';
    this.partBytes = settings.partBytes ?? PART_BYTES;
    this.client = new S3Client({
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      ...(settings.endpoint === undefined
        ? {}
        : {
            endpoint: settings.endpoint,
            requestChecksumCalculation: 'WHEN_REQUIRED' as const,
            responseChecksumValidation: 'WHEN_REQUIRED' as const,
          }),
      ...(settings.credentials === undefined ? {} : { credentials: settings.credentials }),
    });
  }

  private objectKey(key: string): string {
    assertFileKey(key);
    return `${this.prefix}${key}`;
  }

  async save(key: string, source: Readable): Promise<StoredFile> {
    const Key = this.objectKey(key);
    const measure = measuring();
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key, Body: measure.through, ContentType: 'application/octet-stream' },
      partSize: this.partBytes,
      queueSize: PARTS_AT_ONCE,
      leavePartsOnError: false,
    });
    const feeding = pipeline(source, measure.through);
    // An upload that fails stops the feeding (and so the source), which would otherwise wait for ever.
    const uploading = upload.done().catch((error: unknown) => {
      measure.through.destroy(error instanceof Error ? error : new Error(String(error)));
      throw error;
    });
    const results = await Promise.allSettled([feeding, uploading]);
    const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failure !== undefined) {
      // lib-storage has aborted its multipart upload by then (it reads the body's error, aborts, and
      // only then rejects). An object complete all the same (the body failed after its last byte) is
      // removed: nothing of a failed save stays.
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key })).catch(() => undefined);
      throw failure.reason;
    }
    return measure.result();
  }

  async open(key: string): Promise<{ stream: Readable; bytes: number } | undefined> {
    try {
      const got = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }),
      );
      if (got.Body === undefined || got.ContentLength === undefined)
        throw new Error(`the object of file ${key} came without a body or a length`);
      return { stream: got.Body as Readable, bytes: got.ContentLength };
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  async stat(key: string): Promise<{ bytes: number } | undefined> {
    try {
      const head = await this.client.send(
        new HeadObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }),
      );
      return { bytes: head.ContentLength ?? 0 };
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  async remove(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
  }

  async check(): Promise<void> {
    const Key = `${this.prefix}probes/${THIS_PROCESS.host}-${THIS_PROCESS.pid}-${randomUUID()}`;
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key, Body: 'ok' }));
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key }));
  }

  async sweepOrphans(options: StorageSweepOptions): Promise<StorageSweep> {
    const swept: StorageSweep = { files: 0, parts: 0, bytes: 0 };
    const before = options.now - options.graceMs;
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.prefix, ContinuationToken: token }),
      );
      const old = (page.Contents ?? []).flatMap((object) => {
        const name = object.Key?.slice(this.prefix.length) ?? '';
        const at = object.LastModified?.getTime() ?? Number.POSITIVE_INFINITY;
        return FILE_KEY.test(name) && at < before ? [{ name, size: object.Size ?? 0 }] : [];
      });
      for await (const unnamed of unnamedKeys(options.database, old, (entry) => entry.name)) {
        for (const entry of unnamed) {
          await this.remove(entry.name);
          swept.files += 1;
          swept.bytes += entry.size;
        }
      }
      token = page.IsTruncated === true ? page.NextContinuationToken : undefined;
    } while (token !== undefined);
    return swept;
  }

  async close(): Promise<void> {
    this.client.destroy();
  }
}

function isNotFound(error: unknown): boolean {
  return (
    error instanceof S3ServiceException &&
    (error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404)
  );
}
