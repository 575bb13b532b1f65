/**
 * For tests: the app server with a review store, wired as server/main.ts wires it (the proxy to an
 * upstream, the intake keeping what is uploaded, a job follower bringing in results), and an operator
 * signed in over HTTP, as a browser does. The attack tests of issue 18 and the intake's own tests each
 * wrote this out; one place keeps them alike.
 */
import path from 'node:path';
import { SessionResponse } from '@extraction-review/contract/review/schemas';
import { createApp } from '@extraction-review/app-server/create-app';
import { listen, type RunningServer } from '@extraction-review/app-server/listen';
import type { Upstream } from '@extraction-review/app-server/upstream/upstream-client';
import { mountReview } from '@extraction-review/app-server/review/http/mount-review';
import { JobFollower } from '@extraction-review/app-server/review/intake/job-follower';
import type { OpenedReview } from '@extraction-review/app-server/review/open-review';

export interface ReviewOverHttp {
  server: RunningServer;
  follower: JobFollower;
}

/**
 * Listens on 127.0.0.1 at a free port. `follow`: the follower also polls on its own (start()), as in
 * production; without it, it follows only the documents the intake hands it.
 */
export async function listenWithReview(
  review: OpenedReview,
  options: { dataDir: string; upstream: Upstream; follow?: boolean; trustProxy?: string[] },
): Promise<ReviewOverHttp> {
  const { upstream } = options;
  const follower = new JobFollower({ review, upstream: { v2: upstream, v1: upstream } });
  if (options.follow === true) follower.start();
  const hosts = options.trustProxy === undefined ? undefined : { trustProxy: options.trustProxy };
  const server = await listen(
    createApp({
      upstream: { v2: upstream, v1: upstream },
      staticDir: null,
      ...(hosts === undefined ? {} : { hosts }),
      review: mountReview(review, {
        ...(hosts === undefined ? {} : { hosts }),
        intake: {
          tempDir: path.join(options.dataDir, 'incoming'),
          onDocument: (id) => follower.follow(id),
        },
      }),
    }),
    { host: '127.0.0.1', port: 0 },
  );
  return { server, follower };
}

/** An operator's session cookie (`er_session=…`) and CSRF token, from the sign-in route. */
export async function signInOverHttp(
  baseUrl: string,
  name: string,
  password: string,
): Promise<{ cookie: string; csrf: string }> {
  const signedIn = await fetch(`${baseUrl}/api/session`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: baseUrl },
    body: JSON.stringify({ name, password }),
  });
  if (signedIn.status !== 200)
    throw new Error(`sign-in as ${name}: ${signedIn.status} ${await signedIn.text()}`);
  return {
    csrf: SessionResponse.parse(await signedIn.json()).csrfToken,
    cookie: (signedIn.headers.get('set-cookie') ?? '').split(';')[0] ?? '',
  };
}
