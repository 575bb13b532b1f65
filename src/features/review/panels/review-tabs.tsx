import { useId, type KeyboardEvent, type ReactNode } from 'react';

export interface TabSpec<T extends string> {
  id: T;
  label: string;
  content: ReactNode;
}

interface Props<T extends string> {
  label: string;
  tabs: readonly TabSpec<T>[];
  selected: T;
  onSelect: (id: T) => void;
  /** Said at the end of the tabs' row (the save status): a line the values do not lose. */
  trailing?: ReactNode;
}

/** Tabs in the ARIA pattern: one tab stop, arrows and Home/End move between tabs, the panel follows. */
export function ReviewTabs<T extends string>({ label, tabs, selected, onSelect, trailing }: Props<T>) {
  const prefix = useId();
  const current = tabs.find((t) => t.id === selected) ?? tabs[0];

  function onKeyDown(event: KeyboardEvent) {
    const at = tabs.findIndex((t) => t.id === selected);
    const to =
      event.key === 'ArrowRight'
        ? (at + 1) % tabs.length
        : event.key === 'ArrowLeft'
          ? (at - 1 + tabs.length) % tabs.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? tabs.length - 1
              : null;
    const tab = to == null ? undefined : tabs[to];
    if (!tab) return;
    event.preventDefault();
    onSelect(tab.id);
    document.getElementById(`${prefix}-tab-${tab.id}`)?.focus();
  }

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <div className="flex shrink-0 items-end gap-2 border-b border-slate-300">
        <div
          role="tablist"
          aria-label={label}
          onKeyDown={onKeyDown}
          className="flex max-w-full shrink-0 gap-1 overflow-x-auto"
        >
          {tabs.map((tab) => (
            <button
              key={tab.id}
              id={`${prefix}-tab-${tab.id}`}
              type="button"
              role="tab"
              aria-selected={tab.id === current?.id}
              aria-controls={`${prefix}-panel`}
              tabIndex={tab.id === current?.id ? 0 : -1}
              onClick={() => onSelect(tab.id)}
              className="-mb-px rounded-t border border-transparent px-3 py-1.5 text-sm whitespace-nowrap text-slate-800 hover:bg-slate-100 aria-selected:border-slate-300 aria-selected:border-b-white aria-selected:bg-white aria-selected:font-semibold aria-selected:text-slate-950"
            >
              {tab.label}
            </button>
          ))}
        </div>
        {trailing != null && (
          <div className="ml-auto min-w-0 truncate pb-1.5 text-xs [&>p]:truncate [&>p]:text-xs">
            {trailing}
          </div>
        )}
      </div>
      <div
        id={`${prefix}-panel`}
        role="tabpanel"
        // Focusable, as the tabs pattern asks of a panel: it is the region that scrolls, and a
        // panel without a control in it (Details) is still scrolled with the keyboard.
        tabIndex={0}
        aria-labelledby={`${prefix}-tab-${current?.id ?? ''}`}
        className="relative min-h-0 flex-1 overflow-auto pt-3"
      >
        {current?.content}
      </div>
    </div>
  );
}
