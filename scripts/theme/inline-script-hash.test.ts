import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { CONTENT_SECURITY_POLICY } from '@extraction-review/server-kit/security-headers';

describe("index.html's inline scripts", () => {
  it('are each allowed by the Content-Security-Policy, by the hash of their exact text', () => {
    const html = readFileSync(new URL('../../index.html', import.meta.url), 'utf8');
    const inline = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1] ?? '');
    expect(inline).toHaveLength(1);
    for (const text of inline) {
      const hash = `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
      expect(CONTENT_SECURITY_POLICY.scriptSrc).toContain(hash);
    }
  });
});
