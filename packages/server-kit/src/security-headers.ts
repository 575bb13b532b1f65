/**
 * Security headers on every response of the app server (pages, files, proxied API answers, problems).
 *
 * The Content-Security-Policy allows only our own origin, plus what a React + pdf.js (react-pdf)
 * app needs:
 * - `script-src 'wasm-unsafe-eval'`: pdf.js decodes JPEG 2000, JBIG2 and ICC colours with
 *   WebAssembly, fetched from our own `/pdfjs/wasm/`. A module worker gets the CSP of its own script
 *   response, so the worker file carries this header too (it is set on every response).
 * - `script-src 'sha256-…'`: index.html's one inline script, which sets the colour theme before the
 *   first paint (a file of its own would hold the first paint for a request). Allowed by its hash
 *   only; scripts/theme/inline-script-hash.test.ts checks the hash against index.html.
 * - `worker-src 'self' blob:`: pdf.js starts its worker as a module from our origin, and falls back to
 *   a blob: URL when it cannot.
 * - `img-src`/`connect-src blob: data:`: documents kept in IndexedDB are shown and fetched through
 *   blob: URLs; pdf.js and the page view use data: and blob: images.
 * - `style-src 'unsafe-inline'`: style attributes in markup (React sets styles through the CSSOM,
 *   which CSP does not restrict, but a library may not). No third-party origin anywhere.
 * No `Strict-Transport-Security`: the server may run on plain HTTP on a workstation; a TLS-terminating
 * reverse proxy in front of it is the place for HSTS (docs/app-server.md).
 *
 * An answer that is data and never a page (a kept file: `KEPT_FILE_CONTENT_SECURITY_POLICY`) keeps
 * its own, stricter policy: the app's would let a kept HTML file run script on our origin. Only that
 * policy is kept: any other an answer carries (an upstream's, passed on by the proxy) is replaced.
 */
import type { MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';

/** index.html's inline theme script (see above). */
export const THEME_SCRIPT_HASH = "'sha256-BGdMuTHxFSKdhl9Tvh4jJXKfiWF5KaST5bXWIOW+V3U='";

export const CONTENT_SECURITY_POLICY = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'", "'wasm-unsafe-eval'", THEME_SCRIPT_HASH],
  workerSrc: ["'self'", 'blob:'],
  imgSrc: ["'self'", 'blob:', 'data:'],
  connectSrc: ["'self'", 'blob:', 'data:'],
  styleSrc: ["'self'", "'unsafe-inline'"],
  fontSrc: ["'self'", 'data:'],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

/**
 * A kept file's policy: nothing loads, nothing runs, no form, no plugin, no same-origin access (a
 * `sandbox` with no allowance gives the document a unique opaque origin), and no page may frame it.
 */
export const KEPT_FILE_CONTENT_SECURITY_POLICY = "default-src 'none'; sandbox; frame-ancestors 'none'";

export function securityHeaders(): MiddlewareHandler {
  const headers = appSecureHeaders();
  return async (c, next) => {
    let own: string | null = null;
    await headers(c, async () => {
      await next();
      own = c.res.headers.get('Content-Security-Policy');
    });
    if (own === KEPT_FILE_CONTENT_SECURITY_POLICY) c.res.headers.set('Content-Security-Policy', own);
  };
}

function appSecureHeaders(): MiddlewareHandler {
  return secureHeaders({
    contentSecurityPolicy: CONTENT_SECURITY_POLICY,
    xContentTypeOptions: 'nosniff',
    referrerPolicy: 'no-referrer',
    xFrameOptions: 'DENY',
    crossOriginOpenerPolicy: 'same-origin',
    crossOriginResourcePolicy: 'same-origin',
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: false,
    permissionsPolicy: { camera: [], microphone: [], geolocation: [], payment: [], usb: [] },
  });
}
