/**
 * A menu of the header's links (the admin pages under "Admin"), so that the navigation stays on one
 * line at 1280 px. The WAI-ARIA menu button pattern: the button says whether the menu is open; Enter,
 * Space or ArrowDown open it on its first item, ArrowUp on its last; the arrows, Home and End move
 * between the items; Escape closes it and gives the focus back to the button; Tab, a click outside or
 * choosing a page close it.
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { Link, useLocation } from 'wouter';

export interface NavMenuItem {
  href: string;
  label: string;
}

interface Props {
  label: string;
  items: readonly NavMenuItem[];
}

/** Whether the page shown is one of the menu's (its address, or one under it: `/rules/v2/x`). */
function isUnder(location: string, href: string): boolean {
  return location === href || location.startsWith(`${href}/`);
}

export function NavMenu({ label, items }: Props) {
  const [location] = useLocation();
  // Open on the page it was opened on: choosing a page (or Back) closes it, without an effect.
  const [openedOn, setOpenedOn] = useState<string | null>(null);
  const open = openedOn === location;
  const setOpen = (value: boolean) => setOpenedOn(value ? location : null);
  const menuId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLUListElement>(null);
  // Which item to focus once the menu is drawn (the first, or the last from ArrowUp).
  const focusOnOpen = useRef<'first' | 'last'>('first');
  const current = items.some((item) => isUnder(location, item.href));

  const menuItems = () => [...(menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];

  useEffect(() => {
    if (!open) return;
    const found = menuItems();
    (focusOnOpen.current === 'first' ? found[0] : found.at(-1))?.focus();
    // A press outside the button and the menu closes it.
    const outside = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!menuRef.current?.contains(target) && !buttonRef.current?.contains(target)) setOpenedOn(null);
    };
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [open]);

  function openAt(where: 'first' | 'last') {
    focusOnOpen.current = where;
    setOpen(true);
  }

  function onButtonKey(event: KeyboardEvent<HTMLButtonElement>) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      openAt(event.key === 'ArrowDown' ? 'first' : 'last');
    }
  }

  function onMenuKey(event: KeyboardEvent<HTMLUListElement>) {
    const found = menuItems();
    const at = found.indexOf(document.activeElement as HTMLElement);
    const move = (index: number) => {
      event.preventDefault();
      found[(index + found.length) % found.length]?.focus();
    };
    switch (event.key) {
      case 'ArrowDown':
        return move(at + 1);
      case 'ArrowUp':
        return move(at - 1);
      case 'Home':
        return move(0);
      case 'End':
        return move(found.length - 1);
      case 'Escape':
        event.preventDefault();
        setOpen(false);
        buttonRef.current?.focus();
        return;
      case 'Tab':
        setOpen(false);
        return;
    }
  }

  return (
    <div className="relative">
      <button
        ref={buttonRef}
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        data-current={current || undefined}
        onClick={() => (open ? setOpen(false) : openAt('first'))}
        onKeyDown={onButtonKey}
        className="inline-flex items-center gap-1 rounded text-sm whitespace-nowrap text-slate-700 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 data-current:font-semibold data-current:text-blue-900"
      >
        {label}
        <span aria-hidden="true" className="text-xs">
          ▾
        </span>
      </button>
      {open && (
        <ul
          ref={menuRef}
          id={menuId}
          role="menu"
          aria-label={label}
          onKeyDown={onMenuKey}
          className="absolute right-0 z-50 mt-2 min-w-48 rounded-md border border-slate-200 bg-white py-1 shadow-lg"
        >
          {items.map((item) => (
            <li key={item.href} role="none">
              <Link
                href={item.href}
                role="menuitem"
                tabIndex={-1}
                aria-current={isUnder(location, item.href) ? 'page' : undefined}
                onClick={() => setOpen(false)}
                className="block px-4 py-2 text-sm whitespace-nowrap text-slate-800 hover:bg-slate-100 focus:bg-slate-100 focus:outline-none aria-[current=page]:font-semibold aria-[current=page]:text-blue-900"
              >
                {item.label}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
