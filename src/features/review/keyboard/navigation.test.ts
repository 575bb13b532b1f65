import { describe, expect, it } from 'vitest';
import { commandForKey, isTypingTarget } from './keymap';
import { navigate, type NavField } from './navigation';

const fields: NavField[] = [
  { path: 'a', toReview: false },
  { path: 'b', toReview: true },
  { path: 'c', toReview: false },
  { path: 'd', toReview: true },
];

describe('navigate', () => {
  it('moves to the next and previous field, stopping at the ends', () => {
    expect(navigate(fields, null, 'nextField')).toBe('a');
    expect(navigate(fields, 'a', 'nextField')).toBe('b');
    expect(navigate(fields, 'd', 'nextField')).toBe('d');
    expect(navigate(fields, null, 'previousField')).toBe('d');
    expect(navigate(fields, 'b', 'previousField')).toBe('a');
    expect(navigate(fields, 'a', 'previousField')).toBe('a');
    // A selection no longer shown (filtered out) starts over from the ends.
    expect(navigate(fields, 'gone', 'nextField')).toBe('a');
  });

  it('goes to the next field needing review, wrapping around', () => {
    expect(navigate(fields, null, 'nextToReview')).toBe('b');
    expect(navigate(fields, 'b', 'nextToReview')).toBe('d');
    expect(navigate(fields, 'd', 'nextToReview')).toBe('b');
    expect(navigate(fields, 'c', 'previousToReview')).toBe('b');
    expect(navigate(fields, null, 'previousToReview')).toBe('d');
  });

  it('says when nothing is left to review', () => {
    expect(navigate([{ path: 'a', toReview: false }], 'a', 'nextToReview')).toBeNull();
    expect(navigate([{ path: 'a', toReview: true }], 'a', 'nextToReview')).toBeNull();
    expect(navigate([], null, 'nextField')).toBeNull();
  });
});

describe('commandForKey', () => {
  const key = (
    k: string,
    target: EventTarget | null = document.body,
    extra: Partial<KeyboardEventInit> = {},
  ) => commandForKey({ key: k, ctrlKey: false, metaKey: false, altKey: false, target, ...extra });

  it('maps the review keys', () => {
    expect(key('j')).toBe('nextField');
    expect(key('ArrowDown')).toBe('nextField');
    expect(key('k')).toBe('previousField');
    expect(key('n')).toBe('nextToReview');
    expect(key('N')).toBe('previousToReview');
    expect(key('Enter')).toBe('edit');
    expect(key('PageDown')).toBe('nextPage');
    expect(key(']')).toBe('nextPage');
    expect(key('[')).toBe('previousPage');
    expect(key('+')).toBe('zoomIn');
    expect(key('-')).toBe('zoomOut');
    expect(key('0')).toBe('zoomReset');
    expect(key('r')).toBe('rotate');
    expect(key('?')).toBe('help');
    expect(key('x')).toBeNull();
  });

  it('never fires while typing, nor with a modifier, nor Enter on a button', () => {
    const input = document.createElement('input');
    const select = document.createElement('select');
    const area = document.createElement('textarea');
    const box = Object.assign(document.createElement('input'), { type: 'checkbox' });
    const button = document.createElement('button');
    for (const target of [input, select, area]) {
      expect(isTypingTarget(target)).toBe(true);
      expect(key('j', target)).toBeNull();
    }
    expect(key('j', box)).toBe('nextField');
    expect(key('Enter', button)).toBeNull();
    expect(key('ArrowDown', button)).toBeNull();
    expect(key('j', button)).toBe('nextField');
    expect(
      commandForKey({ key: 'r', ctrlKey: true, metaKey: false, altKey: false, target: document.body }),
    ).toBeNull();
    const editable = document.createElement('div');
    editable.setAttribute('contenteditable', 'true');
    document.body.append(editable);
    expect(key('j', editable)).toBeNull();
    editable.remove();
  });
});
