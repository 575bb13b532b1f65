/**
 * Rewrites the upstream's absolute URLs into paths under our own origin, so the browser can follow
 * them through the proxy: `<v2 url>/v2/jobs/1` → `/api/v2/jobs/1`, `<v1 url>/v1/documents/queue/1` →
 * `/api/v1/documents/queue/1`. Pure: no I/O, no configuration read here.
 *
 * Only the bases we are given are rewritten (the configured upstream URLs and their aliases). A URL on
 * another host stays as it is, even when it belongs to the same API: the hosted v1 feedback answers
 * carry `https://feedbacks.mindee.net/v1/...` in `api_request.url`, which is informational; we do not
 * guess that such a host is reachable through our v1 route (docs/app-server.md, "URL rewriting").
 */

export interface RewriteRule {
  /** An absolute base, for example `https://api-v2.mindee.net/v2`. A trailing slash is ignored. */
  from: string;
  /** The path that replaces it, for example `/api/v2`. */
  to: string;
}

export interface UrlRewriter {
  /** `value` rewritten when it is an absolute URL under one of the bases; otherwise `value` itself. */
  rewriteUrl(value: string): string;
  /**
   * Every string value (not object keys) of a JSON text that is a URL under one of the bases, rewritten.
   * Everything else is kept byte for byte: numbers are not re-serialised (no precision loss), and a
   * text with nothing to rewrite, or that is not valid JSON, is returned unchanged.
   */
  rewriteJsonText(text: string): string;
  /**
   * A `Location` header value. A relative reference is first resolved against the upstream URL of the
   * request that received it; if the result is under no base it is returned absolute (the browser
   * would otherwise resolve it against our origin, which is wrong).
   */
  rewriteLocation(location: string, upstreamRequestUrl: string): string;
}

interface CompiledRule {
  origin: string;
  /** Pathname of the base without a trailing slash (`/v2`, or `/prefix/v2`). */
  path: string;
  to: string;
}

function compile(rule: RewriteRule): CompiledRule {
  const base = new URL(rule.from);
  if (base.protocol !== 'http:' && base.protocol !== 'https:') {
    throw new Error(`Rewrite base must be an http(s) URL: ${rule.from}`);
  }
  return { origin: base.origin, path: base.pathname.replace(/\/+$/, ''), to: rule.to.replace(/\/+$/, '') };
}

const ABSOLUTE_HTTP = /^https?:\/\//i;
/** A JSON string token (the "unrolled loop" form, linear even on megabyte-long strings). */
const JSON_STRING = /"[^"\\]*(?:\\.[^"\\]*)*"/g;
/** Cheap test on a raw token before decoding it: `"http://` or `"https:\/\/` (escaped slashes). */
const TOKEN_STARTS_WITH_HTTP = /^"https?:/i;

export function createUrlRewriter(rules: readonly RewriteRule[]): UrlRewriter {
  // Longest base first, so that a more specific base wins over a shorter one on the same origin.
  const compiled = rules.map(compile).sort((a, b) => b.path.length - a.path.length);

  function rewriteUrl(value: string): string {
    if (compiled.length === 0 || !ABSOLUTE_HTTP.test(value)) return value;
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return value;
    }
    if (url.username !== '' || url.password !== '') return value;
    for (const rule of compiled) {
      if (url.origin !== rule.origin) continue;
      const { pathname } = url;
      if (pathname === rule.path || pathname.startsWith(`${rule.path}/`)) {
        return `${rule.to}${pathname.slice(rule.path.length)}${url.search}${url.hash}`;
      }
    }
    return value;
  }

  function rewriteJsonText(text: string): string {
    if (compiled.length === 0) return text;
    try {
      JSON.parse(text);
    } catch {
      return text; // Not JSON after all: pass it on untouched.
    }
    let changed = false;
    const result = text.replace(JSON_STRING, (token: string, offset: number) => {
      if (!TOKEN_STARTS_WITH_HTTP.test(token) || isObjectKey(text, offset + token.length)) return token;
      const value = JSON.parse(token) as string;
      const rewritten = rewriteUrl(value);
      if (rewritten === value) return token;
      changed = true;
      return JSON.stringify(rewritten);
    });
    return changed ? result : text;
  }

  function rewriteLocation(location: string, upstreamRequestUrl: string): string {
    let resolved: string;
    try {
      resolved = new URL(location, upstreamRequestUrl).href;
    } catch {
      return location;
    }
    const rewritten = rewriteUrl(resolved);
    if (rewritten !== resolved) return rewritten;
    return ABSOLUTE_HTTP.test(location) ? location : resolved;
  }

  return { rewriteUrl, rewriteJsonText, rewriteLocation };
}

/** True when the first non-whitespace character at or after `index` is a colon. */
function isObjectKey(text: string, index: number): boolean {
  for (let i = index; i < text.length; i += 1) {
    const ch = text.charCodeAt(i);
    if (ch === 0x20 || ch === 0x09 || ch === 0x0a || ch === 0x0d) continue;
    return ch === 0x3a;
  }
  return false;
}
