/**
 * The header's navigation: only what the signed-in role can use (issue 21: a signed-out visitor saw
 * the team's pages, an operator links to admin pages), on one line at 1280 px, the admin pages under
 * one "Admin" menu. Its height is fixed, so the header does not grow once the session is known.
 */
import type { ReactNode } from 'react';
import { Link, useRoute } from 'wouter';
import { SessionMenu } from '../features/team/session-menu';
import { ThemeToggle } from '../components/theme-toggle';
import { NavMenu, type NavMenuItem } from './nav-menu';
import { useSession } from './session/use-session';

/** The admins' pages, in the "Admin" menu. */
export const ADMIN_PAGES: readonly NavMenuItem[] = [
  { href: '/operators', label: 'Operators' },
  { href: '/rules', label: 'Rules' },
  { href: '/deliveries', label: 'Deliveries' },
  { href: '/exports', label: 'Exports' },
  { href: '/analytics', label: 'Where time goes' },
];

export function MainNav({ end }: { end?: ReactNode }) {
  const session = useSession();
  const role = session.data?.operator.role;
  return (
    <nav
      aria-label="Main"
      className="mx-auto flex h-14 max-w-screen-2xl items-center gap-5 px-4 whitespace-nowrap"
    >
      <Link href="/" className="text-base font-semibold text-blue-900">
        Extraction review
      </Link>
      {role !== undefined && (
        <>
          <NavLink href="/">New extraction</NavLink>
          <NavLink href="/uploads">Uploads</NavLink>
        </>
      )}
      {/* Saved reviews are this browser's own: open to anyone. */}
      <NavLink href="/open">Open saved</NavLink>
      {role !== undefined && <NavLink href="/queue">Team queue</NavLink>}
      {role === 'admin' && <NavMenu label="Admin" items={ADMIN_PAGES} />}
      <div className="ml-auto flex items-center gap-3">
        {end}
        <ThemeToggle />
        <SessionMenu />
      </div>
    </nav>
  );
}

function NavLink({ href, children }: { href: string; children: ReactNode }) {
  const [active] = useRoute(href);
  return (
    <Link
      href={href}
      aria-current={active ? 'page' : undefined}
      className="text-sm text-slate-700 hover:underline aria-[current=page]:font-semibold aria-[current=page]:text-blue-900"
    >
      {children}
    </Link>
  );
}
