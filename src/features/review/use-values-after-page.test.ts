import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useValuesAfterPage, VALUES_WAIT_MS } from './use-values-after-page';

describe('useValuesAfterPage', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('shows the values at once when no document is expected', () => {
    const { result } = renderHook(() => useValuesAfterPage(false));
    expect(result.current.waiting).toBe(false);
  });

  it('holds them back until a page is drawn', () => {
    const { result } = renderHook(() => useValuesAfterPage(true));
    expect(result.current.waiting).toBe(true);
    act(() => result.current.onPageDrawn());
    expect(result.current.waiting).toBe(false);
  });

  it('holds them back no longer than VALUES_WAIT_MS', () => {
    const { result } = renderHook(() => useValuesAfterPage(true));
    act(() => vi.advanceTimersByTime(VALUES_WAIT_MS - 1));
    expect(result.current.waiting).toBe(true);
    act(() => vi.advanceTimersByTime(1));
    expect(result.current.waiting).toBe(false);
  });

  it('shows them once the document is no longer expected, and never hides them again', () => {
    const { result, rerender } = renderHook(({ expected }) => useValuesAfterPage(expected), {
      initialProps: { expected: true },
    });
    rerender({ expected: false });
    expect(result.current.waiting).toBe(false);
    act(() => vi.advanceTimersByTime(VALUES_WAIT_MS));
    rerender({ expected: true });
    expect(result.current.waiting).toBe(false);
  });
});
