import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { THEME_STORAGE_KEY, applyTheme, setThemeChoice, useTheme } from './theme';

/** A system whose colour preference the test turns, as the operating system would. */
function fakeSystem(dark: boolean) {
  const listeners = new Set<() => void>();
  const query = {
    get matches() {
      return dark;
    },
    addEventListener: (_: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_: string, listener: () => void) => listeners.delete(listener),
  };
  vi.stubGlobal('matchMedia', () => query);
  return {
    turn(toDark: boolean) {
      dark = toDark;
      for (const listener of listeners) listener();
    },
  };
}

const isDarkPage = () => document.documentElement.classList.contains('dark');

describe('the theme', () => {
  beforeEach(() => {
    localStorage.clear();
    document.documentElement.classList.remove('dark');
  });
  afterEach(() => {
    act(() => setThemeChoice('system'));
    vi.unstubAllGlobals();
  });

  it('follows the system when nothing was chosen, also when the system changes', () => {
    const system = fakeSystem(true);
    const { result } = renderHook(() => useTheme());
    expect(result.current[0]).toBe('system');
    applyTheme();
    expect(isDarkPage()).toBe(true);
    act(() => system.turn(false));
    expect(isDarkPage()).toBe(false);
  });

  it('keeps a choice in this browser, over the system, and forgets it on "System"', () => {
    const system = fakeSystem(true);
    const { result } = renderHook(() => useTheme());
    act(() => result.current[1]('light'));
    expect(result.current[0]).toBe('light');
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('light');
    expect(isDarkPage()).toBe(false);
    act(() => system.turn(true));
    expect(isDarkPage()).toBe(false);

    act(() => result.current[1]('system'));
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBeNull();
    expect(isDarkPage()).toBe(true);
  });

  it("follows another tab's choice", () => {
    fakeSystem(false);
    const { result } = renderHook(() => useTheme());
    localStorage.setItem(THEME_STORAGE_KEY, 'dark');
    act(() => {
      window.dispatchEvent(new StorageEvent('storage', { key: THEME_STORAGE_KEY, newValue: 'dark' }));
    });
    expect(result.current[0]).toBe('dark');
    expect(isDarkPage()).toBe(true);
  });

  it('takes anything else kept under its key for "System"', () => {
    fakeSystem(false);
    localStorage.setItem(THEME_STORAGE_KEY, 'purple');
    const { result } = renderHook(() => useTheme());
    expect(result.current[0]).toBe('system');
  });
});
