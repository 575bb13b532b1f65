/**
 * Security headers on every response of the app server (pages, files, proxied API answers, problems).
 *
 * The Content-Security-Policy allows only our own origin, plus what a React + pdf.js (react-pdf)
 * app needs:
 * - `script-src 'wasm-unsafe-eval'`: pdf.js decodes JPEG 2000, JBIG2 and ICC colours with
 *   WebAssembly, fetched from our own `/pdfjs/wasm/`. A module worker gets the CSP of its own script
 *   response, so the worker file carries this header too (it is set on every response).
 * - `worker-src 'self' blob:`: pdf.js starts its worker as a module from our origin, and falls back to
 *   a blob: URL when it cannot.
 * - `img-src`/`connect-src blob: data:`: documents kept in IndexedDB are shown and fetched through
 *   blob: URLs; pdf.js and the page view use data: and blob: images.
 * - `style-src 'unsafe-inline'`: style attributes in markup (React sets styles through the CSSOM,
 *   which CSP does not restrict, but a library may not). No third-party origin anywhere.
 * No `Strict-Transport-Security`: the server may run on plain HTTP on a workstation; a TLS-terminating
 * reverse proxy in front of it is the place for HSTS (docs/app-server.md).
 */
import type { MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';

export const CONTENT_SECURITY_POLICY = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
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

export function securityHeaders(): MiddlewareHandler {
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
