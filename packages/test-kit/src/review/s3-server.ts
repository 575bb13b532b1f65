/**
 * A throw-away S3-compatible server for tests: `@20minutes/s3rver` (a maintained fork of s3rver, MIT,
 * installed from the npm registry as a devDependency; docs/decisions/0008-s3-test-server.md) on
 * 127.0.0.1, its objects in a temp dir removed by stop(), with one bucket made at start. The FILE_STORAGE=s3
 * backend speaks to it through the official AWS SDK exactly as it would to MinIO or AWS: nothing mocked.
 *
 * s3rver has no AbortMultipartUpload (DELETE ?uploadId; jamhall/s3rver#784 is still open), which the
 * backend sends when an upload fails: the starter adds it (the upload's parts removed, as S3 does), so a
 * test can see, through pendingUploads(), that a failed upload left no parts behind. And it checks the
 * signature of a bucket-level request (ListObjectsV2: `GET /bucket/?list-type=2`) against `/bucket`,
 * where AWS SDK v3 signed `/bucket/`: the starter has it check `/bucket/` for such a request.
 *
 * Also a script, for a test that wants the server in a process of its own (e2e):
 *   tsx packages/test-kit/src/review/s3-server.ts [port]   → prints one JSON line {endpoint, bucket, ...},
 * runs until SIGTERM or SIGINT.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { S3Settings } from '@extraction-review/app-server/review/files/s3-file-storage';

export interface S3ServerOptions {
  /** 0 (the default) for a free port. */
  port?: number;
  /** Default `review-files`. */
  bucket?: string;
}

export interface S3Server {
  /** `http://127.0.0.1:<port>`: S3_ENDPOINT, with S3_FORCE_PATH_STYLE=true. */
  readonly endpoint: string;
  readonly bucket: string;
  /** The only key pair s3rver accepts (its signature checks are real). */
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly region: string;
  /** The temp dir holding the objects. */
  readonly dir: string;
  /** Multipart uploads begun and neither completed nor aborted (their parts on the server). */
  pendingUploads(): Promise<number>;
  /** Stops listening and removes the temp dir. Idempotent. */
  stop(): Promise<void>;
}

/** What this file uses of s3rver (a CommonJS module without types). */
interface S3rverInstance {
  middleware: Middleware[];
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
type Middleware = (ctx: KoaContext, next: () => Promise<void>) => Promise<void>;
interface KoaContext {
  method: string;
  path: string;
  query: Record<string, string | string[] | undefined>;
  status: number;
  body: unknown;
  type: string;
  state: Record<string, unknown>;
  mountPath?: string;
  req: IncomingMessage;
  res: ServerResponse;
}
type S3rverClass = new (options: Record<string, unknown>) => S3rverInstance;

const ACCESS_KEY = 'S3RVER';
/** s3rver keeps a bucket's multipart uploads in `<dir>/<bucket>/._S3rver_uploads/<upload id>/`. */
const UPLOADS = '._S3rver_uploads';

export async function startS3Server(options: S3ServerOptions = {}): Promise<S3Server> {
  const bucket = options.bucket ?? 'review-files';
  const dir = await mkdtemp(path.join(os.tmpdir(), 's3-server-'));
  const S3rver = createRequire(import.meta.url)('@20minutes/s3rver') as S3rverClass;
  const server = new S3rver({
    address: '127.0.0.1',
    port: options.port ?? 0,
    silent: true,
    directory: dir,
    configureBuckets: [{ name: bucket }],
  });
  const uploadsOf = (name: string): string => path.join(dir, name, UPLOADS);
  // Before s3rver's own routes, which answer MethodNotAllowed to it.
  server.middleware.unshift(async (ctx, next) => {
    const uploadId = ctx.query.uploadId;
    const [, name, ...key] = ctx.path.split('/');
    if (ctx.method !== 'DELETE' || typeof uploadId !== 'string' || !name || key.length === 0) return next();
    if (!/^[A-Za-z0-9_-]+$/.test(uploadId)) return next();
    const parts = path.join(uploadsOf(name), uploadId);
    try {
      await readdir(parts);
    } catch {
      ctx.status = 404;
      ctx.type = 'application/xml';
      ctx.body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>NoSuchUpload</Code><Message>The specified upload does not exist.</Message></Error>`;
      return;
    }
    await rm(parts, { recursive: true, force: true });
    ctx.status = 204;
    ctx.body = null;
  });
  // Just before s3rver's router (after its vhost step): a bucket-level path with its trailing slash
  // is signed over `/<bucket>/`, which s3rver computes as `'/' + bucket + mountPath` for a
  // virtual-host request, `mountPath + '/' + bucket` otherwise.
  server.middleware.splice(server.middleware.length - 1, 0, async (ctx, next) => {
    if (/^\/[^/]+\/$/.test(ctx.path)) {
      ctx.state.vhost = true;
      ctx.mountPath = '/';
    }
    await next();
  });
  let address: AddressInfo;
  try {
    address = await server.run();
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  let stopped: Promise<void> | undefined;
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    bucket,
    accessKeyId: ACCESS_KEY,
    secretAccessKey: ACCESS_KEY,
    region: 'us-east-1',
    dir,
    pendingUploads: async () => {
      try {
        return (await readdir(uploadsOf(bucket))).length;
      } catch {
        return 0;
      }
    },
    stop: () =>
      (stopped ??= server
        .close()
        .catch(() => undefined)
        .then(() => rm(dir, { recursive: true, force: true }))),
  };
}

/** The settings an `S3FileStorage` needs to keep its files in this server (its test credentials). */
export function s3Settings(server: S3Server): S3Settings {
  return {
    bucket: server.bucket,
    endpoint: server.endpoint,
    region: server.region,
    forcePathStyle: true,
    credentials: { accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey },
  };
}

/** The environment an app server needs to keep its files in this server. */
export function s3Env(server: S3Server): Record<string, string> {
  return {
    FILE_STORAGE: 's3',
    S3_BUCKET: server.bucket,
    S3_ENDPOINT: server.endpoint,
    S3_REGION: server.region,
    S3_FORCE_PATH_STYLE: 'true',
    AWS_ACCESS_KEY_ID: server.accessKeyId,
    AWS_SECRET_ACCESS_KEY: server.secretAccessKey,
  };
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const server = await startS3Server({ port: Number(process.argv[2] ?? 0) });
  console.log(JSON.stringify({ ...s3Env(server), endpoint: server.endpoint, bucket: server.bucket }));
  const stop = (): void => {
    void server.stop().then(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

/** The name the e2e helpers use. */
export { startS3Server as start };
