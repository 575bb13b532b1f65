/**
 * The test S3 server answers the official AWS SDK as the FILE_STORAGE=s3 backend uses it: a streamed
 * multipart upload read back byte for byte, a small object, a listing, and an aborted multipart upload
 * whose parts are gone (the abort the starter adds to s3rver).
 */
import {
  AbortMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Server, type S3Server } from './s3-server';

describe('the test S3 server', () => {
  let server: S3Server;
  let client: S3Client;

  beforeAll(async () => {
    server = await startS3Server();
    client = new S3Client({
      endpoint: server.endpoint,
      region: server.region,
      forcePathStyle: true,
      credentials: { accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey },
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  });
  afterAll(async () => {
    client.destroy();
    await server.stop();
  });

  it('takes a streamed multipart upload and gives it back', async () => {
    const bytes = 11 * 1024 * 1024 + 17;
    const sent = createHash('sha256');
    const body = Readable.from(
      (function* () {
        for (let at = 0; at < bytes; at += 64 * 1024) {
          const chunk = Buffer.alloc(Math.min(64 * 1024, bytes - at), at % 251);
          sent.update(chunk);
          yield chunk;
        }
      })(),
    );
    await new Upload({
      client,
      params: { Bucket: server.bucket, Key: 'big', Body: body },
      partSize: 5 * 1024 * 1024,
    }).done();
    const got = await client.send(new GetObjectCommand({ Bucket: server.bucket, Key: 'big' }));
    expect(got.ContentLength).toBe(bytes);
    const read = createHash('sha256');
    for await (const chunk of got.Body as Readable) read.update(chunk as Buffer);
    expect(read.digest('hex')).toBe(sent.digest('hex'));
  });

  it('puts, heads and aborts', async () => {
    await client.send(
      new PutObjectCommand({ Bucket: server.bucket, Key: 'small', Body: Buffer.from('hello') }),
    );
    expect(
      (await client.send(new HeadObjectCommand({ Bucket: server.bucket, Key: 'small' }))).ContentLength,
    ).toBe(5);
    // A bucket-level request, signed over `/bucket/`.
    const listed = await client.send(new ListObjectsV2Command({ Bucket: server.bucket, Prefix: 'sm' }));
    expect(listed.Contents?.map((object) => object.Key)).toEqual(['small']);

    const { UploadId } = await client.send(
      new CreateMultipartUploadCommand({ Bucket: server.bucket, Key: 'cut' }),
    );
    await client.send(
      new UploadPartCommand({
        Bucket: server.bucket,
        Key: 'cut',
        UploadId,
        PartNumber: 1,
        Body: Buffer.alloc(1024),
      }),
    );
    expect(await server.pendingUploads()).toBe(1);
    await client.send(new AbortMultipartUploadCommand({ Bucket: server.bucket, Key: 'cut', UploadId }));
    expect(await server.pendingUploads()).toBe(0);
    await expect(
      client.send(new AbortMultipartUploadCommand({ Bucket: server.bucket, Key: 'cut', UploadId })),
    ).rejects.toMatchObject({ name: 'NoSuchUpload' });
  });
});
