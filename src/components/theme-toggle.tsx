import type { ReactNode } from 'react';
import { useTheme, type ThemeChoice } from '../lib/theme';

const CHOICES: { value: ThemeChoice; label: string; icon: ReactNode }[] = [
  {
    value: 'system',
    label: 'System',
    icon: (
      <>
        <rect x="3" y="4" width="18" height="12" rx="1.5" />
        <path d="M8 20h8M12 16v4" />
      </>
    ),
  },
  {
    value: 'light',
    label: 'Light',
    icon: (
      <>
        <circle cx="12" cy="12" r="4" />
        <path d="M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4" />
      </>
    ),
  },
  {
    value: 'dark',
    label: 'Dark',
    icon: <path d="M20 14.5A8 8 0 1 1 9.5 4a6.5 6.5 0 0 0 10.5 10.5Z" />,
  },
];

/**
 * System / Light / Dark, remembered in this browser (src/lib/theme.ts). Three radio buttons drawn as
 * icons: small enough for the header, named for screen readers, and arrow keys move between them.
 */
export function ThemeToggle() {
  const [choice, setChoice] = useTheme();
  return (
    <fieldset className="flex items-center rounded-md border border-slate-300 p-0.5">
      <legend className="sr-only">Theme</legend>
      {CHOICES.map(({ value, label, icon }) => (
        <label key={value} title={`${label} theme`} className="relative cursor-pointer">
          <input
            type="radio"
            name="theme"
            value={value}
            checked={choice === value}
            onChange={() => setChoice(value)}
            className="peer sr-only"
          />
          <span className="sr-only">{label}</span>
          <svg
            aria-hidden="true"
            viewBox="0 0 24 24"
            className="block size-7 rounded p-1.5 fill-none stroke-current stroke-2 text-slate-600 peer-checked:bg-slate-200 peer-checked:text-slate-900 peer-focus-visible:outline-2 peer-focus-visible:outline-blue-700 hover:text-slate-900"
            strokeLinecap="round"
            strokeLinejoin="round"
          >
            {icon}
          </svg>
        </label>
      ))}
    </fieldset>
  );
}
