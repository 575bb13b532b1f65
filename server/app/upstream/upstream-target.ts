/** An upstream as the app server is configured with it: where, with which key, and under which names. */
export interface UpstreamTarget {
  /** Base URL of the service, without the version segment: `https://api-v2.mindee.net`. */
  url: string;
  apiKey: string;
  /** Who it is for the review store, when its URL may change (proxy/create-proxy.ts `Upstream`). */
  identity?: string | undefined;
  /** The embedded reference service (reported as such by /api/health). */
  embedded?: boolean;
  /**
   * Other base URLs under which this upstream writes its own absolute URLs (for example the
   * reference service's REFERENCE_PUBLIC_URL when it differs from the URL we call it at). Rewritten
   * like `url`.
   */
  aliases?: readonly string[];
}
