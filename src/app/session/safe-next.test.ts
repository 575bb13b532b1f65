import { describe, expect, it } from 'vitest';
import { safeNextPath, signInHref } from './safe-next';

describe('safeNextPath', () => {
  it('keeps a path of this app, with its query and fragment', () => {
    expect(safeNextPath('/queue')).toBe('/queue');
    expect(safeNextPath('/queue?state=to_review#top')).toBe('/queue?state=to_review#top');
  });

  it('refuses whatever could leave the origin', () => {
    for (const raw of [
      null,
      '',
      'queue',
      '//evil.example/x',
      '/\\evil.example',
      'https://evil.example/',
      'javascript:alert(1)',
      '/\t/evil.example',
      ' /queue',
    ])
      expect(safeNextPath(raw), String(raw)).toBeNull();
  });
});

describe('signInHref', () => {
  it('comes back to the page, but not to the sign-in page itself', () => {
    expect(signInHref('/queue?state=to_review')).toBe('/sign-in?next=%2Fqueue%3Fstate%3Dto_review');
    expect(signInHref('/sign-in?next=/x')).toBe('/sign-in');
    expect(signInHref('//evil.example')).toBe('/sign-in');
  });
});
