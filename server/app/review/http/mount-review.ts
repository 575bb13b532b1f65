/**
 * The review store as the app server mounts it (server/app/create-app.ts takes the result): the review
 * API, the sign-in check for the upstream routes, and the recorder of uploads. Built here rather than
 * inside createApp, so that an app server without a review store never loads the review's code
 * (zod schemas, Kysely, Argon2): the proxy's streaming tests measure that lean process.
 */
import type { Hono, MiddlewareHandler } from 'hono';
import type { ExchangeRecorder } from '../../proxy/create-proxy';
import { hostPolicy } from '@extraction-review/server-kit/host-policy';
import { requestConnection, requestFacts } from '@extraction-review/server-kit/request-connection';
import { clientAddress, trustedPeers } from '@extraction-review/server-kit/trusted-proxy';
import { firstRecorder, sentBackRecorder } from './sent-back-recorder';
import { uploadRecorder } from './upload-recorder';
import { createGateway, type Gateway } from '../gateway/create-gateway';
import { createReviewApi } from './create-review-api';
import type { ReviewContext } from '../review-context';
import { requireSession } from './session-auth';

export interface ReviewMount {
  /** Mounted under /api. */
  api: Hono;
  /** Put before the upstream routes, the job events and the app's settings. */
  signedIn: MiddlewareHandler;
  /** Keeps what the app uploads (when an intake is given) and records what is sent back. */
  recorder: ExchangeRecorder;
  /**
   * The gateway for pipelines (`/v2/*`, `/v1/*` of the app server, docs/gateway.md): who calls (an
   * integration key), what it answers itself (the validated results), what each integration may
   * reach (gateway/isolation.ts), how its v1 errors look. The proxy behind it is the app server's own
   * (createApp).
   */
  gateway: Gateway;
}

export interface MountOptions {
  /** The app server's PUBLIC_URL and TRUST_PROXY: whether the browser came over HTTPS (Secure cookies). */
  hosts?: { publicUrl?: string | undefined; trustProxy?: readonly string[] } | undefined;
  /** Where request copies wait (APP_DATA_DIR/incoming), and who follows new documents' jobs. */
  intake?: { tempDir: string; onDocument?: (documentId: string) => void } | undefined;
}

export function mountReview(
  opened: Omit<ReviewContext, 'isHttps' | 'clientAddress' | 'appOrigin'>,
  options: MountOptions = {},
): ReviewMount {
  const publicHttps = options.hosts?.publicUrl?.startsWith('https:') === true;
  const trustProxy = trustedPeers(options.hosts?.trustProxy ?? []);
  const policy = hostPolicy({ publicUrl: options.hosts?.publicUrl, trustProxy });
  const review: ReviewContext = {
    ...opened,
    isHttps: (c) => publicHttps || policy.requested(requestFacts(c)).proto === 'https',
    // An in-process request (app.request(), tests) has no connection: one shared name stands for it.
    clientAddress: (c) =>
      clientAddress(c.req.raw.headers, requestConnection(c)?.remoteAddress, trustProxy) ?? 'in-process',
    appOrigin: (c) => {
      if (options.hosts?.publicUrl !== undefined) return new URL(options.hosts.publicUrl).origin;
      const requested = policy.requested(requestFacts(c));
      return requested.host === undefined
        ? new URL(c.req.url).origin
        : `${requested.proto}://${requested.host}`;
    },
  };
  const recorder =
    options.intake !== undefined && review.files !== undefined
      ? uploadRecorder({
          review,
          files: review.files,
          tempDir: options.intake.tempDir,
          onDocument: options.intake.onDocument,
        })
      : undefined;
  return {
    api: createReviewApi(review) as unknown as Hono,
    signedIn: requireSession(review) as unknown as MiddlewareHandler,
    recorder: firstRecorder([recorder, sentBackRecorder(review)]),
    gateway: createGateway(review),
  };
}
