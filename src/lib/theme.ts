/**
 * The colour theme: the system's (the default), or light or dark as chosen in this browser.
 *
 * The choice is kept in localStorage under THEME_STORAGE_KEY. index.html's first script reads the
 * same key and sets the class before the first paint (no flash of light on a dark system); this
 * module keeps the class right afterwards: on a choice, when the system's preference changes while
 * "System" is chosen, and when another tab of the app changes the choice.
 */
import { useSyncExternalStore } from 'react';
import { z } from 'zod';

export const THEME_STORAGE_KEY = 'extraction-review:theme';

export const ThemeChoice = z.enum(['system', 'light', 'dark']);
export type ThemeChoice = z.infer<typeof ThemeChoice>;

const DARK_QUERY = '(prefers-color-scheme: dark)';

function storage(): Storage | undefined {
  try {
    return globalThis.localStorage ?? undefined;
  } catch {
    // Storage refused (a privacy setting): the system's theme, and choices last for the page.
    return undefined;
  }
}

let unstoredChoice: ThemeChoice = 'system';

export function readThemeChoice(): ThemeChoice {
  const stored = ThemeChoice.safeParse(storage()?.getItem(THEME_STORAGE_KEY));
  return stored.success ? stored.data : unstoredChoice;
}

function systemIsDark(): boolean {
  return globalThis.matchMedia?.(DARK_QUERY).matches ?? false;
}

/** Whether the page is dark under a choice: "system" follows the operating system's preference. */
export function isDark(choice: ThemeChoice): boolean {
  return choice === 'dark' || (choice === 'system' && systemIsDark());
}

export function applyTheme(choice: ThemeChoice = readThemeChoice()): void {
  document.documentElement.classList.toggle('dark', isDark(choice));
}

const listeners = new Set<() => void>();

function notify() {
  applyTheme();
  for (const listener of listeners) listener();
}

export function setThemeChoice(choice: ThemeChoice): void {
  unstoredChoice = choice;
  const store = storage();
  try {
    // "System" is the default: nothing kept, so the page follows the system again.
    if (choice === 'system') store?.removeItem(THEME_STORAGE_KEY);
    else store?.setItem(THEME_STORAGE_KEY, choice);
  } catch {
    // Full or refused: the choice lasts for this page.
  }
  notify();
}

function subscribe(listener: () => void): () => void {
  if (listeners.size === 0) {
    globalThis.matchMedia?.(DARK_QUERY).addEventListener('change', notify);
    globalThis.addEventListener('storage', onStorage);
    // The system (or another tab) may have changed since index.html's script ran, unheard.
    applyTheme();
  }
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      globalThis.matchMedia?.(DARK_QUERY).removeEventListener('change', notify);
      globalThis.removeEventListener('storage', onStorage);
    }
  };
}

function onStorage(event: StorageEvent) {
  // Another tab chose (or a clear of the site's data): this one follows.
  if (event.key === THEME_STORAGE_KEY || event.key === null) notify();
}

/** The theme chosen in this browser, and the way to change it; the page's class follows both. */
export function useTheme(): [ThemeChoice, (choice: ThemeChoice) => void] {
  const choice = useSyncExternalStore(subscribe, readThemeChoice, () => 'system' as const);
  return [choice, setThemeChoice];
}
